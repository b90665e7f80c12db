package randp

import (
	"io"
	"unsafe"
)

// Reader is a global, shared instance of a cryptographically secure random
// byte source, an alternative to crypto/rand.Reader for code that reads it.
// It is safe for concurrent use. Its Read method always fills b entirely and
// returns len(b), nil.
//
// Since Go 1.26 many of the standard library's crypto functions ignore a
// custom reader. In a program whose main module's go.mod says go 1.26 or
// later, built with Go 1.26 or later, these ignore the io.Reader they are
// given and use crypto/rand's own generator, so passing Reader to them
// changes nothing (GODEBUG cryptocustomrand=1 restores the old behaviour):
//
//   - [crypto/ecdsa.GenerateKey], [crypto/ecdsa.Sign],
//     [crypto/ecdsa.SignASN1] and [crypto/ecdsa.PrivateKey.Sign]
//   - [crypto/ecdh.Curve.GenerateKey], for every curve
//   - [crypto/rsa.GenerateKey], [crypto/rsa.GenerateMultiPrimeKey] and
//     [crypto/rsa.EncryptPKCS1v15]
//   - [crypto/dsa.Sign]
//   - [crypto/rand.Prime]
//
// These still read the reader they are given: [crypto/rsa.SignPSS] (for the
// salt), [crypto/rsa.EncryptOAEP], [crypto/dsa.GenerateParameters],
// [crypto/dsa.GenerateKey], [crypto/ed25519.GenerateKey] and
// [crypto/rand.Int]. Built with Go 1.24 or 1.25, or in a main module whose
// go.mod says an older go version than 1.26, every function named here
// reads the reader it is given.
var Reader io.Reader = reader{}

type reader struct{}

// Read fills b with unpredictable random bytes; it never fails.
func (reader) Read(b []byte) (n int, err error) { return Read(b) }

// Read fills b entirely with cryptographically secure random bytes and
// returns len(b), nil; like crypto/rand.Read since Go 1.24, it never returns
// an error. It is safe for concurrent use. If the operating system's entropy
// source fails, the process ends rather than Read return.
func Read(b []byte) (n int, err error) {
	if uint(len(b)-1) >= readDirectMin-1 {
		if len(b) != 0 {
			readDirect(b)
		}
		return len(b), nil
	}
	// A short read takes its bytes from the calling P's buffer (cgo) or
	// generator (pure Go), pinned as Uint64 is, here in Read itself so that
	// it costs one call: the hint is checked to be the P's shard (perp.go),
	// one comparison that it holds what b needs. Otherwise readShort refills
	// it.
	// Pinned-section prologue, generated from pinnedPrologue (prologue_test.go).
	var here byte
	slot := hintSlot(uintptr(unsafe.Pointer(&here)))
	pid := procPin()
	sh, ok := slot.Load(), true
	if !isShardOf(sh, pid) {
		sh, ok = rehint(slot, pid)
	}
	if !ok {
		pinSlow()
		return Read(b)
	}
	sh.race.acquire()
	// End of the generated prologue.
	if src, ok := sh.take(len(b)); ok {
		if uint(len(b)-4) <= 4 {
			raceTakeN(&sh.race, unsafe.SliceData(src), len(src))
			takeShort(b, src) // 4 to 8 bytes, inlined
		} else if uint(len(b)-16) <= 32-16 {
			raceTakeN(&sh.race, unsafe.SliceData(src), len(src))
			takeMid(b, src) // 16 to 32 bytes, inlined
		} else {
			raceTakeN(&sh.race, unsafe.SliceData(src), len(src))
			takeOut(b, src)
		}
		unpin(sh)
		return len(b), nil
	}
	readShort(sh, b)
	return len(b), nil
}
