package randp_test

// Seed 000's table (decred dcrd's crypto/rand), row for row: Read at six
// sizes for crypto/rand (StdlibRead; getrandom vDSO on Go 1.24+ and Linux
// 6.11+), randp.Read (RandpRead), one cgo call per Read (RandpReadUnbuffered),
// math/rand/v2's ChaCha8 (ChaCha8Read) and a buffered pure-Go AES-CTR reader
// (AESCTRRead); then the bounded functions, Duration and ShuffleSlice of
// randp beside math/rand/v2's top-level functions (RandV2...).

import (
	crand "crypto/rand"
	"math/rand/v2"
	"testing"
	"time"

	randp "github.com/randp/randp/go"
)

var dcrdSizes = []struct {
	name string
	n    int
}{
	{"4b", 4}, {"8b", 8}, {"32b", 32}, {"512b", 512}, {"1KiB", 1 << 10}, {"4KiB", 4 << 10},
}

func benchReadSizes(b *testing.B, read func([]byte) (int, error)) {
	for _, size := range dcrdSizes {
		b.Run(size.name, func(b *testing.B) {
			buf := make([]byte, size.n)
			b.SetBytes(int64(size.n))
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				n, _ := read(buf)
				sinkBytes += n
			}
		})
	}
}

func BenchmarkStdlibRead(b *testing.B)          { benchReadSizes(b, crand.Read) }
func BenchmarkRandpRead(b *testing.B)           { benchReadSizes(b, randp.Read) }
func BenchmarkRandpReadUnbuffered(b *testing.B) { benchReadSizes(b, randp.ReadUnbuffered) }
func BenchmarkChaCha8Read(b *testing.B)         { benchReadSizes(b, rand.NewChaCha8([32]byte{1}).Read) }
func BenchmarkAESCTRRead(b *testing.B)          { benchReadSizes(b, newAESCTRSource().Read) }

// bounds are random bounds that are not powers of two (the slow case of
// Lemire's method), cycled through by the bounded-function benchmarks.
var bounds = func() [1024]uint64 {
	var bs [1024]uint64
	r := rand.New(rand.NewPCG(3, 4))
	for i := range bs {
		for bs[i] == 0 || bs[i]&(bs[i]-1) == 0 {
			bs[i] = r.Uint64N(1<<31 - 1)
		}
	}
	return bs
}()

func BenchmarkInt32N(b *testing.B) {
	for i := range b.N {
		sinkInt32 = randp.Int32N(int32(bounds[i%len(bounds)]))
	}
}

func BenchmarkRandV2Int32N(b *testing.B) {
	for i := range b.N {
		sinkInt32 = rand.Int32N(int32(bounds[i%len(bounds)]))
	}
}

func BenchmarkUint32N(b *testing.B) {
	for i := range b.N {
		sinkUint32 = randp.Uint32N(uint32(bounds[i%len(bounds)]))
	}
}

func BenchmarkRandV2Uint32N(b *testing.B) {
	for i := range b.N {
		sinkUint32 = rand.Uint32N(uint32(bounds[i%len(bounds)]))
	}
}

func BenchmarkInt64N(b *testing.B) {
	for i := range b.N {
		sinkInt64 = randp.Int64N(int64(bounds[i%len(bounds)] << 31))
	}
}

func BenchmarkRandV2Int64N(b *testing.B) {
	for i := range b.N {
		sinkInt64 = rand.Int64N(int64(bounds[i%len(bounds)] << 31))
	}
}

func BenchmarkUint64N(b *testing.B) {
	for i := range b.N {
		sinkUint64 = randp.Uint64N(bounds[i%len(bounds)] << 32)
	}
}

func BenchmarkRandV2Uint64N(b *testing.B) {
	for i := range b.N {
		sinkUint64 = rand.Uint64N(bounds[i%len(bounds)] << 32)
	}
}

func BenchmarkDuration(b *testing.B) {
	for i := range b.N {
		sinkInt64 = int64(randp.Duration(time.Duration(bounds[i%len(bounds)])))
	}
}

// math/rand/v2 has no Duration; its generic N is what a user would call.
func BenchmarkRandV2Duration(b *testing.B) {
	for i := range b.N {
		sinkInt64 = int64(rand.N(time.Duration(bounds[i%len(bounds)])))
	}
}

// shuffleLen is the slice that ShuffleSlice shuffles; one op is one element
// of it (b.N elements, so ns/op is per element as in seed 000).
const shuffleLen = 100

func BenchmarkShuffleSlice(b *testing.B) {
	s := make([]int, shuffleLen)
	for n := b.N; n > 0; n -= shuffleLen {
		randp.ShuffleSlice(s)
	}
	sinkInt = s[0]
}

func BenchmarkRandV2ShuffleSlice(b *testing.B) {
	s := make([]int, shuffleLen)
	for n := b.N; n > 0; n -= shuffleLen {
		rand.Shuffle(len(s), func(i, j int) { s[i], s[j] = s[j], s[i] })
	}
	sinkInt = s[0]
}
