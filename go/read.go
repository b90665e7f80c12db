package randp

import (
	"io"
	"unsafe"
)

// readDirectMin is the length from which Read skips the per-P buffers and
// has randp_read write straight into the caller's slice: above it the cgo
// call is a small part of the cost and copying through a buffer would only
// add work.
const readDirectMin = 512

// Reader is a global, shared instance of an unpredictable random byte
// source, an alternative to crypto/rand.Reader for code that reads it. It is
// safe for concurrent use. Its Read method always fills b entirely and
// returns len(b), nil.
//
// Since Go 1.26, in a module whose go.mod says go 1.26 or later, the key
// generation and signing functions of crypto/ecdsa, crypto/rsa, crypto/ecdh
// and crypto/dsa ignore the io.Reader they are given and use crypto/rand's
// own generator (GODEBUG cryptocustomrand=1 restores the old behaviour), so
// passing Reader to them changes nothing. crypto/rand.Int and
// crypto/ed25519.GenerateKey still read it.
var Reader io.Reader = reader{}

type reader struct{}

// Read fills b with unpredictable random bytes; it never fails.
func (reader) Read(b []byte) (n int, err error) { return Read(b) }

// Read fills b entirely with unpredictable random bytes and returns
// len(b), nil; it never returns an error, as crypto/rand.Read on Go 1.24
// does not. It is safe for concurrent use. If the operating system's entropy
// source fails, the randp library aborts the process rather than return.
func Read(b []byte) (n int, err error) {
	switch {
	case len(b) == 0:
	case len(b) >= readDirectMin:
		cRead(unsafe.Pointer(unsafe.SliceData(b)), len(b))
	default:
		readBuffered(b)
	}
	return len(b), nil
}

// readBuffered fills b (0 < len(b) < BufferSize) from the calling P's
// buffer, zeroing the bytes it hands out.
func readBuffered(b []byte) {
	n := uint(len(b))
	sh := pinned(procPin())
	if sh == nil {
		sh = pinSlow()
	}
	sh.race.acquire()
	if sh.busy.Load() != 0 {
		// Another goroutine is refilling this P's buffer.
		unpin(sh)
		cRead(unsafe.Pointer(unsafe.SliceData(b)), len(b))
		return
	}
	if left := sh.left; left >= n {
		src := sh.buf[BufferSize-left:][:n]
		copy(b, src)
		clear(src)
		sh.left = left - n
		unpin(sh)
		return
	}
	// The buffer holds fewer than n bytes: refill it, unpinned. The unused
	// tail is overwritten, never handed out.
	sh.busy.Store(1)
	unpin(sh)
	sh.refill()
	src := sh.buf[:n]
	copy(b, src)
	clear(src)
	sh.left = BufferSize - n
	sh.busy.Store(0)
}
