package randp

import "unsafe"

// BufferSize is the number of bytes of generator output that each Go-side
// buffer holds: one per Buffered source and one per P for the package-level
// functions. A buffer is refilled with a single cgo call when it runs out.
const BufferSize = 4096

// bufferWords is BufferSize in 64-bit words, the unit the buffers hand out.
const bufferWords = BufferSize / 8

// seedPanic is the value Seed panics with.
const seedPanic = "randp: Seed called on a randp source, which cannot be seeded: its output is unpredictable by design"

// Buffered is a math/rand Source64 and a math/rand/v2 Source that draws
// BufferSize bytes at a time from the randp library and hands them out eight
// at a time, zeroing each value's bytes as it goes.
//
// A Buffered must not be used from more than one goroutine at once (like
// every math/rand source); give each goroutine its own, or use the
// package-level functions, which are safe for concurrent use. The zero value
// is ready to use. It must not be copied after first use: a copy would hand
// out the same values as the original. go vet's copylocks check reports
// copies.
type Buffered struct {
	noCopy noCopy
	// n counts the unused words, which are buf[:n]; the words above have
	// been handed out (from the top down) and zeroed. The zero value has
	// none, so the first call fills buf.
	n   uint
	buf [bufferWords]uint64
}

// noCopy makes go vet's copylocks check report a copy of the struct that
// holds it, as sync.WaitGroup's does; it is empty and its methods do nothing.
type noCopy struct{}

// Lock is a no-op that marks noCopy as a lock for go vet.
func (*noCopy) Lock() {}

// Unlock is a no-op that marks noCopy as a lock for go vet.
func (*noCopy) Unlock() {}

// Source returns a new Buffered source, for use as
// rand.New(randp.Source()) with math/rand or math/rand/v2.
// It is not safe for concurrent use.
func Source() *Buffered { return new(Buffered) }

// Uint64 returns 64 uniform, unpredictable bits.
func (s *Buffered) Uint64() uint64 {
	// The fast path loads the word, stores zero over it and updates n. One
	// unsigned comparison both finds an empty buffer (n == 0 wraps i to the
	// largest uint) and proves buf[i] in bounds, so there is no bounds check.
	if i := s.n - 1; i < bufferWords {
		v := s.buf[i]
		s.buf[i] = 0
		s.n = i
		return v
	}
	return s.refillUint64()
}

// Int63 returns a non-negative int64 with 63 uniform, unpredictable bits.
func (s *Buffered) Int63() int64 {
	// Uint64's body, repeated so that math/rand's Rand.Int63 costs one call.
	if i := s.n - 1; i < bufferWords {
		v := s.buf[i]
		s.buf[i] = 0
		s.n = i
		return int64(v &^ (1 << 63))
	}
	return int64(s.refillUint64() &^ (1 << 63))
}

// refillUint64 is the slow path of Uint64 and Int63: it fills the empty
// buffer with one cgo call and hands out its top word.
func (s *Buffered) refillUint64() uint64 {
	cRead(unsafe.Pointer(&s.buf), BufferSize)
	const top = bufferWords - 1
	v := s.buf[top]
	s.buf[top] = 0
	s.n = top
	return v
}

// Seed panics: a randp source cannot be seeded. It exists so that Buffered
// implements math/rand's Source.
func (s *Buffered) Seed(int64) { panic(seedPanic) }

// Unbuffered is a math/rand Source64 and a math/rand/v2 Source that makes one
// cgo call per value. It holds no state and is safe for concurrent use, but
// costs a cgo call per value; it exists mainly to show what Buffered saves.
type Unbuffered struct{}

// UnbufferedSource returns an Unbuffered source, for use as
// rand.New(randp.UnbufferedSource()).
func UnbufferedSource() Unbuffered { return Unbuffered{} }

// Uint64 returns 64 uniform, unpredictable bits.
func (Unbuffered) Uint64() uint64 { return cUint64() }

// Int63 returns a non-negative int64 with 63 uniform, unpredictable bits.
func (Unbuffered) Int63() int64 { return cInt63() }

// Seed panics: a randp source cannot be seeded. It exists so that Unbuffered
// implements math/rand's Source.
func (Unbuffered) Seed(int64) { panic(seedPanic) }
