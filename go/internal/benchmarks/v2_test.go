package benchmarks_test

// What a Go programmer picks today: math/rand/v2's rand.New(src).Uint64 for
// the standard library's ChaCha8 and PCG, a buffered pure-Go AES-CTR source,
// and randp's Source and UnbufferedSource, beside randp's buffer refilled
// without a cipher (what Source costs besides the keystream); plus the
// goroutine-safe package-level Uint64 of math/rand/v2 and of randp, with one
// goroutine and under b.RunParallel.

import (
	crand "crypto/rand"
	"encoding/binary"
	"math/rand/v2"
	"testing"

	randp "github.com/randp/randp/go"
)

func BenchmarkV2Uint64(b *testing.B) {
	sources := []struct {
		name string
		src  func() rand.Source
	}{
		{"ChaCha8", func() rand.Source { return rand.NewChaCha8([32]byte{1}) }},
		{"PCG", func() rand.Source { return rand.NewPCG(1, 2) }},
		{"AESCTR", func() rand.Source { return newAESCTRSource() }},
		{"BufferOnly", func() rand.Source { return new(bufferOnlySource) }},
		{"RandpSource", func() rand.Source { return randp.Source() }},
		{"RandpUnbuffered", func() rand.Source { return randp.UnbufferedSource() }},
	}
	for _, s := range sources {
		b.Run("src="+s.name, func(b *testing.B) {
			r := rand.New(s.src())
			for range b.N {
				sinkUint64 = r.Uint64()
			}
		})
	}
}

// uint64Funcs are the package-level Uint64 functions compared.
var uint64Funcs = []struct {
	name string
	fn   func() uint64
}{
	{"MathRandV2", rand.Uint64},
	{"Randp", randp.Uint64},
	{"CryptoRand", func() uint64 {
		var b [8]byte
		crand.Read(b[:])
		return binary.LittleEndian.Uint64(b[:])
	}},
}

func BenchmarkUint64(b *testing.B) {
	for _, f := range uint64Funcs {
		b.Run("impl="+f.name, func(b *testing.B) {
			for range b.N {
				sinkUint64 = f.fn()
			}
		})
	}
}

func BenchmarkParallelUint64(b *testing.B) {
	for _, f := range uint64Funcs {
		b.Run("impl="+f.name, func(b *testing.B) {
			b.RunParallel(func(pb *testing.PB) {
				var acc uint64
				for pb.Next() {
					acc += f.fn()
				}
				sinkShared.Add(acc)
			})
		})
	}
}

// BenchmarkParallelRead32 reads 32 bytes per call on every P at once:
// randp.Read and crypto/rand.Read are goroutine-safe as they are; rand/v2
// has no global Read, so each goroutine gets its own ChaCha8, as a user
// would, and likewise its own pure-Go AES-CTR reader.
func BenchmarkParallelRead32(b *testing.B) {
	impls := []struct {
		name string
		read func() func([]byte) (int, error)
	}{
		{"MathRandV2ChaCha8", func() func([]byte) (int, error) {
			var seed [32]byte
			crand.Read(seed[:])
			return rand.NewChaCha8(seed).Read
		}},
		{"AESCTR", func() func([]byte) (int, error) { return newAESCTRSource().Read }},
		{"Randp", func() func([]byte) (int, error) { return randp.Read }},
		{"CryptoRand", func() func([]byte) (int, error) { return crand.Read }},
	}
	for _, im := range impls {
		b.Run("impl="+im.name, func(b *testing.B) {
			b.SetBytes(32)
			b.RunParallel(func(pb *testing.PB) {
				read := im.read()
				var buf [32]byte
				var acc uint64
				for pb.Next() {
					read(buf[:])
					acc += uint64(buf[0])
				}
				sinkShared.Add(acc)
			})
		})
	}
}
