//go:build cgo && linux && !android && (amd64 || arm64) && !randp_purego

package randp

// This is the only file of the package that imports "C": every call across the
// cgo boundary goes through the four wrappers below. It is the cgo path, the
// default wherever cgo is on and a prebuilt library exists (linux/amd64 and
// linux/arm64); everywhere else, and with the build tag randp_purego, the
// pure-Go path of generator_purego.go takes its place. Android is excluded by
// name: GOOS=android satisfies the linux build tag and _linux file names, but
// the object is built for glibc and needs __errno_location, which Android's
// C library, Bionic, calls __errno.
//
// Linking. By default the package links the prebuilt library committed for
// the target, lib/linux_amd64/randp_linux_amd64.syso or
// lib/linux_arm64/randp_linux_arm64.syso (built by `make go-lib` from this
// repository's Rust source with LTO; one object whose only global symbols are
// the randp_* functions). The go command links a package's .syso files into
// every binary that imports the package, so nothing is named in #cgo LDFLAGS
// and the object goes with the package into c-archive and c-shared builds,
// vendor trees and static links, and `go get` never runs cargo: a user needs
// Go and a C compiler only. Build with `-tags randp_local` to link
// ../build/librandp.a, the library `make staticlib` builds from the working
// tree, instead. Beyond libc the object needs only the pthread key functions,
// which glibc has provided inside libc.so.6 since 2.34 (-lpthread is for
// older glibc) and musl always has in libc. The object needs the external
// linker: Go's internal linker drops its .init_array constructor and loads
// no TLS, so an internal link fails (internal/buildtest's
// TestInternalLinkingFailsOnCgoPath).
//
// The object is built for glibc and links against musl as well: it calls
// nothing in the C library but syscall, mmap, madvise, mlock, munmap, the
// pthread key functions, getauxval, write, abort, memcpy, memset and
// __errno_location, which musl provides under the same names (make
// test-go-musl builds and tests the package with musl-gcc).
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
#cgo randp_local LDFLAGS: ${SRCDIR}/../build/librandp.a
#cgo LDFLAGS: -lpthread

#cgo noescape randp_read
#cgo nocallback randp_read

#include <stddef.h>
#include <stdint.h>

int randp_read(void *buf, size_t len);
uint64_t randp_uint64(void);
int64_t randp_int63(void);
int randp_vm_generation_readable(void);
*/
import "C"

import "unsafe"

// implementation is what Implementation reports on this path.
const implementation = "cgo"

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

// cVMGenerationReadable reports whether the library reads a VM generation
// counter (randp_vm_generation_readable): the VMClock device's, where its
// threads compare it before they hand out a byte.
func cVMGenerationReadable() bool { return C.randp_vm_generation_readable() != 0 }
