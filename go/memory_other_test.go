//go:build !linux

package randp

import (
	"runtime"
	"testing"
	"time"
	"unsafe"
)

// TestReleasedPagesAreZeroed: off Linux a Go-side buffer or generator is a
// Go heap object that the package owns and zeroes when it releases it (the
// README's platform notes: "heap memory the package owns and zeroes when it
// releases it"), so no output outlives its Buffered in memory that the
// collector hands out again. A page released directly, and a Buffered's page
// released by its cleanup once the Buffered is garbage, must read back as
// zeroes (the test keeps each page reachable, so the collector cannot reuse
// it while it is read).
func TestReleasedPagesAreZeroed(t *testing.T) {
	p := mapPage()
	b := unsafe.Slice((*byte)(p), pageSize)
	for i := range b {
		b[i] = 0xA5
	}
	releasePage(p)
	if !allZeroPage(b) {
		t.Fatal("releasePage left bytes in the page")
	}
	page := usedBufferedPage()
	if allZeroPage(page) {
		t.Fatal("a Buffered that has drawn holds no output in its page")
	}
	deadline := time.Now().Add(10 * time.Second)
	for !allZeroPage(page) && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	if !allZeroPage(page) {
		t.Fatal("the page of an unreachable Buffered still holds its output")
	}
}

// usedBufferedPage returns the page of a Buffered that has drawn one value
// and is unreachable once this returns.
func usedBufferedPage() []byte {
	s := Source()
	s.Uint64()
	return unsafe.Slice((*byte)(unsafe.Pointer(s.mem)), pageSize)
}

func allZeroPage(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}
