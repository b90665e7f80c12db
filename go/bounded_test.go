package randp_test

import (
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"testing"
	"time"

	randp "github.com/randp/randp/go"
)

// checkChiSquare fails t if counts (total draws spread over len(counts)
// equally likely buckets) are implausible for a uniform distribution. The
// critical value is the chi-square quantile at p = 1 - 3e-7 (z = 5, by the
// Wilson-Hilferty approximation), so a correct generator fails about once in
// three million runs.
func checkChiSquare(t *testing.T, name string, counts []int, total int) {
	t.Helper()
	want := float64(total) / float64(len(counts))
	var chi2 float64
	for _, c := range counts {
		d := float64(c) - want
		chi2 += d * d / want
	}
	df := float64(len(counts) - 1)
	a := 2 / (9 * df)
	crit := df * math.Pow(1-a+5*math.Sqrt(a), 3)
	if chi2 > crit {
		t.Errorf("%s: chi-square %.1f with %v degrees of freedom exceeds %.1f; counts %v", name, chi2, df, crit, counts)
	}
}

// checkBounded draws from f, which must return values in [0, n), and
// checks range and uniformity over buckets equal slices of [0, n).
func checkBounded(t *testing.T, name string, n uint64, f func() uint64) {
	t.Helper()
	// One bucket per value for small n; for large n, 64 buckets whose
	// sizes differ by at most one value in n/64.
	buckets := n
	if buckets > 1024 {
		buckets = 64
	}
	draws := max(int(buckets)*100, 30000)
	counts := make([]int, buckets)
	for range draws {
		v := f()
		if v >= n {
			t.Fatalf("%s returned %d, not below %d", name, v, n)
		}
		// bucket = floor(v * buckets / n), exact in 128 bits.
		counts[mulDiv(v, buckets, n)]++
	}
	checkChiSquare(t, name, counts, draws)
}

// mulDiv returns v*m/n for v < n, computed without overflow.
func mulDiv(v, m, n uint64) uint64 {
	hi, lo := bits.Mul64(v, m)
	q, _ := bits.Div64(hi, lo, n)
	return q
}

func TestBoundedUniform(t *testing.T) {
	// Small bounds, odd bounds and bounds just above a power of two (where
	// a biased reduction shows most), up to bounds near the type's maximum
	// (where modulo reduction would be grossly non-uniform).
	for _, n := range []uint64{1, 2, 3, 7, 10, 100, 1000, 1<<30 + 1, 3 << 29} {
		checkBounded(t, fmt.Sprintf("Int32N(%d)", n), n, func() uint64 { return uint64(randp.Int32N(int32(n))) })
		checkBounded(t, fmt.Sprintf("Uint32N(%d)", n), n, func() uint64 { return uint64(randp.Uint32N(uint32(n))) })
	}
	for _, n := range []uint64{1, 2, 3, 7, 10, 1000, 1<<62 + 1, 3 << 61, math.MaxInt64} {
		checkBounded(t, fmt.Sprintf("Int64N(%d)", n), n, func() uint64 { return uint64(randp.Int64N(int64(n))) })
		if n <= math.MaxInt { // int is 32 bits on 386 and arm
			checkBounded(t, fmt.Sprintf("IntN(%d)", n), n, func() uint64 { return uint64(randp.IntN(int(n))) })
		}
		checkBounded(t, fmt.Sprintf("N(%d)", n), n, func() uint64 { return uint64(randp.N(int64(n))) })
		checkBounded(t, fmt.Sprintf("Duration(%d)", n), n, func() uint64 { return uint64(randp.Duration(time.Duration(n))) })
	}
	for _, n := range []uint64{1, 3, 10, 1000, 1<<63 + 1, 3 << 62, math.MaxUint64} {
		checkBounded(t, fmt.Sprintf("Uint64N(%d)", n), n, func() uint64 { return randp.Uint64N(n) })
		if n <= math.MaxUint {
			checkBounded(t, fmt.Sprintf("UintN(%d)", n), n, func() uint64 { return uint64(randp.UintN(uint(n))) })
		}
	}
	// IntN and UintN near the top of a 32-bit int and uint (386, arm),
	// which the 64-bit bounds above leave out there.
	for _, n := range []uint64{1<<30 + 1, 3 << 29, math.MaxInt32} {
		checkBounded(t, fmt.Sprintf("IntN(%d)", n), n, func() uint64 { return uint64(randp.IntN(int(n))) })
	}
	for _, n := range []uint64{1<<31 + 1, 3 << 30, math.MaxUint32} {
		checkBounded(t, fmt.Sprintf("UintN(%d)", n), n, func() uint64 { return uint64(randp.UintN(uint(n))) })
	}
	checkBounded(t, "N(uint8(200))", 200, func() uint64 { return uint64(randp.N(uint8(200))) })
}

// TestPermutationsUniform checks that every permutation of 4 elements is
// equally likely from Perm, Shuffle and ShuffleSlice.
func TestPermutationsUniform(t *testing.T) {
	index := func(p []int) int { // position of p among the 24 permutations
		return ((p[0]*4+p[1])*4+p[2])*4 + p[3]
	}
	for _, tc := range []struct {
		name string
		perm func() []int
	}{
		{"Perm", func() []int { return randp.Perm(4) }},
		{"Shuffle", func() []int {
			p := []int{0, 1, 2, 3}
			randp.Shuffle(len(p), func(i, j int) { p[i], p[j] = p[j], p[i] })
			return p
		}},
		{"ShuffleSlice", func() []int {
			p := []int{0, 1, 2, 3}
			randp.ShuffleSlice(p)
			return p
		}},
	} {
		counts := make(map[int]int)
		const draws = 24 * 500
		for range draws {
			p := tc.perm()
			if !isPerm(p) {
				t.Fatalf("%s returned %v, not a permutation", tc.name, p)
			}
			counts[index(p)]++
		}
		if len(counts) != 24 {
			t.Fatalf("%s: %d of 24 permutations seen", tc.name, len(counts))
		}
		flat := make([]int, 0, 24)
		for _, c := range counts {
			flat = append(flat, c)
		}
		checkChiSquare(t, tc.name, flat, draws)
	}
}

// TestBadBoundsPanicAsRandV2 checks that every bounded function panics on
// the arguments math/rand/v2's function of the same name panics on, with
// the same value.
func TestBadBoundsPanicAsRandV2(t *testing.T) {
	swap := func(i, j int) {}
	for _, tc := range []struct {
		name          string
		randp, randv2 func()
	}{
		{"IntN(0)", func() { randp.IntN(0) }, func() { rand.IntN(0) }},
		{"IntN(-1)", func() { randp.IntN(-1) }, func() { rand.IntN(-1) }},
		{"Int32N(0)", func() { randp.Int32N(0) }, func() { rand.Int32N(0) }},
		{"Int32N(-5)", func() { randp.Int32N(-5) }, func() { rand.Int32N(-5) }},
		{"Int64N(0)", func() { randp.Int64N(0) }, func() { rand.Int64N(0) }},
		{"Int64N(MinInt64)", func() { randp.Int64N(math.MinInt64) }, func() { rand.Int64N(math.MinInt64) }},
		{"Uint32N(0)", func() { randp.Uint32N(0) }, func() { rand.Uint32N(0) }},
		{"Uint64N(0)", func() { randp.Uint64N(0) }, func() { rand.Uint64N(0) }},
		{"UintN(0)", func() { randp.UintN(0) }, func() { rand.UintN(0) }},
		{"N(0)", func() { randp.N(0) }, func() { rand.N(0) }},
		{"N(int8(-1))", func() { randp.N(int8(-1)) }, func() { rand.N(int8(-1)) }},
		{"N(uint16(0))", func() { randp.N(uint16(0)) }, func() { rand.N(uint16(0)) }},
		{"N(Duration(0))", func() { randp.N(time.Duration(0)) }, func() { rand.N(time.Duration(0)) }},
		{"Shuffle(-1)", func() { randp.Shuffle(-1, swap) }, func() { rand.Shuffle(-1, swap) }},
		{"Perm(-1)", func() { randp.Perm(-1) }, func() { rand.Perm(-1) }},
	} {
		got, want := panicValue(tc.randp), panicValue(tc.randv2)
		if want == nil {
			t.Fatalf("%s: math/rand/v2 does not panic; the test table is wrong", tc.name)
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s panicked with %v; math/rand/v2 panics with %v", tc.name, got, want)
		}
	}
	// math/rand/v2 has no Duration; randp's panics as decred's does.
	for _, n := range []time.Duration{0, -time.Second} {
		if got := panicValue(func() { randp.Duration(n) }); got != "invalid argument to Duration" {
			t.Errorf("Duration(%v) panicked with %v; want %q", n, got, "invalid argument to Duration")
		}
	}
	// Bound 1 and empty inputs are valid and do not panic.
	for name, f := range map[string]func(){
		"IntN(1)":           func() { randp.IntN(1) },
		"Shuffle(0)":        func() { randp.Shuffle(0, swap) },
		"Perm(0)":           func() { randp.Perm(0) },
		"ShuffleSlice(nil)": func() { randp.ShuffleSlice([]int(nil)) },
	} {
		if v := panicValue(f); v != nil {
			t.Errorf("%s panicked with %v", name, v)
		}
	}
}
