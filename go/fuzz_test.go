package randp_test

// Fuzz targets. `go test` runs each with its seed corpus (the f.Add values);
// `make fuzz` runs them for FUZZTIME each with `go test -fuzz`.

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	randp "github.com/randp/randp/go"
)

// fuzzGuard is the number of known bytes kept on each side of a fuzzed buffer.
const fuzzGuard = 64

func fuzzGuardByte(i int) byte { return byte(0xA5 ^ i*37) }

// fuzzCheckedRead reads n bytes with read into the middle of a guarded slice
// whose capacity runs into the trailing fuzzGuard, and fails t if read reports
// anything but n, nil or touches a fuzzGuard byte. It returns the bytes read.
func fuzzCheckedRead(t *testing.T, read func([]byte) (int, error), n int) []byte {
	t.Helper()
	b := make([]byte, fuzzGuard+n+fuzzGuard)
	for i := range b {
		b[i] = fuzzGuardByte(i)
	}
	got, err := read(b[fuzzGuard : fuzzGuard+n])
	if got != n || err != nil {
		t.Fatalf("Read of %d bytes returned %d, %v", n, got, err)
	}
	for i := range fuzzGuard {
		if b[i] != fuzzGuardByte(i) || b[fuzzGuard+n+i] != fuzzGuardByte(fuzzGuard+n+i) {
			t.Fatalf("Read of %d bytes wrote outside its slice (fuzzGuard byte %d)", n, i)
		}
	}
	return b[fuzzGuard : fuzzGuard+n]
}

// FuzzRead reads a sequence of arbitrary sizes (two bytes of the input per
// size, up to 64 KiB each, at most 256 KiB in all) alternately through Read
// and Reader. Every read fills exactly its slice and nothing outside it, and
// no 16-byte block of output appears twice.
func FuzzRead(f *testing.F) {
	for _, sizes := range [][]int{
		{0}, {1}, {7}, {8}, {9}, {511}, {512}, {513}, {1007}, {1008}, {4095}, {4096}, {4097}, {65535},
		{1, 4095, 1, 4096, 8}, {4000, 100, 4000}, {511, 511, 511, 511, 511, 511, 511, 511, 511},
	} {
		var in []byte
		for _, s := range sizes {
			in = append(in, byte(s), byte(s>>8))
		}
		f.Add(in)
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		seen := make(map[[16]byte]bool)
		total := 0
		for i := 0; i+1 < len(in) && total < 256<<10; i += 2 {
			n := int(in[i]) | int(in[i+1])<<8
			total += n
			read := randp.Read
			if i%4 == 2 {
				read = randp.Reader.Read
			}
			out := fuzzCheckedRead(t, read, n)
			for j := 0; j+16 <= len(out); j += 16 {
				var blk [16]byte
				copy(blk[:], out[j:])
				if seen[blk] {
					t.Fatalf("16-byte block %x repeated (read %d of %d bytes)", blk, i/2, n)
				}
				seen[blk] = true
			}
		}
	})
}

// fuzzPanic runs fn and returns what it panicked with, or nil.
func fuzzPanic(fn func()) (v any) {
	defer func() { v = recover() }()
	fn()
	return nil
}

// fuzzSameAsRandV2 fails t unless ours and theirs (math/rand/v2's function of the
// same name, same argument) either both panic with the same value, or both
// return; when they return, ours must be in [0, bound).
func fuzzSameAsRandV2[T int | int32 | int64 | uint | uint32 | uint64 | uint8 | time.Duration](
	t *testing.T, name string, bound T, ours, theirs func(T) T) {
	t.Helper()
	var got T
	pOurs := fuzzPanic(func() { got = ours(bound) })
	pTheirs := fuzzPanic(func() { theirs(bound) })
	if fmt.Sprint(pOurs) != fmt.Sprint(pTheirs) {
		t.Fatalf("%s(%d): randp panics with %v, math/rand/v2 with %v", name, bound, pOurs, pTheirs)
	}
	if pOurs == nil && (got < 0 || got >= bound) {
		t.Fatalf("%s(%d) = %d, outside [0, %d)", name, bound, got, bound)
	}
}

// FuzzBounded gives every bounded function an arbitrary bound (the int64
// input, converted to each function's argument type): results lie in
// [0, n), and a function panics exactly when, and with what, math/rand/v2's
// function of the same name panics.
func FuzzBounded(f *testing.F) {
	for _, n := range []int64{
		0, 1, 2, 3, 7, 1000, -1, -2, math.MinInt64, math.MaxInt64,
		math.MaxInt32, math.MaxInt32 + 1, math.MaxInt32 + 2, math.MinInt32, math.MaxUint32, math.MaxUint32 + 1,
		1<<63 - 1, 1 << 62, 1<<62 + 1, 255, 256, 257, -256,
	} {
		f.Add(n)
	}
	f.Fuzz(func(t *testing.T, n int64) {
		fuzzSameAsRandV2(t, "Int64N", n, randp.Int64N, rand.Int64N)
		fuzzSameAsRandV2(t, "Uint64N", uint64(n), randp.Uint64N, rand.Uint64N)
		fuzzSameAsRandV2(t, "Int32N", int32(n), randp.Int32N, rand.Int32N)
		fuzzSameAsRandV2(t, "Uint32N", uint32(n), randp.Uint32N, rand.Uint32N)
		fuzzSameAsRandV2(t, "IntN", int(n), randp.IntN, rand.IntN)
		fuzzSameAsRandV2(t, "UintN", uint(n), randp.UintN, rand.UintN)
		fuzzSameAsRandV2(t, "N[int64]", n, randp.N[int64], rand.N[int64])
		fuzzSameAsRandV2(t, "N[uint8]", uint8(n), randp.N[uint8], rand.N[uint8])
		fuzzSameAsRandV2(t, "N[uint64]", uint64(n), randp.N[uint64], rand.N[uint64])
		fuzzSameAsRandV2(t, "N[time.Duration]", time.Duration(n), randp.N[time.Duration], rand.N[time.Duration])
		// math/rand/v2 has no Duration; randp's panics where rand.N does, with
		// its own name in the message (as decred's crypto/rand does).
		d := time.Duration(n)
		var got time.Duration
		pOurs := fuzzPanic(func() { got = randp.Duration(d) })
		pTheirs := fuzzPanic(func() { rand.N(d) })
		switch {
		case (pOurs == nil) != (pTheirs == nil):
			t.Fatalf("Duration(%d): randp panics with %v, math/rand/v2's N with %v", d, pOurs, pTheirs)
		case pOurs != nil && pOurs != "invalid argument to Duration":
			t.Fatalf("Duration(%d) panics with %v", d, pOurs)
		case pOurs == nil && (got < 0 || got >= d):
			t.Fatalf("Duration(%d) = %d, outside [0, %d)", d, got, d)
		}

		// Perm and Shuffle allocate or loop n times: fuzz them with the
		// input folded into [-1024, 1024].
		k := int(n % 1025)
		pOurs = fuzzPanic(func() {
			p := randp.Perm(k)
			seen := make([]bool, k)
			for _, v := range p {
				if v < 0 || v >= k || seen[v] {
					t.Fatalf("Perm(%d) = %v is not a permutation", k, p)
				}
				seen[v] = true
			}
		})
		pTheirs = fuzzPanic(func() { rand.Perm(k) })
		if fmt.Sprint(pOurs) != fmt.Sprint(pTheirs) {
			t.Fatalf("Perm(%d): randp panics with %v, math/rand/v2 with %v", k, pOurs, pTheirs)
		}
		s := make([]int, max(k, 0))
		for i := range s {
			s[i] = i
		}
		pOurs = fuzzPanic(func() { randp.Shuffle(k, func(i, j int) { s[i], s[j] = s[j], s[i] }) })
		pTheirs = fuzzPanic(func() { rand.Shuffle(k, func(int, int) {}) })
		if fmt.Sprint(pOurs) != fmt.Sprint(pTheirs) {
			t.Fatalf("Shuffle(%d): randp panics with %v, math/rand/v2 with %v", k, pOurs, pTheirs)
		}
		sorted := make([]bool, len(s))
		for _, v := range s {
			sorted[v] = true
		}
		if !bytes.Equal(fuzzBoolBytes(sorted), bytes.Repeat([]byte{1}, len(s))) {
			t.Fatalf("Shuffle(%d) lost elements: %v", k, s)
		}
	})
}

func fuzzBoolBytes(b []bool) []byte {
	out := make([]byte, len(b))
	for i, v := range b {
		if v {
			out[i] = 1
		}
	}
	return out
}

// TestReadBadInput covers the lengths a fuzzer does not reach: a nil slice,
// an empty slice with spare capacity (nothing may be written into it), and a
// 16 MiB + 3 read, through Read and Reader.
func TestReadBadInput(t *testing.T) {
	for name, read := range map[string]func([]byte) (int, error){"Read": randp.Read, "Reader": randp.Reader.Read} {
		if n, err := read(nil); n != 0 || err != nil {
			t.Fatalf("%s(nil) = %d, %v", name, n, err)
		}
		spare := bytes.Repeat([]byte{0xA5}, 16)
		if n, err := read(spare[:0]); n != 0 || err != nil || !bytes.Equal(spare, bytes.Repeat([]byte{0xA5}, 16)) {
			t.Fatalf("%s(empty slice) = %d, %v and wrote into its capacity", name, n, err)
		}
		out := fuzzCheckedRead(t, read, 16<<20+3)
		for i := 0; i+16 <= len(out); i += 16 {
			if bytes.Equal(out[i:i+16], make([]byte, 16)) {
				t.Fatalf("%s(16 MiB + 3): block at %d left unwritten", name, i)
			}
		}
	}
}
