package randp

import (
	"runtime"
	"sync/atomic"
	"unsafe"
)

// seedPanic is the value Seed panics with.
const seedPanic = "randp: Seed called on a randp source, which cannot be seeded: its output is unpredictable by design"

// Buffered is a math/rand Source64 and a math/rand/v2 Source that keeps
// up to BufferSize bytes of generator output and hands them out eight at a
// time, zeroing each value's bytes as it goes. On the cgo path it refills
// from the randp library with one cgo call per BufferSize bytes; on the
// pure-Go path it is a ChaCha8 generator of its own with fast key erasure
// (see Implementation).
//
// A Buffered is not safe for concurrent use (like every math/rand source):
// two goroutines drawing from one at once can both be handed the same value,
// or zeros (a value's bytes are zeroed as it is handed out), which as a key
// or a nonce is no secret at all; the race detector (go test -race) reports
// such use. Give each goroutine its own, or use the package-level functions,
// which are safe for concurrent use. The zero value is ready to use.
//
// A copy of a Buffered is a new source: however it is made (an assignment,
// append growing a slice of structs that hold one, slices.Clone, copy), its
// first draw finds that it is not where its buffer was given to it, and
// gives it a buffer of its own; the original keeps its own, and the output
// either had left is never handed out by the other. go vet's copylocks
// check reports some copies, as it does for a sync.Mutex: assignments and
// composite literals that copy one, by-value parameters, results and
// receivers, and range loops over values; it does not see the copies that
// append, copy, slices.Clone or slices.Grow make. A copy costs what a new
// source costs, so keep a *Buffered (what Source returns) where that is no
// trouble.
//
// The buffer lives outside the Go heap, in memory that a forked child finds
// zeroed (on Linux; see the package documentation), and is zeroed and
// returned to the package when no Buffered holding it is reachable. The
// package keeps at most 1,024 such buffers at a time (4 MiB): a Buffered
// that finds none free draws through the package-level functions instead,
// with the same guarantees, at their cost per value. For
// a value here and there, as in a source made per request, the package-level
// functions (Uint64, IntN, N, Read, ...) cost less than a new source, whose
// first value pays for getting and filling a buffer.
type Buffered struct {
	noCopy noCopy
	// self is the address of this Buffered when it was given mem: a
	// Buffered at another address is a copy, whose first draw gives it a
	// buffer of its own (own).
	self *Buffered
	// mem is the buffer, noBuffer until the first draw and where none can
	// be kept; owner holds it: mem is released when no Buffered holds
	// owner any more.
	mem   *bufMem
	owner *pageOwner
}

// pageOwner is what the cleanup that releases a Buffered's buffer is
// attached to: every copy of a Buffered holds it, so the buffer outlives
// them all, and a copy that gets a buffer of its own lets go of it.
type pageOwner struct{ mem unsafe.Pointer }

// maxSourcePages bounds the buffers that Buffered sources hold at a time.
const maxSourcePages = 1024

// sourcePages counts the buffers that Buffered sources hold.
var sourcePages atomic.Int64

// noCopy makes go vet's copylocks check report a copy of the struct that
// holds it, as sync.WaitGroup's does; it is empty and its methods do nothing.
type noCopy struct{}

// Lock is a no-op that marks noCopy as a lock for go vet.
func (*noCopy) Lock() {}

// Unlock is a no-op that marks noCopy as a lock for go vet.
func (*noCopy) Unlock() {}

// Source returns a new Buffered source, for use as
// rand.New(randp.Source()) with math/rand or math/rand/v2.
// It is not safe for concurrent use, and cannot be seeded: its Seed method,
// which math/rand's Rand.Seed calls, panics.
func Source() *Buffered { return new(Buffered) }

// own returns s's buffer. A Buffered that has none (a new one) or holds
// another's (a copy) gets one of its own first: a page from the pool,
// released by a cleanup once no Buffered holds it, or noBuffer where the
// kernel cannot wipe a page in a forked child or maxSourcePages are held
// (then every value comes from the package-level functions).
func (s *Buffered) own() *bufMem {
	if s.self != s {
		s.self, s.mem, s.owner = s, &noBuffer, nil
		if p := mapSourcePage(); p != nil {
			o := &pageOwner{p}
			runtime.AddCleanup(o, releaseSourcePage, p)
			s.mem, s.owner = (*bufMem)(p), o
		}
	}
	return s.mem
}

// mapSourcePage returns a page for a Buffered, or nil.
func mapSourcePage() unsafe.Pointer {
	if sourcePages.Add(1) > maxSourcePages {
		sourcePages.Add(-1)
		return nil
	}
	p := mapPage()
	if p == nil {
		sourcePages.Add(-1)
	}
	return p
}

// releaseSourcePage releases a page from mapSourcePage.
func releaseSourcePage(p unsafe.Pointer) {
	releasePage(p)
	sourcePages.Add(-1)
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
