package randp

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// pinnedPrologue is the one source of the prologue of a pinned section
// through the hint (perp.go): it pins the calling goroutine, leaves the
// calling P's shard in sh, acquired for the race detector, or, where that P
// has none yet, makes the shards and returns %s, the calling function called
// again with its own arguments.
//
// Each function of prologueSites holds a copy, between prologueBegin and
// prologueEnd, rather than calling a helper: the fast path must make no call
// besides procPin and procUnpin, and no function holding the prologue stays
// within the inliner's budget, where a call it cannot inline (procPin, then
// rehint) costs most of that budget.
const pinnedPrologue = `	var here byte
	slot := hintSlot(uintptr(unsafe.Pointer(&here)))
	pid := procPin()
	sh, ok := slot.Load(), true
	if !isShardOf(sh, pid) {
		sh, ok = rehint(slot, pid)
	}
	if !ok {
		pinSlow()
		return %s
	}
	sh.race.acquire()
`

// The lines around each copy of pinnedPrologue.
const (
	prologueBegin = "\t// Pinned-section prologue, generated from pinnedPrologue (prologue_test.go).\n"
	prologueEnd   = "\t// End of the generated prologue.\n"
)

// prologueSites lists the functions that open their pinned section with
// pinnedPrologue, each with the call by which it starts again.
var prologueSites = []struct{ file, fn, retry string }{
	{"buffers_cgo.go", "Uint64", "Uint64()"},
	{"buffers_purego.go", "Uint64", "Uint64()"},
	{"read.go", "Read", "Read(b)"},
}

// TestPinnedPrologue: each function of prologueSites holds pinnedPrologue,
// with its own retry, exactly once, between the marker lines, whatever the
// build tags (the files are read as text); and no other source file of the
// package looks up a hint (calls hintSlot) outside such a copy, so a copy
// written out by hand fails too. With RANDP_BLESS set, it writes the
// prologue between the markers instead (make go-prologue).
func TestPinnedPrologue(t *testing.T) {
	bless := os.Getenv("RANDP_BLESS") != ""
	for _, site := range prologueSites {
		src, err := os.ReadFile(site.file)
		if err != nil {
			t.Fatal(err)
		}
		s := string(src)
		start, end, err := prologueSpan(s)
		if err != nil {
			t.Errorf("%s: %v", site.file, err)
			continue
		}
		if fn, err := enclosingFunc(site.file, src, start); err != nil {
			t.Errorf("%s: %v", site.file, err)
		} else if fn != site.fn {
			t.Errorf("%s: the generated prologue is in %s, not %s", site.file, fn, site.fn)
		}
		want := fmt.Sprintf(pinnedPrologue, site.retry)
		if got := s[start:end]; got != want {
			if bless {
				s = s[:start] + want + s[end:]
				if err := os.WriteFile(site.file, []byte(s), 0o644); err != nil {
					t.Fatal(err)
				}
				t.Logf("%s: rewrote the prologue of %s", site.file, site.fn)
				continue
			}
			t.Errorf("%s: the prologue of %s is\n%s\nnot, as pinnedPrologue generates it,\n%s\n(make go-prologue rewrites it)",
				site.file, site.fn, got, want)
		}
	}

	sites := map[string]bool{}
	for _, site := range prologueSites {
		sites[site.file] = true
	}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		s := string(src)
		if sites[f] {
			// The copy checked above; what is left of the file must
			// not pin through the hint.
			start, end, err := prologueSpan(s)
			if err != nil {
				continue // reported above
			}
			s = s[:start] + s[end:]
		} else if strings.Contains(s, prologueBegin) {
			t.Errorf("%s has a generated prologue but is not in prologueSites", f)
		}
		if f == "perp.go" {
			s = strings.Replace(s, "func hintSlot(", "", 1)
		}
		if strings.Contains(s, "hintSlot(") {
			t.Errorf("%s calls hintSlot outside a generated prologue: open the pinned section with pinnedPrologue (prologueSites)", f)
		}
	}
}

// prologueSpan returns the byte offsets in s of the text between the one
// prologueBegin line and the prologueEnd line after it.
func prologueSpan(s string) (start, end int, err error) {
	if n := strings.Count(s, prologueBegin); n != 1 {
		return 0, 0, fmt.Errorf("%d lines %q, want 1", n, prologueBegin)
	}
	start = strings.Index(s, prologueBegin) + len(prologueBegin)
	n := strings.Index(s[start:], prologueEnd)
	if n < 0 {
		return 0, 0, fmt.Errorf("no line %q after %q", prologueEnd, prologueBegin)
	}
	return start, start + n, nil
}

// enclosingFunc returns the name of the function, not a method, whose body
// holds byte offset off of file's source src.
func enclosingFunc(file string, src []byte, off int) (string, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, src, parser.SkipObjectResolution)
	if err != nil {
		return "", err
	}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv != nil || fd.Body == nil {
			continue
		}
		if fset.Position(fd.Body.Lbrace).Offset < off && off < fset.Position(fd.Body.Rbrace).Offset {
			return fd.Name.Name, nil
		}
	}
	return "", fmt.Errorf("offset %d lies in no function's body", off)
}
