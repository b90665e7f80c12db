package randp_test

import (
	"math"
	"testing"

	randp "github.com/randp/randp/go"
)

// checkUniform01 draws from f, which must return values in [0, 1), and
// checks them for uniformity over 64 equal buckets.
func checkUniform01(t *testing.T, name string, f func() float64) {
	t.Helper()
	const buckets, draws = 64, 64 * 1000
	counts := make([]int, buckets)
	for range draws {
		u := f()
		if !(u >= 0 && u < 1) {
			t.Fatalf("%s: %v is outside [0, 1)", name, u)
		}
		counts[int(u*buckets)]++
	}
	checkChiSquare(t, name, counts, draws)
}

func TestFloat64(t *testing.T) {
	checkUniform01(t, "Float64", randp.Float64)
	// math/rand/v2's Float64 returns multiples of 2⁻⁵³, and all 53 bits
	// vary.
	var or uint64
	for range 10000 {
		m := randp.Float64() * (1 << 53)
		if m != math.Trunc(m) {
			t.Fatalf("Float64 returned %v, not a multiple of 2⁻⁵³", m/(1<<53))
		}
		or |= uint64(m)
	}
	if or != 1<<53-1 {
		t.Fatalf("some of Float64's 53 bits never varied: %#x", or)
	}
}

func TestFloat32(t *testing.T) {
	checkUniform01(t, "Float32", func() float64 { return float64(randp.Float32()) })
}

// NormFloat64 and ExpFloat64 pass their values through their distribution
// function, which makes them uniform in [0, 1) if the distribution is right.

func TestNormFloat64(t *testing.T) {
	var sum, sumSq float64
	const draws = 64 * 1000
	checkUniform01(t, "NormFloat64", func() float64 {
		x := randp.NormFloat64()
		sum += x
		sumSq += x * x
		return 0.5 * (1 + math.Erf(x/math.Sqrt2))
	})
	// Mean 0 and variance 1, within 6 standard errors.
	mean, variance := sum/draws, sumSq/draws-(sum/draws)*(sum/draws)
	if math.Abs(mean) > 6/math.Sqrt(draws) || math.Abs(variance-1) > 6*math.Sqrt(2.0/draws) {
		t.Fatalf("NormFloat64: mean %v, variance %v; want 0 and 1", mean, variance)
	}
}

func TestExpFloat64(t *testing.T) {
	checkUniform01(t, "ExpFloat64", func() float64 {
		x := randp.ExpFloat64()
		if !(x > 0) {
			t.Fatalf("ExpFloat64 returned %v, not positive", x)
		}
		return -math.Expm1(-x)
	})
}

func TestUint(t *testing.T) {
	var or, and uint = 0, math.MaxUint
	for range 10000 {
		v := randp.Uint()
		or |= v
		and &= v
	}
	if or != math.MaxUint || and != 0 {
		t.Fatalf("some bits of Uint never varied: or %#x and %#x", or, and)
	}
}

// TestUint32AndUint64 checks that every bit of Uint32 and Uint64 varies, as
// TestUint does for Uint: "32 (64) uniform, unpredictable bits".
func TestUint32AndUint64(t *testing.T) {
	var or32, and32 uint32 = 0, math.MaxUint32
	var or64, and64 uint64 = 0, math.MaxUint64
	for range 10000 {
		v, w := randp.Uint32(), randp.Uint64()
		or32, and32 = or32|v, and32&v
		or64, and64 = or64|w, and64&w
	}
	if or32 != math.MaxUint32 || and32 != 0 {
		t.Fatalf("some bits of Uint32 never varied: or %#x and %#x", or32, and32)
	}
	if or64 != math.MaxUint64 || and64 != 0 {
		t.Fatalf("some bits of Uint64 never varied: or %#x and %#x", or64, and64)
	}
}
