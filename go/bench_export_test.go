package randp

import "unsafe"

// ReadUnbuffered fills b with exactly one cgo call to randp_read whatever
// its length, bypassing the per-P buffers: the benchmarks'
// RandpReadUnbuffered rows, which show what the buffers save.
func ReadUnbuffered(b []byte) (int, error) {
	cRead(unsafe.Pointer(unsafe.SliceData(b)), len(b))
	return len(b), nil
}
