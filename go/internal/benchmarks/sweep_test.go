package benchmarks_test

// Read by call size: one Read of each power of two from 16 B to 1 MiB, for
// randp.Read, crypto/rand.Read, a pure-Go AES-CTR reader and math/rand/v2's
// ChaCha8 (one instance per size, kept across Reads as a user keeps it), side by side: the Go
// half of BENCHMARKS.md's call-size sweep. Names: ReadSweep/<impl>/<size>.

import (
	crand "crypto/rand"
	"math/rand/v2"
	"strconv"
	"testing"

	randp "github.com/randp/randp/go"
)

// sweepSizes are 16 B .. 1 MiB, powers of two, named as the C sweep names them.
func sweepSizes() []struct {
	name string
	n    int
} {
	var s []struct {
		name string
		n    int
	}
	for n := 16; n <= 1<<20; n *= 2 {
		name := strconv.Itoa(n) + "B"
		switch {
		case n >= 1<<20:
			name = strconv.Itoa(n>>20) + "MiB"
		case n >= 1<<10:
			name = strconv.Itoa(n>>10) + "KiB"
		}
		s = append(s, struct {
			name string
			n    int
		}{name, n})
	}
	return s
}

func BenchmarkReadSweep(b *testing.B) {
	impls := []struct {
		name string
		read func() func([]byte) (int, error)
	}{
		{"Randp", func() func([]byte) (int, error) { return randp.Read }},
		{"CryptoRand", func() func([]byte) (int, error) { return crand.Read }},
		{"AESCTR", func() func([]byte) (int, error) { return newAESCTRSource().Read }},
		{"ChaCha8", func() func([]byte) (int, error) { return rand.NewChaCha8([32]byte{1}).Read }},
	}
	for _, im := range impls {
		b.Run(im.name, func(b *testing.B) {
			for _, size := range sweepSizes() {
				b.Run(size.name, func(b *testing.B) { benchRead(b, size.n, im.read()) })
			}
		})
	}
}

// benchRead times one Read of n bytes per iteration.
func benchRead(b *testing.B, n int, read func([]byte) (int, error)) {
	buf := make([]byte, n)
	b.SetBytes(int64(n))
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		got, _ := read(buf)
		sinkBytes += got
	}
}
