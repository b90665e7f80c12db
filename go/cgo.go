//go:build linux && (amd64 || arm64)

package randp

// This is the only file of the package that imports "C": every call across the
// cgo boundary goes through the three wrappers below. unsupported.go takes its
// place where the package cannot be built.
//
// Linking. By default the package links the prebuilt static library committed
// for the target in lib/linux_amd64/ or lib/linux_arm64/ (built by
// `make go-lib` from this repository's Rust source with LTO; only randp_*
// symbols are global), so `go get` never runs cargo and a user needs only Go
// and a C compiler. Build with `-tags randp_local` to link
// ../build/librandp.a, the library `make staticlib` builds from the working
// tree, instead. Beyond the C library the archive needs only the pthread key
// functions, which glibc has provided inside libc.so.6 since 2.34 (-lpthread
// is for older glibc).
//
// The libraries are built against glibc: a C compiler for another C library
// (musl-gcc on Alpine) stops the build at the #error below, with one line that
// says so, rather than at a wall of undefined glibc symbols at link time.
//
// The prototypes are declared here rather than included from
// ../include/randp.h so that the module is self-contained outside the
// repository; TestPrototypesMatchHeader checks them against the header.
//
// noescape: randp_read does not keep the pointer it is given, so Go buffers
// passed to it need not escape to the heap. nocallback: it never calls back
// into Go; cgo honours noescape only together with nocallback. randp_uint64
// and randp_int63 take no pointer, so they get neither directive: nocallback
// costs two extra runtime calls per cgo call (runtime.cgoNoCallback, Go 1.26)
// and buys nothing without a pointer argument.

/*
#cgo linux,amd64,!randp_local LDFLAGS: ${SRCDIR}/lib/linux_amd64/librandp.a
#cgo linux,arm64,!randp_local LDFLAGS: ${SRCDIR}/lib/linux_arm64/librandp.a
#cgo randp_local LDFLAGS: ${SRCDIR}/../build/librandp.a
#cgo LDFLAGS: -lpthread

#cgo noescape randp_read
#cgo nocallback randp_read

#include <stddef.h>
#include <stdint.h>

#if !defined(__GLIBC__)
#error "randp needs glibc: its prebuilt library does not link against musl (Alpine) or other C libraries"
#endif

int randp_read(void *buf, size_t len);
uint64_t randp_uint64(void);
int64_t randp_int63(void);
*/
import "C"

import "unsafe"

// cRead fills the n bytes at p with one call to randp_read. p must point to
// at least n writable bytes that hold no Go pointers.
func cRead(p unsafe.Pointer, n int) {
	if n <= 0 {
		return
	}
	// SAFETY: p points to n writable bytes owned by the caller (a slice's
	// backing array or a buffer field) that contain no Go pointers; randp_read
	// writes exactly n bytes there and keeps no reference (noescape), and the
	// goroutine's stack cannot move while it is inside the C call.
	if C.randp_read(p, C.size_t(n)) != 0 {
		// randp_read fails only for a NULL buffer with n > 0, which p cannot
		// be here; any other failure of the library aborts the process.
		panic("randp: randp_read rejected a non-nil buffer")
	}
}

// cUint64 returns 64 uniform bits from one call to randp_uint64.
func cUint64() uint64 { return uint64(C.randp_uint64()) }

// cInt63 returns a non-negative int64 with 63 uniform bits from one call to
// randp_int63.
func cInt63() int64 { return int64(C.randp_int63()) }
