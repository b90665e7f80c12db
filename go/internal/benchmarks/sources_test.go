package benchmarks_test

// The rival sources of the benchmarks, after seed 003 ("How slow are decent
// random numbers?"): math/rand sources that cannot be seeded, built on
// crypto/rand, on libc's arc4random_buf through cgo, and on pure-Go
// crypto/aes in counter mode. Results go to package-level sinks so that the
// compiler cannot drop the work.

import (
	"crypto/aes"
	"crypto/cipher"
	crand "crypto/rand"
	"encoding/binary"
	"sync/atomic"

	"github.com/randp/randp/go/internal/cbench"
)

var (
	sinkInt64  int64
	sinkUint64 uint64
	sinkUint32 uint32
	sinkInt32  int32
	sinkBytes  int
	// sinkShared takes the results of RunParallel goroutines, one Add each.
	sinkShared atomic.Uint64
)

const (
	mask63 = 1<<63 - 1
	// bufValues is seed 003's buffer: 256 values per refill.
	bufValues = 256
)

// unseedable is the Seed method of a source that cannot be seeded.
type unseedable struct{}

func (unseedable) Seed(int64) { panic("this source cannot be seeded") }

// cryptoSource reads crypto/rand.Reader through encoding/binary.Read, one
// value per call (seed 003's CryptoRand).
type cryptoSource struct{ unseedable }

func (cryptoSource) Int63() int64 {
	var v int64
	if err := binary.Read(crand.Reader, binary.LittleEndian, &v); err != nil {
		panic(err)
	}
	return v & mask63
}

// cryptoBufSource is cryptoSource with seed 003's 256-value buffer
// (CryptoBufRand).
type cryptoBufSource struct {
	unseedable
	n   int
	buf [bufValues]int64
}

func (s *cryptoBufSource) Int63() int64 {
	if s.n == 0 {
		if err := binary.Read(crand.Reader, binary.LittleEndian, &s.buf); err != nil {
			panic(err)
		}
		s.n = bufValues
	}
	s.n--
	return s.buf[s.n] & mask63
}

// cryptoCastSource calls crypto/rand.Read into 8 bytes and converts them
// without encoding/binary.Read (CryptoCastRand).
type cryptoCastSource struct{ unseedable }

func (cryptoCastSource) Int63() int64 {
	var b [8]byte
	if _, err := crand.Read(b[:]); err != nil {
		panic(err)
	}
	return int64(binary.LittleEndian.Uint64(b[:]) & mask63)
}

// libcSource makes one cgo call to arc4random_buf per value (LibcRand).
type libcSource struct{ unseedable }

func (libcSource) Int63() int64 { return int64(cbench.Arc4randomUint64() & mask63) }

// libcBufSource fetches 256 values per cgo call into a Go buffer
// (LibcBufRand).
type libcBufSource struct {
	unseedable
	n   int
	buf [bufValues * 8]byte
}

func (s *libcBufSource) Int63() int64 {
	if s.n == 0 {
		cbench.Arc4randomBuf(s.buf[:])
		s.n = len(s.buf)
	}
	s.n -= 8
	return int64(binary.LittleEndian.Uint64(s.buf[s.n:]) & mask63)
}

// bufferOnlySource hands out words as randp.Buffered does (one load, one
// store of zero and one index update, in a nosplit method that calls its
// refill) but refills from a counter instead of the keystream. It is not a generator: it
// shows what randp.Source costs without the cipher, which splits randp's time
// into the buffer's share and the keystream's.
type bufferOnlySource struct {
	unseedable
	n   uint
	ctr uint64
	buf [512]uint64
}

//go:nosplit
func (s *bufferOnlySource) Uint64() uint64 {
	if i := s.n - 1; i < uint(len(s.buf)) {
		v := s.buf[i]
		s.buf[i] = 0
		s.n = i
		return v
	}
	return s.refill()
}

// refill stands for Buffered's cgo call: out of line, never inlined.
//
//go:noinline
func (s *bufferOnlySource) refill() uint64 {
	for i := range s.buf {
		s.ctr++
		s.buf[i] = s.ctr
	}
	top := uint(len(s.buf)) - 1
	v := s.buf[top]
	s.buf[top] = 0
	s.n = top
	return v
}

func (s *bufferOnlySource) Int63() int64 { return int64(s.Uint64() & mask63) }

// aesCTRSource is what a Go programmer would write today without randp: a
// buffered AES-256-CTR keystream from the standard library's crypto/aes,
// keyed from crypto/rand. It is a math/rand Source64, a math/rand/v2 Source
// and an io.Reader. (No key erasure or reseeding: a speed reference only.)
type aesCTRSource struct {
	unseedable
	stream cipher.Stream
	left   int
	buf    [aesBufSize]byte
}

const aesBufSize = 4096

func newAESCTRSource() *aesCTRSource {
	var key [32 + aes.BlockSize]byte
	crand.Read(key[:])
	block, err := aes.NewCipher(key[:32])
	if err != nil {
		panic(err)
	}
	return &aesCTRSource{stream: cipher.NewCTR(block, key[32:])}
}

func (s *aesCTRSource) refill() {
	clear(s.buf[:])
	s.stream.XORKeyStream(s.buf[:], s.buf[:])
	s.left = aesBufSize
}

func (s *aesCTRSource) Uint64() uint64 {
	if s.left < 8 {
		s.refill()
	}
	v := binary.LittleEndian.Uint64(s.buf[aesBufSize-s.left:])
	s.left -= 8
	return v
}

func (s *aesCTRSource) Int63() int64 { return int64(s.Uint64() & mask63) }

// Read fills b: from the buffer when it is small, straight from the
// keystream when it is at least a buffer long.
func (s *aesCTRSource) Read(b []byte) (int, error) {
	if len(b) >= aesBufSize {
		clear(b)
		s.stream.XORKeyStream(b, b)
		return len(b), nil
	}
	n := len(b)
	for len(b) > 0 {
		if s.left == 0 {
			s.refill()
		}
		c := copy(b, s.buf[aesBufSize-s.left:])
		s.left -= c
		b = b[c:]
	}
	return n, nil
}
