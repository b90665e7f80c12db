package randp_test

import (
	crand "crypto/rand"
	"fmt"
	"math/big"
	"strings"
	"testing"

	randp "github.com/randp/randp/go"
)

func TestText(t *testing.T) {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
	var counts [32]int
	seen := make(map[string]bool)
	const texts = 4000
	for range texts {
		s := randp.Text()
		// crypto/rand.Text's length: 26 characters of 5 bits, >= 128 bits.
		if len(s) != 26 {
			t.Fatalf("Text returned %q, %d characters; want 26", s, len(s))
		}
		for _, c := range s {
			i := strings.IndexRune(alphabet, c)
			if i < 0 {
				t.Fatalf("Text returned %q, with %q outside the base32 alphabet", s, c)
			}
			counts[i]++
		}
		if seen[s] {
			t.Fatalf("Text returned %q twice", s)
		}
		seen[s] = true
	}
	checkChiSquare(t, "Text characters", counts[:], texts*26)
	if got := len(crand.Text()); got != 26 {
		t.Fatalf("crypto/rand.Text is %d characters long now; Text copies its 26", got)
	}
}

func TestBigInt(t *testing.T) {
	for _, max := range []*big.Int{
		big.NewInt(1),
		big.NewInt(2),
		big.NewInt(7),
		new(big.Int).Lsh(big.NewInt(1), 64),
		new(big.Int).Add(new(big.Int).Lsh(big.NewInt(1), 100), big.NewInt(1)),
		new(big.Int).Mul(big.NewInt(3), new(big.Int).Lsh(big.NewInt(1), 200)),
	} {
		// Uniform over 64 buckets (or one per value below 64):
		// bucket = v * buckets / max.
		buckets := int64(64)
		if max.IsInt64() && max.Int64() < buckets {
			buckets = max.Int64()
		}
		const draws = 64 * 500
		counts := make([]int, buckets)
		var q big.Int
		for range draws {
			v := randp.BigInt(max)
			if v.Sign() < 0 || v.Cmp(max) >= 0 {
				t.Fatalf("BigInt(%v) returned %v", max, v)
			}
			q.Mul(v, big.NewInt(buckets))
			q.Quo(&q, max)
			counts[q.Int64()]++
		}
		checkChiSquare(t, fmt.Sprintf("BigInt(%v)", max), counts, draws)
	}
}

// TestBigIntPanics checks that BigInt panics where crypto/rand.Int (and
// decred's BigInt) does, with the same value, and leaves max unchanged.
func TestBigIntPanics(t *testing.T) {
	for _, max := range []*big.Int{big.NewInt(0), big.NewInt(-1), new(big.Int).Neg(new(big.Int).Lsh(big.NewInt(1), 80))} {
		before := new(big.Int).Set(max)
		got := panicValue(func() { randp.BigInt(max) })
		want := panicValue(func() { crand.Int(crand.Reader, max) })
		if want == nil || fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("BigInt(%v) panicked with %v; crypto/rand.Int panics with %v", max, got, want)
		}
		if max.Cmp(before) != 0 {
			t.Errorf("BigInt changed its argument from %v to %v", before, max)
		}
	}
}

// zeroReader reads as zeroes.
type zeroReader struct{}

func (zeroReader) Read(b []byte) (int, error) { clear(b); return len(b), nil }

// TestBigIntReadsReaderVariable: BigInt is crypto/rand.Int reading the
// package variable randp.Reader (its documentation), so a program that
// assigns another reader to it gets numbers from that one: all-zero input
// gives 0 every time.
func TestBigIntReadsReaderVariable(t *testing.T) {
	old := randp.Reader
	randp.Reader = zeroReader{}
	defer func() { randp.Reader = old }()
	for range 10 {
		if v := randp.BigInt(big.NewInt(1000)); v.Sign() != 0 {
			t.Fatalf("BigInt(1000) = %v with randp.Reader reading zeroes; it does not read randp.Reader", v)
		}
	}
}
