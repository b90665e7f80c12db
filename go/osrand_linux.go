//go:build linux && (!cgo || randp_purego || android || !(amd64 || arm64))

package randp

import (
	"io"
	"os"
	"runtime"
	"syscall"
	"unsafe"
)

// The pure-Go path on Linux (Android included) seeds from getrandom(2)
// itself, as the randp library on the cgo path does, not through
// crypto/rand: a program (or a package initialised before this one) may
// replace crypto/rand.Reader with any reader, and a test may make
// crypto/rand deterministic (testing/cryptotest.SetGlobalRandom); neither
// reaches getrandom. Its flags are 0: it blocks until the kernel's pool is
// initialised, then never fails but for an interrupted call, which is made
// again, or a system call refused (a seccomp filter, a kernel before 3.17),
// which ends the process (entropyFailed).

// osReader is the operating system's source, read for every seed.
var osReader io.Reader = getrandomReader{}

// getrandomReader reads getrandom(2).
type getrandomReader struct{}

// Read fills b from getrandom(2), in as many calls as it takes.
func (getrandomReader) Read(b []byte) (int, error) {
	n := 0
	for n < len(b) {
		// SAFETY: b[n:] is len(b)-n writable bytes, which the call fills
		// at most; it keeps no reference to them.
		r, _, errno := syscall.Syscall(getrandomTrap(), uintptr(unsafe.Pointer(&b[n])), uintptr(len(b)-n), 0)
		switch errno {
		case 0:
			n += int(r)
		case syscall.EINTR:
		default:
			return n, os.NewSyscallError("getrandom", errno)
		}
	}
	return n, nil
}

// getrandomTrap is getrandom's system call number on this architecture
// (package syscall names it for a few only); a constant once compiled.
func getrandomTrap() uintptr {
	switch runtime.GOARCH {
	case "amd64":
		return 318
	case "386":
		return 355
	case "arm":
		return 384
	case "mips", "mipsle":
		return 4353
	case "mips64", "mips64le":
		return 5313
	case "ppc64", "ppc64le":
		return 359
	case "s390x":
		return 349
	default: // arm64, loong64, riscv64: the generic table
		return 278
	}
}
