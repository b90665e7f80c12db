package buildtest

import (
	"strings"
	"testing"
)

// copyingMain copies a Buffered after first use, in an assignment, one of
// the copies go vet's copylocks check sees (the copy's first draw gives it a
// buffer of its own, which costs what a new source costs).
const copyingMain = `package main

import (
	"fmt"

	randp "github.com/randp/randp/go"
)

func main() {
	a := randp.Source()
	a.Uint64()
	b := *a
	fmt.Println(a.Uint64() == b.Uint64())
}
`

// sharingMain uses Buffered sources only through pointers, as it should.
const sharingMain = `package main

import (
	"fmt"
	"math/rand/v2"

	randp "github.com/randp/randp/go"
)

type game struct{ src *randp.Buffered }

func main() {
	g := game{src: randp.Source()}
	r := rand.New(g.src)
	var zero randp.Buffered
	fmt.Println(r.IntN(6), zero.Uint64() != 0)
}
`

// TestVetReportsCopiedBuffered runs go vet on a program that copies a
// Buffered (vet's copylocks check must report it) and on one that does not
// (vet must pass it).
func TestVetReportsCopiedBuffered(t *testing.T) {
	goBin := goCmd(t)
	dir := randpModuleDir(t)
	bad := newConsumer(t, "1.24", dir, map[string]string{"main.go": copyingMain})
	out := bad.fail(nil, goBin, "vet", ".")
	if !strings.Contains(out, "assignment copies lock value to b: github.com/randp/randp/go.Buffered contains github.com/randp/randp/go.noCopy") {
		t.Fatalf("go vet did not report the copy of a Buffered:\n%s", out)
	}
	good := newConsumer(t, "1.24", dir, map[string]string{"main.go": sharingMain})
	good.run(nil, goBin, "vet", ".")
}
