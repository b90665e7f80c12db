//go:build !linux

package randp

import (
	"sync/atomic"
	"unsafe"
)

// Other systems: the Go-side buffers and generator states live in Go heap
// objects that the package owns and zeroes when it releases them (the Go
// collector does not move objects, so overwriting one overwrites the only
// copy). Nothing marks them to be wiped in a forked child: a Go program
// never forks without exec, and a C host that loads the package built as a
// C library and forks without exec is protected on Linux only.

// pageSize is the size of every allocation.
const pageSize = 4096

// livePages counts the pages allocated and not yet released, for the tests.
var livePages atomic.Int64

// lockedPages is always zero: no page is locked here.
var lockedPages atomic.Int64

// page is one allocation; its words keep it 8-byte aligned.
type page [pageSize / 8]uint64

// mapPage returns pageSize zeroed bytes owned by the package. The memory
// must hold no Go pointers; releasePage gives it back.
func mapPage() unsafe.Pointer {
	livePages.Add(1)
	return unsafe.Pointer(new(page))
}

// releasePage zeroes a page from mapPage; nothing may use it afterwards.
func releasePage(p unsafe.Pointer) {
	clear((*page)(p)[:])
	livePages.Add(-1)
}
