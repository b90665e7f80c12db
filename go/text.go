package randp

import (
	crand "crypto/rand"
	"math/big"
)

// base32Alphabet is the standard RFC 4648 base32 alphabet, as crypto/rand's
// Text uses.
const base32Alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"

// Text returns an unpredictable string of 26 characters from the standard
// RFC 4648 base32 alphabet (A–Z and 2–7), for use as a secret token,
// password or other text, as crypto/rand.Text (Go 1.24) does: each character
// carries 5 uniform bits, 130 in all, at least the 128 bits that make
// guessing and collisions infeasible.
func Text() string {
	// ⌈128 / 5⌉ = 26 characters.
	var src [26]byte
	Read(src[:])
	for i := range src {
		// 32 divides 256, so the low 5 bits of a uniform byte are uniform.
		src[i] = base32Alphabet[src[i]%32]
	}
	return string(src[:])
}

// BigInt returns a uniform unpredictable integer in [0, max), as decred's
// crypto/rand.BigInt does. It is crypto/rand.Int reading randp's Reader: the
// package variable Reader, so code that assigned another io.Reader to it
// gets numbers from that one. It panics if max <= 0, with crypto/rand.Int's
// message, and if a reader assigned to Reader returns an error.
func BigInt(max *big.Int) *big.Int {
	n, err := crand.Int(Reader, max)
	if err != nil {
		// randp's own Reader never returns an error; one assigned in
		// its place may.
		panic("randp: crypto/rand.Int failed reading randp.Reader: " + err.Error())
	}
	return n
}
