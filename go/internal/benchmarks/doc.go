// Package benchmarks holds the Go benchmarks of make bench that set randp's
// Go API beside crypto/rand, math/rand, math/rand/v2, a buffered pure-Go
// AES-CTR reader and cgo calls into libc, at decred dcrd's sizes and at
// every power of two from 16 B to 1 MiB; they live in this package's test
// files. make bench builds them twice: as the module builds by default (cgo)
// and with -tags randp_purego. The benchmarks that need code outside the
// module (dcrd's own, unpredictable, a getrandom system call per Read) are
// in benches/go. Nothing here is part of randp's API.
//
// The package itself holds the two calls the benchmarks need that randp does
// not export: ReadUnbuffered and PinPair.
package benchmarks

import _ "unsafe" // go:linkname

//go:linkname procPin runtime.procPin
func procPin() int

//go:linkname procUnpin runtime.procUnpin
func procUnpin()

// PinPair has Read's signature and does nothing but what makes randp.Read's
// buffered path goroutine-safe: it pins the calling goroutine to its P and
// unpins it (runtime.procPin and procUnpin, the calls randp makes). It
// serves the ReadGuard rows, which show what that costs a small Read.
//
//go:noinline
func PinPair(b []byte) (int, error) {
	procPin()
	procUnpin()
	return len(b), nil
}
