package benchmarks_test

// decred dcrd's crypto/rand table, row for row: Read at dcrd's six sizes
// for crypto/rand (StdlibRead; getrandom vDSO on Go 1.24+ and Linux 6.11+),
// randp.Read (RandpRead), one cgo call per Read (RandpReadUnbuffered),
// math/rand/v2's ChaCha8 (ChaCha8Read) and a buffered pure-Go AES-CTR reader
// (AESCTRRead); then the bounded functions, Duration and ShuffleSlice of
// randp beside math/rand/v2's top-level functions (RandV2...). dcrd's own
// benchmarks and the getrandom-per-Read reader run from benches/go.

import (
	crand "crypto/rand"
	"math/rand/v2"
	"testing"
	"time"

	randp "github.com/randp/randp/go"
	"github.com/randp/randp/go/internal/benchmarks"
)

var dcrdSizes = []struct {
	name string
	n    int
}{
	{"4b", 4}, {"8b", 8}, {"32b", 32}, {"512b", 512}, {"1KiB", 1 << 10}, {"4KiB", 4 << 10},
}

func benchReadSizes(b *testing.B, read func([]byte) (int, error)) {
	for _, size := range dcrdSizes {
		b.Run(size.name, func(b *testing.B) { benchRead(b, size.n, read) })
	}
}

func BenchmarkStdlibRead(b *testing.B) { benchReadSizes(b, crand.Read) }
func BenchmarkRandpRead(b *testing.B)  { benchReadSizes(b, randp.Read) }
func BenchmarkRandpReadUnbuffered(b *testing.B) {
	if !benchmarks.HaveReadUnbuffered {
		b.Skip("the pure-Go build has no randp C library: no unbuffered call to measure")
	}
	benchReadSizes(b, benchmarks.ReadUnbuffered)
}
func BenchmarkChaCha8Read(b *testing.B) { benchReadSizes(b, rand.NewChaCha8([32]byte{1}).Read) }
func BenchmarkAESCTRRead(b *testing.B)  { benchReadSizes(b, newAESCTRSource().Read) }

// The bounded functions, Duration and ShuffleSlice as decred dcrd's
// bench_test.go measures its own (crypto/rand, run beside these by make
// bench): one bound per benchmark, drawn once from the library under test
// before the timer starts (Int32() for Int32N, Uint32() for the others;
// Duration's bound is Uint32() seconds), and one ShuffleSlice op per
// element of a 100-element []uint64. The RandV2 benchmarks are the same
// with math/rand/v2's top-level functions (it has no Duration: rand.N).

func BenchmarkInt32N(b *testing.B) {
	n := max(randp.Int32(), 1)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		sinkInt32 = randp.Int32N(n)
	}
}

func BenchmarkRandV2Int32N(b *testing.B) {
	n := max(rand.Int32(), 1)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		sinkInt32 = rand.Int32N(n)
	}
}

func BenchmarkUint32N(b *testing.B) {
	n := max(randp.Uint32(), 1)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		sinkUint32 = randp.Uint32N(n)
	}
}

func BenchmarkRandV2Uint32N(b *testing.B) {
	n := max(rand.Uint32(), 1)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		sinkUint32 = rand.Uint32N(n)
	}
}

func BenchmarkInt64N(b *testing.B) {
	n := max(int64(randp.Uint32()), 1)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		sinkInt64 = randp.Int64N(n)
	}
}

func BenchmarkRandV2Int64N(b *testing.B) {
	n := max(int64(rand.Uint32()), 1)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		sinkInt64 = rand.Int64N(n)
	}
}

func BenchmarkUint64N(b *testing.B) {
	n := max(uint64(randp.Uint32()), 1)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		sinkUint64 = randp.Uint64N(n)
	}
}

func BenchmarkRandV2Uint64N(b *testing.B) {
	n := max(uint64(rand.Uint32()), 1)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		sinkUint64 = rand.Uint64N(n)
	}
}

func BenchmarkDuration(b *testing.B) {
	n := time.Second * time.Duration(max(randp.Uint32(), 1))
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		sinkInt64 = int64(randp.Duration(n))
	}
}

func BenchmarkRandV2Duration(b *testing.B) {
	n := time.Second * time.Duration(max(rand.Uint32(), 1))
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		sinkInt64 = int64(rand.N(n))
	}
}

// shuffleLen is the slice that ShuffleSlice shuffles; one op is one element
// of it (b.N elements, so ns/op is per element as in dcrd's benchmark).
const shuffleLen = 100

func shuffleInput() []uint64 {
	s := make([]uint64, shuffleLen)
	for i := range s {
		s[i] = randp.Uint64()
	}
	return s
}

func BenchmarkShuffleSlice(b *testing.B) {
	s := shuffleInput()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i += shuffleLen {
		randp.ShuffleSlice(s)
	}
	sinkUint64 = s[0]
}

func BenchmarkRandV2ShuffleSlice(b *testing.B) {
	s := shuffleInput()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i += shuffleLen {
		rand.Shuffle(len(s), func(i, j int) { s[i], s[j] = s[j], s[i] })
	}
	sinkUint64 = s[0]
}
