//go:build !cgo || !linux || !(amd64 || arm64)

package randp

// This file replaces cgo.go where the package cannot be built: without cgo
// (CGO_ENABLED=0, which is also the default when cross-compiling) or on a
// platform with no prebuilt library. The undefined name below stops the build
// with one line that says what is needed; the stubs keep that the only error.
// (A glibc check for a musl C compiler is in cgo.go.)

import "unsafe"

var _ = randp_needs_cgo_and_linux_amd64_or_linux_arm64

func cRead(unsafe.Pointer, int) { panic("unreachable") }

func cUint64() uint64 { panic("unreachable") }

func cInt63() int64 { panic("unreachable") }
