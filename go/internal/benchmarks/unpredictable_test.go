package benchmarks_test

// Seed 003's table "unpredictable", row for row: every benchmark is
// rand.New(SOURCE).Int63() with math/rand (v1) unless its name says Read.
// RandpRand is randp's UnbufferedSource (one cgo call per value, the
// seed's LibcRand made with randp) and RandpBufRand its buffered Source.
// AESCTRBufRand is a buffered pure-Go crypto/aes CTR source. The Read
// benchmarks read 2 MiB per call: math/rand, randp, the pure-Go AES-CTR
// reader and math/rand/v2's ChaCha8.

import (
	"math/rand"
	randv2 "math/rand/v2"
	"testing"

	randp "github.com/randp/randp/go"
	"github.com/randp/randp/go/internal/cbench"
)

func benchInt63(b *testing.B, src rand.Source) {
	r := rand.New(src)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		sinkInt64 = r.Int63()
	}
}

func needArc4random(b *testing.B) {
	if !cbench.HaveArc4random() {
		b.Skip("libc has no arc4random_buf (glibc >= 2.36 needed)")
	}
}

func BenchmarkMathRand(b *testing.B)   { benchInt63(b, rand.NewSource(1)) }
func BenchmarkCryptoRand(b *testing.B) { benchInt63(b, cryptoSource{}) }

func BenchmarkLibcRand(b *testing.B) {
	needArc4random(b)
	benchInt63(b, libcSource{})
}

func BenchmarkLibcBufRand(b *testing.B) {
	needArc4random(b)
	benchInt63(b, new(libcBufSource))
}

func BenchmarkCryptoBufRand(b *testing.B) { benchInt63(b, new(cryptoBufSource)) }

// BenchmarkCOverhead is an empty cgo call: what crossing into C costs.
func BenchmarkCOverhead(b *testing.B) {
	if !cbench.HaveCgo {
		b.Skip("built without cgo: there is no cgo call to measure")
	}
	for range b.N {
		cbench.Empty()
	}
}

func BenchmarkCryptoCastRand(b *testing.B) { benchInt63(b, cryptoCastSource{}) }
func BenchmarkRandpRand(b *testing.B)      { benchInt63(b, randp.UnbufferedSource()) }
func BenchmarkRandpBufRand(b *testing.B)   { benchInt63(b, randp.Source()) }
func BenchmarkAESCTRBufRand(b *testing.B)  { benchInt63(b, newAESCTRSource()) }

// readSize is seed 003's Read benchmark size: 2 MiB per call.
const readSize = 2 << 20

func benchRead2MiB(b *testing.B, read func([]byte) (int, error)) {
	buf := make([]byte, readSize)
	b.SetBytes(readSize)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		n, err := read(buf)
		if err != nil || n != readSize {
			b.Fatalf("read %d, %v", n, err)
		}
		sinkBytes += n
	}
}

func BenchmarkReadMathRand(b *testing.B) { benchRead2MiB(b, rand.New(rand.NewSource(1)).Read) }
func BenchmarkReadRandp(b *testing.B)    { benchRead2MiB(b, randp.Reader.Read) }
func BenchmarkReadAESCTR(b *testing.B)   { benchRead2MiB(b, newAESCTRSource().Read) }
func BenchmarkReadChaCha8(b *testing.B) {
	benchRead2MiB(b, randv2.NewChaCha8([32]byte{1}).Read)
}
