//go:build cgo

// Package cbench gives the benchmarks of package randp the C calls they
// compare against: libc's arc4random_buf (glibc 2.36 and later) and an empty
// C function that measures what a cgo call costs by itself. It exists only
// for benchmarks (cgo may not appear in _test.go files) and is not part of
// randp's API.
//
// arc4random_buf is declared weak, so this package builds on a libc that
// lacks it; HaveArc4random reports whether it is there, and the benchmarks
// skip those rows when it is not. Without cgo (nocgo.go) there is neither,
// and HaveCgo is false.
package cbench

/*
#include <stddef.h>
#include <stdint.h>

extern void arc4random_buf(void *buf, size_t n) __attribute__((weak));

static int have_arc4random(void) { return arc4random_buf != NULL; }

static void empty(void) {}

static uint64_t arc4random_u64(void) {
	uint64_t v;
	arc4random_buf(&v, sizeof v);
	return v;
}
*/
import "C"

import "unsafe"

// HaveCgo reports whether this build has cgo: Empty is a real cgo call.
const HaveCgo = true

// HaveArc4random reports whether the C library provides arc4random_buf.
func HaveArc4random() bool { return C.have_arc4random() != 0 }

// Empty calls a C function that does nothing: the bare cost of a cgo call.
func Empty() { C.empty() }

// Arc4randomUint64 returns 8 bytes from one arc4random_buf call.
// HaveArc4random must be true.
func Arc4randomUint64() uint64 { return uint64(C.arc4random_u64()) }

// Arc4randomBuf fills b with one arc4random_buf call.
// HaveArc4random must be true.
func Arc4randomBuf(b []byte) {
	if len(b) == 0 {
		return
	}
	// SAFETY: b's backing array holds len(b) writable bytes and no Go
	// pointers; arc4random_buf writes exactly that many and keeps no
	// reference, and the array cannot move during the call.
	C.arc4random_buf(unsafe.Pointer(unsafe.SliceData(b)), C.size_t(len(b)))
}
