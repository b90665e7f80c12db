//go:build race

package randp

import (
	"runtime"
	"sync"
	"unsafe"
)

// The race detector tracks only the Go heap and the package data (the
// runtime's isvalidaddr): it ignores every access to the pages of
// memory_linux.go, which lie outside both, atomic ones included, which it
// neither checks nor takes as synchronisation. So in race builds each page
// gets a shadow, a heap object of the page's size, and each access to the
// page is announced, right beside it, as the same access to the same offset
// of the shadow (raceRead, raceWrite, raceTake). What orders the accesses is
// announced on the shadow too (acquire, release): the order of the pinned
// sections on one P, which the detector cannot know (pinning excludes other
// goroutines), and the atomic loads and stores of a shard's count (cgo) or
// busy flag (pure Go), which it ignores. An access made after its section's
// release, or by a goroutine that does not hold the page, is then unordered
// with the next section's accesses, and go test -race reports it. Without
// the race detector all of this is gone (norace.go).
//
// Memory that is not such a page (noShard and noBuffer in the package data,
// a page of memory_other.go, a shard that a test makes with new) is tracked
// by the detector already, and is its own shadow.

// raceShadow is the first field of every page's type (shard, bufMem,
// generator), so that it lies at the page's start, where raceMapped finds
// it. It points to the page's shadow, or is nil where the page is its own
// shadow.
type raceShadow struct{ mem *[pageSize]byte }

// shadows holds the shadow of every page handed out and not yet released,
// by the page's address, with the pinner that pins it: the page itself holds
// the only other pointer to it, which the collector does not see, and cgo's
// checks (GOEXPERIMENT=cgocheck2) allow a Go pointer in memory outside the
// Go heap only while the object is pinned. Only mapPage and releasePage
// reach it (which order their callers through the pool's lock already),
// never an access to a page, so its lock adds no order between accesses.
var (
	shadowsMu sync.Mutex
	shadows   = make(map[uintptr]*pinnedShadow)
)

// pinnedShadow is a page's shadow and the pinner that pins it.
type pinnedShadow struct {
	mem *[pageSize]byte
	pin runtime.Pinner
}

// raceMapped gives p, a page that mapPage has just handed out zeroed, a new
// shadow, in which the detector has seen no access yet.
func raceMapped(p unsafe.Pointer) {
	sh := &pinnedShadow{mem: new([pageSize]byte)}
	sh.pin.Pin(sh.mem)
	shadowsMu.Lock()
	shadows[uintptr(p)] = sh
	shadowsMu.Unlock()
	// SAFETY: every page's type starts with its raceShadow (checked where
	// each type is declared). The collector does not scan the page, and
	// shadows keeps the shadow alive and pinned until raceUnmapping; it does
	// not move heap objects, so the pointer stays good that long.
	(*raceShadow)(p).mem = sh.mem
}

// raceUnmapping is called by releasePage before it zeroes p and returns it
// to the pool: it announces the zeroing of the whole page, clears the
// page's pointer to its shadow and drops the shadow.
func raceUnmapping(p unsafe.Pointer) {
	raceWrite((*raceShadow)(p), (*[pageSize]byte)(p))
	(*raceShadow)(p).mem = nil
	shadowsMu.Lock()
	sh := shadows[uintptr(p)]
	delete(shadows, uintptr(p))
	shadowsMu.Unlock()
	if sh != nil {
		sh.pin.Unpin()
	}
}

// at returns the shadow of p, which lies in r's page.
func (r *raceShadow) at(p unsafe.Pointer) unsafe.Pointer {
	if r.mem == nil {
		return p
	}
	return unsafe.Pointer(&r.mem[uintptr(p)-uintptr(unsafe.Pointer(r))])
}

// raceRead and raceWrite announce that the caller reads or writes *p, which
// lies in r's page. The caller must hold the page: be pinned to the P of a
// shard (or be the one goroutine refilling or reseeding it unpinned after
// marking it busy), or be the goroutine using a Buffered.
func raceRead[T any](r *raceShadow, p *T) {
	runtime.RaceReadRange(r.at(unsafe.Pointer(p)), int(unsafe.Sizeof(*p)))
}

func raceWrite[T any](r *raceShadow, p *T) {
	runtime.RaceWriteRange(r.at(unsafe.Pointer(p)), int(unsafe.Sizeof(*p)))
}

// raceTake announces, on the terms of raceRead and raceWrite, that the
// caller hands out *p, which lies in r's page: reads it and zeroes it.
// raceTakeN does the same for the n values from *first on.
func raceTake[T any](r *raceShadow, p *T) {
	raceTakeN(r, p, 1)
}

func raceTakeN[T any](r *raceShadow, first *T, n int) {
	p, size := r.at(unsafe.Pointer(first)), n*int(unsafe.Sizeof(*first))
	runtime.RaceReadRange(p, size)
	runtime.RaceWriteRange(p, size)
}

// acquire orders the caller after every release on r's page. It is called
// where a pinned section starts, and after each atomic load of a shard's
// count (cgo) or busy flag (pure Go), which may find the value that an
// unpinned goroutine published.
func (r *raceShadow) acquire() { runtime.RaceAcquire(r.at(unsafe.Pointer(r))) }

// release orders what the caller did with r's page before every later
// acquire on it. It is called where a pinned section ends (unpin), and
// before the atomic store with which a goroutine that refilled or reseeded
// a shard unpinned publishes it. Releases merge: one by a pinned section
// does not drop the order of a publication that the section did not see.
func (r *raceShadow) release() { runtime.RaceReleaseMerge(r.at(unsafe.Pointer(r))) }
