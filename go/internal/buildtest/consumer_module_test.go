package buildtest

import (
	"strings"
	"testing"
)

// consumerMain is the program of the consumer modules: it uses randp the
// ways the README shows and exits non-zero if a value is out of range.
const consumerMain = `package main

import (
	"fmt"
	mathrand "math/rand"
	"math/rand/v2"
	"os"

	randp "github.com/randp/randp/go"
)

func main() {
	r1 := mathrand.New(randp.Source())
	r2 := rand.New(randp.Source())
	key := make([]byte, 32)
	n, err := randp.Reader.Read(key)
	randp.Read(key[:16])
	deck := []string{"a", "b", "c"}
	randp.ShuffleSlice(deck)
	if r1.Int63() < 0 || r2.IntN(6) >= 6 || n != 32 || err != nil || randp.IntN(10) >= 10 || len(deck) != 3 {
		fmt.Println("bad value")
		os.Exit(1)
	}
	fmt.Println("consumer ok", randp.Implementation())
}
`

// TestConsumerModule builds and runs a module outside the repository that
// requires this one through a replace directive, the way a user meets the
// package: with the committed prebuilt library, no build tags and no cargo
// on PATH.
func TestConsumerModule(t *testing.T) {
	goBin := goCmd(t)
	c := newConsumer(t, "1.24", randpModuleDir(t), map[string]string{"main.go": consumerMain})
	bin := c.path("consumer")
	c.run(nil, goBin, "build", "-o", bin, ".")
	if out := c.run(nil, bin); out != "consumer ok cgo\n" {
		t.Fatalf("consumer printed %q", out)
	}
	if syms := c.run(nil, goBin, "tool", "nm", bin); !strings.Contains(syms, "randp_read") {
		t.Fatal("the consumer binary does not contain randp_read")
	}
}
