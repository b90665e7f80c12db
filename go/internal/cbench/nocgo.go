//go:build !cgo

package cbench

// Without cgo there is no C to call: the benchmarks that need it skip.

// HaveCgo reports whether this build has cgo: here it has not.
const HaveCgo = false

// HaveArc4random reports whether the C library provides arc4random_buf:
// without cgo it cannot be called.
func HaveArc4random() bool { return false }

// Empty does nothing; without cgo there is no call to measure.
func Empty() {}

// Arc4randomUint64 must not be called: HaveArc4random is false.
func Arc4randomUint64() uint64 { panic("cbench: no cgo") }

// Arc4randomBuf must not be called: HaveArc4random is false.
func Arc4randomBuf([]byte) { panic("cbench: no cgo") }
