package randp

import (
	"encoding/binary"
	"io"
	"sync/atomic"
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

// readBuffered fills b (0 < len(b) < readDirectMin) from the calling P's
// buffer. The buffer is consumed in whole words: the bytes of the last word
// that b does not take are zeroed with it and never handed out.
func readBuffered(b []byte) {
	k := uintptr(len(b)+7) / 8
	sh := pinned(procPin())
	if sh == nil {
		sh = pinSlow()
	}
	sh.race.acquire()
	n := atomic.LoadUintptr(&sh.n)
	if n == shardBusy {
		// Another goroutine is refilling this P's buffer.
		unpin(sh)
		cRead(unsafe.Pointer(unsafe.SliceData(b)), len(b))
		return
	}
	if n >= k {
		takeWords(b, &sh.buf, n-k)
		sh.n = n - k
		unpin(sh)
		return
	}
	// The buffer holds fewer than k words: refill it, unpinned. The unused
	// words are overwritten, never handed out.
	sh.n = shardBusy
	unpin(sh)
	sh.refill()
	takeWords(b, &sh.buf, bufferWords-k)
	atomic.StoreUintptr(&sh.n, bufferWords-k)
}

// takeWords copies into b the first len(b) bytes of buf from word i on, and
// zeroes the words it took them from: len(b) rounded up to whole words.
func takeWords(b []byte, buf *[bufferWords]uint64, i uintptr) {
	if len(b) > 64 {
		// SAFETY: buf is an array of BufferSize bytes' worth of plain
		// integers, which may be read as bytes; the view does not outlive
		// this call.
		bytes := (*[BufferSize]byte)(unsafe.Pointer(buf))
		copy(b, bytes[i*8:])
		clear(buf[i : i+uintptr(len(b)+7)/8])
		return
	}
	// Short reads, word by word: cheaper than calling memmove and memclr.
	for ; len(b) >= 8; b = b[8:] {
		binary.LittleEndian.PutUint64(b, buf[i])
		buf[i] = 0
		i++
	}
	if len(b) > 0 {
		v := buf[i]
		buf[i] = 0
		for j := range b {
			b[j] = byte(v >> (8 * j))
		}
	}
}
