//go:build cgo && linux && !android && (amd64 || arm64) && !randp_purego

package benchmarks

/*
#include <stddef.h>

// randp's C ABI (include/randp.h), linked by package randp's cgo build.
int randp_read(void *buf, size_t len);
*/
import "C"

import "unsafe"

// HaveReadUnbuffered reports whether ReadUnbuffered is a randp call: on the
// cgo path, one call to randp_read.
const HaveReadUnbuffered = true

// ReadUnbuffered fills b whatever its length with exactly one cgo call to
// randp_read, bypassing randp.Read's per-P buffers: what Read does for
// large reads. It serves the RandpReadUnbuffered rows, which show what the
// buffers save.
func ReadUnbuffered(b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	// SAFETY: b's backing array holds len(b) writable bytes and no Go
	// pointers; randp_read writes exactly that many, keeps no reference,
	// and the array cannot move during the call.
	if C.randp_read(unsafe.Pointer(unsafe.SliceData(b)), C.size_t(len(b))) != 0 {
		panic("benchmarks: randp_read rejected a non-nil buffer")
	}
	return len(b), nil
}
