package peers

import (
	"testing"

	"golang.org/x/sys/unix"
)

// getrandomRead is crypto/rand.Read as Go 1.23 and earlier did it on Linux:
// the getrandom system call, looped until b is full.
func getrandomRead(b []byte) (int, error) {
	n := 0
	for n < len(b) {
		got, err := unix.Getrandom(b[n:], 0)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return n, err
		}
		n += got
	}
	return n, nil
}

// BenchmarkGetrandomRead is the "old" crypto/rand column: one getrandom
// system call per Read.
func BenchmarkGetrandomRead(b *testing.B) { benchReadSizes(b, getrandomRead) }
