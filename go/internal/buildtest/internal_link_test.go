package buildtest

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// Go's internal linker cannot link the cgo path's prebuilt object. Its ELF
// loader (cmd/link/internal/loadelf, the same in Go 1.24 to 1.26) keeps
// only PROGBITS and NOBITS sections, so it drops .init_array, where the
// constructor that creates the library's pthread key at load time sits; it
// refuses the object because a symbol is defined there. Behind that, it
// loads no STT_TLS symbol and knows no TLS relocation (R_X86_64_GOTTPOFF,
// R_AARCH64_TLSIE_*), and the library keeps each thread's state slot in
// initial-exec TLS. The link must fail rather than produce a program
// without the constructor or with one slot for every thread: a gcc object
// whose .init_array holds no symbol links internally with its constructor
// silently dropped.

// internalLinkMain prints which path the binary uses and eight values.
const internalLinkMain = `package main

import (
	"fmt"

	randp "github.com/randp/randp/go"
)

func main() {
	fmt.Println(randp.Implementation())
	for i := 0; i < 8; i++ {
		fmt.Println(randp.Uint64())
	}
}
`

// TestInternalLinkingFailsOnCgoPath links the consumer on the cgo path with
// Go's internal linker, asked for by flag and by GO_EXTLINK_ENABLED=0: the
// link must fail, write no binary, and say why: the loader refused the
// object at .init_array, so the library's functions are undefined. If it
// links, or fails at something else, the object or the Go linker has
// changed, and whether the constructor and the thread-local state survive
// an internal link must be checked again.
func TestInternalLinkingFailsOnCgoPath(t *testing.T) {
	if runtime.GOOS != "linux" || (runtime.GOARCH != "amd64" && runtime.GOARCH != "arm64") {
		t.Skipf("%s/%s has no cgo path", runtime.GOOS, runtime.GOARCH)
	}
	goBin := goCmd(t)
	c := newConsumer(t, "1.24", randpModuleDir(t), map[string]string{"main.go": internalLinkMain})
	for _, tc := range []struct {
		name string
		env  []string
		args []string
	}{
		{"flag", nil, []string{"-ldflags=-linkmode=internal"}},
		{"GO_EXTLINK_ENABLED=0", []string{"GO_EXTLINK_ENABLED=0"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bin := c.path("consumer-internal")
			out := c.fail(tc.env, goBin, append(append([]string{"build"}, tc.args...), "-o", bin, ".")...)
			for _, want := range []string{`(".init_array")`, "relocation target randp_read not defined"} {
				if !strings.Contains(out, want) {
					t.Errorf("the internal link's output does not say %q:\n%s", want, out)
				}
			}
			if _, err := os.Stat(bin); err == nil {
				t.Fatalf("the failed internal link left a binary at %s", bin)
			}
		})
	}
}

// TestInternalLinkingPureGo links the consumer with the tag randp_purego
// and Go's internal linker, the way to build a program that must be linked
// internally, and runs it: it takes the pure-Go path, links no part of the
// prebuilt object, and draws eight distinct values.
func TestInternalLinkingPureGo(t *testing.T) {
	goBin := goCmd(t)
	c := newConsumer(t, "1.24", randpModuleDir(t), map[string]string{"main.go": internalLinkMain})
	bin := c.path("consumer-internal")
	c.run(nil, goBin, "build", "-tags", "randp_purego", "-ldflags=-linkmode=internal", "-o", bin, ".")
	lines := strings.Fields(c.run(nil, bin))
	if len(lines) != 9 || lines[0] != "purego" {
		t.Fatalf("the internally linked consumer printed %q; want purego and eight values", lines)
	}
	seen := make(map[uint64]bool)
	for _, s := range lines[1:] {
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("the internally linked consumer printed %q, not a uint64", s)
		}
		if seen[v] {
			t.Fatalf("the internally linked consumer printed %d twice: %q", v, lines[1:])
		}
		seen[v] = true
	}
	if syms := c.run(nil, goBin, "tool", "nm", bin); strings.Contains(syms, "randp_read") {
		t.Fatal("the pure-Go consumer links randp_read")
	}
}
