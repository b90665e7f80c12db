//go:build windows

package randp

import (
	"io"
	"syscall"
	"unsafe"
)

// On Windows the pure-Go path seeds from ProcessPrng itself, as Go's
// runtime and crypto/rand do, not through crypto/rand: a program (or a
// package initialised before this one) may replace crypto/rand.Reader, and a
// test may make crypto/rand deterministic
// (testing/cryptotest.SetGlobalRandom); neither reaches ProcessPrng. The
// runtime loads bcryptprimitives.dll from the system directory at start-up,
// so loading it by name finds that module. ProcessPrng never fails; if the
// DLL or the function cannot be found, the process ends (entropyFailed).

// osReader is the operating system's source, read for every seed.
var osReader io.Reader = processPrngReader{}

var processPrng = syscall.NewLazyDLL("bcryptprimitives.dll").NewProc("ProcessPrng")

// processPrngReader reads ProcessPrng.
type processPrngReader struct{}

// Read fills b from ProcessPrng, or returns the error that stopped it (the
// DLL or the function missing).
func (processPrngReader) Read(b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	if err := processPrng.Find(); err != nil {
		return 0, err
	}
	// SAFETY: b is len(b) writable bytes, which the call fills; it keeps no
	// reference to them. ProcessPrng always returns TRUE.
	processPrng.Call(uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)))
	return len(b), nil
}
