package peers

import (
	"syscall"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

// getrandomRead is crypto/rand.Read as Go 1.23 and earlier did it on Linux:
// the getrandom system call itself, through syscall.Syscall (as Go's
// internal/syscall/unix.GetRandom made it), looped until b is full.
// golang.org/x/sys's unix.Getrandom is not that: since Go 1.24 it tries the
// runtime's vDSO getrandom first, so on Linux 6.11 or later it measures
// today's crypto/rand, not the old one. getrandom_syscall_test.go checks that
// every call of this one enters the kernel.
func getrandomRead(b []byte) (int, error) {
	n := 0
	for n < len(b) {
		got, _, errno := syscall.Syscall(unix.SYS_GETRANDOM, uintptr(unsafe.Pointer(&b[n])), uintptr(len(b)-n), 0)
		if errno == syscall.EINTR {
			continue
		}
		if errno != 0 {
			return n, errno
		}
		n += int(got)
	}
	return n, nil
}

// BenchmarkGetrandomRead is the "before Go 1.24" crypto/rand column: one
// getrandom system call per Read.
func BenchmarkGetrandomRead(b *testing.B) { benchReadSizes(b, getrandomRead) }
