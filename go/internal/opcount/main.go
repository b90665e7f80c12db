// Command opcount calls one randp operation (or an empty cgo call) n times
// in a loop of its own, so that `valgrind --tool=callgrind
// --toggle-collect=main.loop*` counts the instructions of exactly n calls:
// a repeatable per-call cost, where timings on a shared machine are noisy.
// scripts/go-opcount.sh runs it for every operation and prints
// instructions per call.
//
//	opcount -op NAME [-n N]
package main

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"

	randp "github.com/randp/randp/go"
	"github.com/randp/randp/go/internal/cbench"
)

var sink uint64

// ops are the measured loops, one function each so that callgrind can
// toggle collection on its name.
var ops = map[string]func(n int){
	"empty-cgo":         loopEmptyCgo,
	"unbuffered-int63":  loopUnbufferedInt63,
	"unbuffered-v2":     loopUnbufferedV2,
	"buffered-int63":    loopBufferedInt63,
	"buffered-v2":       loopBufferedV2,
	"uint64":            loopUint64,
	"chacha8-v2":        loopChaCha8V2,
	"pcg-v2":            loopPCGV2,
	"mathrandv2-uint64": loopMathRandV2Uint64,
	"read4":             func(n int) { loopRead(n, 4) },
	"read8":             func(n int) { loopRead(n, 8) },
	"read16":            func(n int) { loopRead(n, 16) },
	"read32":            func(n int) { loopRead(n, 32) },
}

//go:noinline
func loopEmptyCgo(n int) {
	for range n {
		cbench.Empty()
	}
}

// The sources are called through an interface, as math/rand calls them.
type int63Source interface{ Int63() int64 }

//go:noinline
func loopUnbufferedInt63(n int) { loopInt63(randp.UnbufferedSource(), n) }

//go:noinline
func loopBufferedInt63(n int) { loopInt63(randp.Source(), n) }

func loopInt63(src int63Source, n int) {
	for range n {
		sink += uint64(src.Int63())
	}
}

//go:noinline
func loopUnbufferedV2(n int) { loopV2(rand.New(randp.UnbufferedSource()), n) }

//go:noinline
func loopBufferedV2(n int) { loopV2(rand.New(randp.Source()), n) }

func loopV2(r *rand.Rand, n int) {
	for range n {
		sink += r.Uint64()
	}
}

// The standard library's rivals: math/rand/v2's ChaCha8 and PCG through
// rand.Rand, and its goroutine-safe Uint64.
//
//go:noinline
func loopChaCha8V2(n int) { loopV2(rand.New(rand.NewChaCha8([32]byte{1})), n) }

//go:noinline
func loopPCGV2(n int) { loopV2(rand.New(rand.NewPCG(1, 2)), n) }

//go:noinline
func loopMathRandV2Uint64(n int) {
	for range n {
		sink += rand.Uint64()
	}
}

//go:noinline
func loopUint64(n int) {
	for range n {
		sink += randp.Uint64()
	}
}

//go:noinline
func loopRead(n, size int) {
	b := make([]byte, size)
	for range n {
		randp.Read(b)
		sink += uint64(b[0])
	}
}

func main() {
	op := flag.String("op", "", "operation to loop over")
	n := flag.Int("n", 1<<20, "number of calls")
	flag.Parse()
	f, ok := ops[*op]
	if !ok {
		fmt.Fprintln(os.Stderr, "opcount: unknown -op; one of:")
		for name := range ops {
			fmt.Fprintln(os.Stderr, "\t"+name)
		}
		os.Exit(2)
	}
	f(*n)
	fmt.Println(sink != 0)
}
