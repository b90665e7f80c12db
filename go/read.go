package randp

import (
	"encoding/binary"
	"io"
	"unsafe"
)

// readDirectMin is the length from which Read skips the per-P buffers and
// has randp_read write straight into the caller's slice: above it the cgo
// call is a small part of the cost and copying through a buffer would only
// add work.
const readDirectMin = 512

// Reader is a global, shared instance of a cryptographically secure random
// byte source, an alternative to crypto/rand.Reader for code that reads it.
// It is safe for concurrent use. Its Read method always fills b entirely and
// returns len(b), nil.
//
// Go 1.26's crypto packages ignore a custom reader: in a module whose go.mod
// says go 1.26 or later, the key generation and signing functions of
// crypto/ecdsa, crypto/rsa, crypto/ecdh and crypto/dsa, and
// crypto/rand.Prime, ignore the io.Reader they are given and use
// crypto/rand's own generator (GODEBUG cryptocustomrand=1 restores the old
// behaviour), so passing Reader to them changes nothing. crypto/rand.Int and
// crypto/ed25519.GenerateKey still read the reader they are given.
var Reader io.Reader = reader{}

type reader struct{}

// Read fills b with unpredictable random bytes; it never fails.
func (reader) Read(b []byte) (n int, err error) { return Read(b) }

// Read fills b entirely with cryptographically secure random bytes and
// returns len(b), nil; like crypto/rand.Read since Go 1.24, it never returns
// an error. It is safe for concurrent use. If the operating system's entropy
// source fails, the process ends rather than Read return.
func Read(b []byte) (n int, err error) {
	switch {
	case len(b) == 0:
	case len(b) >= readDirectMin:
		readDirect(b)
	default:
		readBuffered(b)
	}
	return len(b), nil
}

// takeWords copies into b the first len(b) bytes of the words from first
// on and zeroes the words it took them from: len(b) rounded up to whole
// words, which must all lie in one buffer.
func takeWords(b []byte, first *uint64) {
	// SAFETY: the caller passes the first of at least (len(b)+7)/8 words
	// of one buffer, plain integers that may be read as bytes; the views
	// do not outlive this call.
	words := unsafe.Slice(first, (len(b)+7)/8)
	if len(b) > 64 {
		copy(b, unsafe.Slice((*byte)(unsafe.Pointer(first)), len(words)*8))
		clear(words)
		return
	}
	// Short reads, word by word: cheaper than calling memmove and memclr.
	for i := range words {
		v := words[i]
		words[i] = 0
		if len(b) >= 8 {
			binary.LittleEndian.PutUint64(b, v)
			b = b[8:]
			continue
		}
		for j := range b {
			b[j] = byte(v >> (8 * j))
		}
	}
}
