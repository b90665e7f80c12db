package randp

import (
	"math/rand/v2"
	"time"
)

// The package-level functions below are safe for concurrent use. Uint64,
// which they all call, is in buffers_cgo.go and buffers_purego.go. Those
// taking a bound use math/rand/v2's algorithms (through a rand.Rand over the
// per-P buffers), so they are uniform and panic exactly as math/rand/v2's
// functions of the same name do.

// globalSource is the math/rand/v2 Source behind global.
type globalSource struct{}

func (globalSource) Uint64() uint64 { return Uint64() }

// global gives the package-level functions math/rand/v2's algorithms. A
// rand.Rand holds no state besides its source, which is safe for concurrent
// use, so global is too.
var global = rand.New(globalSource{})

// Uint32 returns 32 uniform, unpredictable bits as a uint32.
func Uint32() uint32 { return uint32(Uint64() >> 32) }

// Int64 returns a non-negative unpredictable 63-bit integer as an int64.
func Int64() int64 { return int64(Uint64() &^ (1 << 63)) }

// Int32 returns a non-negative unpredictable 31-bit integer as an int32.
func Int32() int32 { return int32(Uint64() >> 33) }

// Int returns a non-negative unpredictable int.
func Int() int { return int(uint(Uint64()) << 1 >> 1) }

// Uint returns an unpredictable uint (all its bits uniform).
func Uint() uint { return uint(Uint64()) }

// Float64 returns, as a float64, a uniform unpredictable number in the
// half-open interval [0.0, 1.0): one of the 2⁵³ multiples of 2⁻⁵³ there, as
// math/rand/v2's Float64 returns.
func Float64() float64 { return global.Float64() }

// Float32 returns, as a float32, a uniform unpredictable number in the
// half-open interval [0.0, 1.0), as math/rand/v2's Float32 does.
func Float32() float32 { return global.Float32() }

// NormFloat64 returns a normally distributed float64 in the range
// [-math.MaxFloat64, +math.MaxFloat64] with mean 0 and standard deviation 1,
// by math/rand/v2's algorithm. To produce a different normal distribution,
// adjust the output: sample = NormFloat64() * desiredStdDev + desiredMean.
func NormFloat64() float64 { return global.NormFloat64() }

// ExpFloat64 returns an exponentially distributed float64 in the range
// (0, +math.MaxFloat64] with rate parameter (lambda) 1 and mean 1/lambda (1),
// by math/rand/v2's algorithm. To produce a distribution with a different
// rate parameter, divide the output: sample = ExpFloat64() / desiredRate.
func ExpFloat64() float64 { return global.ExpFloat64() }

// Int64N returns, as an int64, a uniform unpredictable integer in [0, n).
// It panics if n <= 0.
func Int64N(n int64) int64 { return global.Int64N(n) }

// Uint64N returns, as a uint64, a uniform unpredictable integer in [0, n).
// It panics if n == 0.
func Uint64N(n uint64) uint64 { return global.Uint64N(n) }

// Int32N returns, as an int32, a uniform unpredictable integer in [0, n).
// It panics if n <= 0.
func Int32N(n int32) int32 { return global.Int32N(n) }

// Uint32N returns, as a uint32, a uniform unpredictable integer in [0, n).
// It panics if n == 0.
func Uint32N(n uint32) uint32 { return global.Uint32N(n) }

// IntN returns, as an int, a uniform unpredictable integer in [0, n).
// It panics if n <= 0.
func IntN(n int) int { return global.IntN(n) }

// UintN returns, as a uint, a uniform unpredictable integer in [0, n).
// It panics if n == 0.
func UintN(n uint) uint { return global.UintN(n) }

// intType is the set of integer types N accepts, as in math/rand/v2.
type intType interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 |
		~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr
}

// N returns a uniform unpredictable integer in [0, n) of any integer type,
// including types defined on one such as time.Duration. It panics if n <= 0.
func N[Int intType](n Int) Int {
	if n <= 0 {
		panic("invalid argument to N")
	}
	return Int(global.Uint64N(uint64(n)))
}

// Duration returns a uniform unpredictable duration in [0, n).
// It panics if n <= 0.
func Duration(n time.Duration) time.Duration {
	if n <= 0 {
		panic("invalid argument to Duration")
	}
	return time.Duration(global.Uint64N(uint64(n)))
}

// Shuffle puts n elements in a uniformly random, unpredictable order by
// calling swap(i, j) to exchange elements i and j. It panics if n < 0.
func Shuffle(n int, swap func(i, j int)) { global.Shuffle(n, swap) }

// ShuffleSlice puts the elements of s in a uniformly random, unpredictable
// order (a Fisher-Yates shuffle, as Shuffle performs).
func ShuffleSlice[S ~[]E, E any](s S) {
	for i := len(s) - 1; i > 0; i-- {
		j := int(global.Uint64N(uint64(i + 1)))
		s[i], s[j] = s[j], s[i]
	}
}

// Perm returns a uniformly random, unpredictable permutation of the integers
// [0, n) as a slice of n ints. It panics if n < 0.
func Perm(n int) []int { return global.Perm(n) }
