package buildtest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// zeroReaderPkg replaces crypto/rand.Reader in its init with a reader of
// zeroes. Its import path, example.com/consumer/azero, sorts before
// randp's, so the go command initialises it first (packages whose imports
// are initialised go in import-path order).
const zeroReaderPkg = `package azero

import crand "crypto/rand"

type zeros struct{}

func (zeros) Read(b []byte) (int, error) {
	clear(b)
	return len(b), nil
}

func init() { crand.Reader = zeros{} }
`

// replacedReaderMain draws through a new source, Uint64 and Read.
const replacedReaderMain = `package main

import (
	crand "crypto/rand"
	"encoding/hex"
	"fmt"

	_ "example.com/consumer/azero"
	randp "github.com/randp/randp/go"
)

func main() {
	b := make([]byte, 16)
	randp.Read(b)
	fmt.Printf("%T %s %#x %#x %s\n", crand.Reader, randp.Implementation(), randp.Source().Uint64(), randp.Uint64(), hex.EncodeToString(b))
}
`

// TestReplacedReaderSeedsNothing: a package initialised before randp that
// replaces crypto/rand.Reader with a reader of zeroes must not make randp's
// output repeat, on either path: each path's program runs twice, and every
// value must differ between the runs.
func TestReplacedReaderSeedsNothing(t *testing.T) {
	goBin := goCmd(t)
	c := newConsumer(t, "1.24", randpModuleDir(t), map[string]string{"main.go": replacedReaderMain})
	if err := os.Mkdir(c.path("azero"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(c.path("azero"), "zero.go"), []byte(zeroReaderPkg), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, path := range []struct{ name, tags string }{{"cgo", ""}, {"purego", "randp_purego"}} {
		bin := c.path("consumer-" + path.name)
		c.run(nil, goBin, "build", "-tags="+path.tags, "-o", bin, ".")
		var runs [2][]string
		for i := range runs {
			runs[i] = strings.Fields(c.run(nil, bin))
			if len(runs[i]) != 5 || runs[i][0] != "azero.zeros" || runs[i][1] != path.name {
				t.Fatalf("%s: the program printed %q; want crypto/rand.Reader replaced and the %s path", path.name, runs[i], path.name)
			}
		}
		t.Logf("%s: %v and %v", path.name, runs[0][2:], runs[1][2:])
		for i, what := range []string{"Source().Uint64()", "Uint64()", "Read(16 bytes)"} {
			if runs[0][i+2] == runs[1][i+2] {
				t.Errorf("%s path: %s gave %s in both runs with crypto/rand.Reader replaced before randp's init", path.name, what, runs[0][i+2])
			}
		}
	}
}
