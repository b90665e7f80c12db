package benchmarks_test

// What goroutine safety alone costs a small Read. randp.Read hands out bytes
// from a buffer per P and pins the calling goroutine to its P around them;
// a per-goroutine reader synchronises nothing. Each op below has Read's
// signature, is called as benchRead calls every reader (through a func
// value, 4 bytes) and does only its synchronisation: none, the pin pair
// that randp.Read makes, or an atomic swap and store on a word of its own,
// the other way to own a shared buffer for the length of one call.

import (
	"sync/atomic"
	"testing"

	"github.com/randp/randp/go/internal/benchmarks"
)

//go:noinline
func guardNone(b []byte) (int, error) { return len(b), nil }

var guardWord atomic.Uintptr

//go:noinline
func guardSwap(b []byte) (int, error) {
	if guardWord.Swap(1) != 0 {
		panic("guardSwap: word already owned")
	}
	guardWord.Store(0)
	return len(b), nil
}

func BenchmarkReadGuard(b *testing.B) {
	ops := []struct {
		name string
		fn   func([]byte) (int, error)
	}{
		{"none", guardNone},
		{"pin", benchmarks.PinPair},
		{"swap", guardSwap},
	}
	for _, op := range ops {
		b.Run("op="+op.name, func(b *testing.B) { benchRead(b, 4, op.fn) })
	}
}
