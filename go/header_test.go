package randp

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestPrototypesMatchHeader checks that the prototypes declared in cgo.go's
// preamble match those of the C header include/randp.h, from which they are
// copied so that the module builds outside the repository.
func TestPrototypesMatchHeader(t *testing.T) {
	header := filepath.Join("..", "include", "randp.h")
	if _, err := os.Stat(filepath.Join("..", "Cargo.toml")); err != nil {
		t.Skip("not inside the randp repository (no ../Cargo.toml), so there is no header to compare with")
	}
	h, err := os.ReadFile(header)
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile("cgo.go")
	if err != nil {
		t.Fatal(err)
	}
	// The preamble is the comment right before import "C".
	s := string(src)
	end := strings.Index(s, "*/\nimport \"C\"")
	start := strings.LastIndex(s[:max(end, 0)], "/*")
	if start < 0 || end < 0 {
		t.Fatal("cgo.go has no /* */ preamble before import \"C\"")
	}
	ours := prototypes(s[start+2 : end])
	theirs := prototypes(string(h))
	if len(ours) == 0 {
		t.Fatal("no randp_ prototypes found in cgo.go")
	}
	for name, proto := range ours {
		if theirs[name] == "" {
			t.Errorf("%s is declared in cgo.go but not in %s", name, header)
		} else if theirs[name] != proto {
			t.Errorf("cgo.go declares\n\t%s\nbut %s declares\n\t%s", proto, header, theirs[name])
		}
	}
}

var (
	cComment  = regexp.MustCompile(`(?s)/\*.*?\*/|//[^\n]*`)
	cProto    = regexp.MustCompile(`([A-Za-z_][\w \t\*]*?)\b(randp_\w+)\s*\(([^)]*)\)\s*;`)
	cSpace    = regexp.MustCompile(`\s+`)
	cStarGlue = regexp.MustCompile(`\s*\*\s*`)
)

// prototypes returns the randp_* function prototypes in C source text,
// keyed by name and normalised to "ret name(type, type)" with parameter
// names dropped.
func prototypes(text string) map[string]string {
	text = cComment.ReplaceAllString(text, " ")
	norm := func(s string) string {
		s = cSpace.ReplaceAllString(strings.TrimSpace(s), " ")
		return cStarGlue.ReplaceAllString(s, " *")
	}
	out := make(map[string]string)
	for _, m := range cProto.FindAllStringSubmatch(text, -1) {
		ret := norm(m[1])
		ret = strings.TrimPrefix(ret, "extern ")
		var params []string
		for _, p := range strings.Split(m[3], ",") {
			p = norm(p)
			if p == "void" || p == "" {
				params = append(params, p)
				continue
			}
			// Drop the parameter name: the last identifier after the type.
			if i := strings.LastIndexAny(p, " *"); i >= 0 {
				p = strings.TrimSpace(p[:i+1])
			}
			params = append(params, norm(p))
		}
		out[m[2]] = ret + " " + m[2] + "(" + strings.Join(params, ", ") + ")"
	}
	return out
}
