package randp_test

import (
	"fmt"
	"math/big"
	mathrand "math/rand"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	randp "github.com/randp/randp/go"
)

// The README's quick start: a math/rand/v2 generator over a randp Source,
// and Read in place of crypto/rand.Read.
func Example() {
	r := rand.New(randp.Source()) // math/rand's rand.New takes it too
	key := make([]byte, 32)
	randp.Read(key) // always fills key, as crypto/rand.Read
	die := r.IntN(6) + 1
	fmt.Println(die >= 1 && die <= 6, len(key))
	// Output: true 32
}

// A randp Source plugs into math/rand/v2: every method of rand.Rand then
// returns unpredictable values. A Source is not safe for concurrent use;
// give each goroutine its own, or use the package-level functions.
func ExampleSource() {
	r := rand.New(randp.Source())
	die := r.IntN(6) + 1
	fmt.Println(die >= 1 && die <= 6)
	// Output: true
}

// The same Source works with the original math/rand package.
func ExampleSource_mathRand() {
	r := mathrand.New(randp.Source())
	fmt.Println(r.Int63() >= 0, r.Intn(10) < 10)
	// Output: true true
}

// Reader replaces crypto/rand.Reader; it never fails.
func ExampleReader() {
	key := make([]byte, 32)
	n, err := randp.Reader.Read(key)
	fmt.Println(n, err)
	// Output: 32 <nil>
}

// Read replaces crypto/rand.Read: it always fills the slice.
func ExampleRead() {
	nonce := make([]byte, 12)
	randp.Read(nonce)
	fmt.Printf("%x\n", nonce)
}

// ShuffleSlice shuffles any slice in place; it is safe for concurrent use.
func ExampleShuffleSlice() {
	deck := []string{"A♠", "K♠", "Q♠", "J♠", "10♠"}
	randp.ShuffleSlice(deck)
	fmt.Println(len(deck), slices.Contains(deck, "A♠"))
	// Output: 5 true
}

// N works with any integer type, including time.Duration.
func ExampleN() {
	backoff := time.Second + randp.N(500*time.Millisecond)
	fmt.Println(backoff >= time.Second && backoff < 1500*time.Millisecond)
	// Output: true
}

// Text makes a secret token: 26 characters of the base32 alphabet.
func ExampleText() {
	token := randp.Text()
	fmt.Println(len(token), strings.Trim(token, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567") == "")
	// Output: 26 true
}

// BigInt draws below any bound, here a 256-bit one.
func ExampleBigInt() {
	max := new(big.Int).Lsh(big.NewInt(1), 256)
	n := randp.BigInt(max)
	fmt.Println(n.Sign() >= 0 && n.Cmp(max) < 0)
	// Output: true
}

// Float64 is uniform in [0, 1); NormFloat64 is a standard normal variate.
func ExampleFloat64() {
	jitter := 0.9 + 0.2*randp.Float64()
	height := 170 + 10*randp.NormFloat64()
	fmt.Println(jitter >= 0.9 && jitter < 1.1, height > 0)
	// Output: true true
}

// Implementation says which path the binary took: "cgo" (the randp
// library, the default on linux/amd64 and linux/arm64 with cgo) or "purego"
// (without cgo, with the build tag randp_purego, or anywhere else).
func ExampleImplementation() {
	impl := randp.Implementation()
	fmt.Println(impl == "cgo" || impl == "purego")
	// Output: true
}
