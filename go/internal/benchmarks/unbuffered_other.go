//go:build !cgo || randp_purego || !linux || android || !(amd64 || arm64)

package benchmarks

// HaveReadUnbuffered is false: without randp's C library (the pure-Go
// build) there is no unbuffered randp call to measure.
const HaveReadUnbuffered = false

// ReadUnbuffered is never called when HaveReadUnbuffered is false.
func ReadUnbuffered(b []byte) (int, error) { panic("benchmarks: no randp C library in this build") }
