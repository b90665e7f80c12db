package randp

// ReadUnbuffered fills b whatever its length with what Read does for large
// reads, bypassing the per-P buffers: on the cgo path exactly one cgo call
// to randp_read, on the pure-Go path the calling P's generator. It serves the
// benchmarks' RandpReadUnbuffered rows, which show what the buffers save.
func ReadUnbuffered(b []byte) (int, error) {
	if len(b) > 0 {
		readDirect(b)
	}
	return len(b), nil
}

// PinPair has Read's signature and does nothing but what makes Read's
// buffered path goroutine-safe: it pins the calling goroutine to its P and
// unpins it. It serves the benchmarks' ReadGuard rows, which show what that
// costs a small Read.
//
//go:noinline
func PinPair(b []byte) (int, error) {
	procPin()
	procUnpin()
	return len(b), nil
}
