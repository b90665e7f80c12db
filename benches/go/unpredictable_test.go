//go:build peer_unpredictable

package peers

import (
	"math/rand"
	"testing"

	"github.com/art4711/unpredictable"
)

var sinkInt64 int64

// BenchmarkUnpredictable is "How slow are decent random numbers?"'s
// Unpredictable row: rand.New(unpredictable.NewMathRandSource()).Int63().
func BenchmarkUnpredictable(b *testing.B) {
	r := rand.New(unpredictable.NewMathRandSource())
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		sinkInt64 = r.Int63()
	}
}

// BenchmarkReadUnpredictable is its ReadUnpredictable row: 2 MiB per Read
// from unpredictable.NewReader().
func BenchmarkReadUnpredictable(b *testing.B) {
	const size = 2 << 20
	rd := unpredictable.NewReader()
	buf := make([]byte, size)
	b.SetBytes(size)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		n, err := rd.Read(buf)
		if err != nil || n != size {
			b.Fatalf("read %d: %v", n, err)
		}
		sinkBytes += n
	}
}

// BenchmarkUnpredictableRead reads at dcrd's sizes, for the read-size table
// and chart.
func BenchmarkUnpredictableRead(b *testing.B) {
	benchReadSizes(b, unpredictable.NewReader().Read)
}
