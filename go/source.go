package randp

import "runtime"

// seedPanic is the value Seed panics with.
const seedPanic = "randp: Seed called on a randp source, which cannot be seeded: its output is unpredictable by design"

// Buffered is a math/rand Source64 and a math/rand/v2 Source that keeps
// up to BufferSize bytes of generator output and hands them out eight at a
// time, zeroing each value's bytes as it goes. On the cgo path it refills
// from the randp library with one cgo call per BufferSize bytes; on the
// pure-Go path it is a ChaCha8 generator of its own with fast key erasure
// (see Implementation).
//
// A Buffered is not safe for concurrent use (like every math/rand source);
// give each goroutine its own, or use the package-level functions, which are
// safe for concurrent use. The zero value is ready to use. It must not be
// copied after first use: the copy and the original would share one buffer,
// and use it from two places without synchronisation. go vet's copylocks
// check reports copies.
//
// The buffer lives outside the Go heap, in memory that a forked child finds
// zeroed (on Linux; see the package documentation), and is zeroed and
// released when the Buffered is garbage collected.
type Buffered struct {
	noCopy noCopy
	// mem is the buffer's page, mapped on first use; noBuffer where the
	// kernel cannot wipe it in a forked child.
	mem *bufMem
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

// page returns s's buffer, mapping it on first use: a page released with
// s by the garbage collector, or noBuffer where the kernel cannot wipe the
// page in a forked child (then every value comes straight from the source).
func (s *Buffered) page() *bufMem {
	if s.mem == nil {
		p := mapPage()
		if p == nil {
			s.mem = &noBuffer
		} else {
			s.mem = (*bufMem)(p)
			runtime.AddCleanup(s, releasePage, p)
		}
	}
	return s.mem
}

// Seed panics: a randp source cannot be seeded. It exists so that Buffered
// implements math/rand's Source.
func (s *Buffered) Seed(int64) { panic(seedPanic) }

// Unbuffered is a math/rand Source64 and a math/rand/v2 Source that keeps no
// output of its own: on the cgo path each value is one cgo call, on the
// pure-Go path a draw from the package-level generators. It is safe for
// concurrent use; on the cgo path it exists mainly to show what Buffered
// saves.
type Unbuffered struct{}

// UnbufferedSource returns an Unbuffered source, for use as
// rand.New(randp.UnbufferedSource()).
func UnbufferedSource() Unbuffered { return Unbuffered{} }

// Seed panics: a randp source cannot be seeded. It exists so that Unbuffered
// implements math/rand's Source.
func (Unbuffered) Seed(int64) { panic(seedPanic) }

// Implementation reports which path this build of the package uses: "cgo"
// (the randp library, linked through cgo: the default where cgo is on and a
// prebuilt library exists, linux/amd64 and linux/arm64 with glibc or musl)
// or "purego" (a ChaCha8 generator with fast key erasure written in Go over
// math/rand/v2's ChaCha8 block function: without cgo, on every other
// GOOS/GOARCH, Android included, and wherever the build tag randp_purego is
// set). Both offer the same API with the same semantics; see the package
// documentation for what each guarantees.
func Implementation() string { return implementation }
