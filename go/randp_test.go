package randp_test

import (
	"bytes"
	"encoding/binary"
	"io"
	"math"
	"math/big"
	mathrand "math/rand"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	randp "github.com/randp/randp/go"
)

// v2Source and v1Source64 are the interfaces Source and UnbufferedSource
// must satisfy; the assignments fail to compile if they do not.
var (
	_ rand.Source               = randp.Source()
	_ mathrand.Source64         = randp.Source()
	_ rand.Source               = randp.UnbufferedSource()
	_ mathrand.Source64         = randp.UnbufferedSource()
	_ io.Reader                 = randp.Reader
	_ func([]byte) (int, error) = randp.Read
)

// sourceReader reads a Source eight bytes per Uint64, so that the byte
// tests below also run against the sources.
type sourceReader struct{ src rand.Source }

func (r sourceReader) Read(b []byte) (int, error) {
	var w [8]byte
	for i := 0; i < len(b); i += 8 {
		binary.LittleEndian.PutUint64(w[:], r.src.Uint64())
		copy(b[i:], w[:])
	}
	return len(b), nil
}

// testReadAndReader runs one test body against every way of reading bytes
// (crypto/rand's pattern): Read, Reader.Read, a Buffered and an Unbuffered
// source.
func testReadAndReader(t *testing.T, body func(t *testing.T, read func([]byte) (int, error))) {
	t.Run("Read", func(t *testing.T) { body(t, randp.Read) })
	t.Run("Reader", func(t *testing.T) { body(t, randp.Reader.Read) })
	t.Run("Source", func(t *testing.T) { body(t, sourceReader{randp.Source()}.Read) })
	t.Run("UnbufferedSource", func(t *testing.T) { body(t, sourceReader{randp.UnbufferedSource()}.Read) })
}

var readSizes = []int{0, 1, 2, 3, 4, 5, 7, 8, 9, 12, 16, 31, 32, 33, 64, 65, 511, 512, 1007, 1008, 4095, 4096, 1 << 20}

func TestReadFills(t *testing.T) {
	testReadAndReader(t, func(t *testing.T, read func([]byte) (int, error)) {
		for _, size := range readSizes {
			// A guard after b catches writes past len(b).
			const guard = 64
			full := bytes.Repeat([]byte{0xA5}, size+guard)
			b := full[:size:size]
			clear(b)
			n, err := read(b)
			if n != size || err != nil {
				t.Fatalf("read(%d bytes) = %d, %v; want %d, nil", size, n, err, size)
			}
			if !bytes.Equal(full[size:], bytes.Repeat([]byte{0xA5}, guard)) {
				t.Fatalf("read(%d bytes) wrote past the end of the slice", size)
			}
			// Every whole 8-byte word must be non-zero (a false alarm has
			// probability 2^-64 per word): this catches partial fills.
			for i := 0; i+8 <= size; i += 8 {
				if binary.LittleEndian.Uint64(b[i:]) == 0 {
					t.Fatalf("read(%d bytes): word at offset %d is zero", size, i)
				}
			}
			// The bytes of a trailing partial word must each be non-zero
			// in at least one of 64 reads.
			tail := size % 8
			seen := make([]bool, tail)
			for try := 0; try < 64 && tail > 0; try++ {
				clear(b)
				if n, err := read(b); n != size || err != nil {
					t.Fatalf("read(%d bytes) = %d, %v", size, n, err)
				}
				for j := range seen {
					seen[j] = seen[j] || b[size-tail+j] != 0
				}
			}
			for j, ok := range seen {
				if !ok {
					t.Fatalf("read(%d bytes): byte %d was zero in 64 reads", size, size-tail+j)
				}
			}
		}
	})
}

func TestReadBytesUniform(t *testing.T) {
	testReadAndReader(t, func(t *testing.T, read func([]byte) (int, error)) {
		// Read 1 MiB in pieces of varying size and check the byte values
		// with a chi-square test.
		var counts [256]int
		total := 0
		b := make([]byte, 4096)
		sizes := []int{1, 3, 8, 13, 64, 100, 511, 512, 1000, 4096}
		for i := 0; total < 1<<20; i++ {
			p := b[:sizes[i%len(sizes)]]
			read(p)
			for _, c := range p {
				counts[c]++
			}
			total += len(p)
		}
		checkChiSquare(t, "bytes", counts[:], total)
	})
}

func TestReadsDiffer(t *testing.T) {
	testReadAndReader(t, func(t *testing.T, read func([]byte) (int, error)) {
		seen := make(map[[16]byte]bool)
		for i := 0; i < 1000; i++ {
			var b [16]byte
			read(b[:])
			if seen[b] {
				t.Fatalf("read returned the same 16 bytes twice: %x", b)
			}
			seen[b] = true
		}
	})
}

func TestSeedPanics(t *testing.T) {
	for _, tc := range []struct {
		name string
		src  mathrand.Source
	}{
		{"Source", randp.Source()},
		{"UnbufferedSource", randp.UnbufferedSource()},
		{"rand.New(Source())", mathrand.New(randp.Source())},
	} {
		t.Run(tc.name, func(t *testing.T) {
			msg := panicValue(func() { tc.src.Seed(1) })
			if s, _ := msg.(string); !strings.Contains(s, "cannot be seeded") {
				t.Fatalf("Seed panicked with %#v; want a message saying it cannot be seeded", msg)
			}
		})
	}
}

func TestInt63NonNegative(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    func() int64
		max  int64 // every bit of it must vary
	}{
		{"Source.Int63", randp.Source().Int63, math.MaxInt64},
		{"UnbufferedSource.Int63", randp.UnbufferedSource().Int63, math.MaxInt64},
		{"rand.New(Source()).Int63", mathrand.New(randp.Source()).Int63, math.MaxInt64},
		{"Int64", randp.Int64, math.MaxInt64},
		{"Int", func() int64 { return int64(randp.Int()) }, math.MaxInt}, // 31 bits where int is 32
	} {
		t.Run(tc.name, func(t *testing.T) {
			// The top bit must vary: a source that shifted away too much
			// would also be non-negative.
			var or, and int64 = 0, -1
			for i := 0; i < 10000; i++ {
				v := tc.f()
				if v < 0 {
					t.Fatalf("got negative %d", v)
				}
				or |= v
				and &= v
			}
			if or != tc.max || and != 0 {
				t.Fatalf("over 10000 values some of the bits of %#x never varied: or %#x and %#x", tc.max, or, and)
			}
		})
	}
	var or int32
	for i := 0; i < 10000; i++ {
		v := randp.Int32()
		if v < 0 {
			t.Fatalf("Int32 returned negative %d", v)
		}
		or |= v
	}
	if or != math.MaxInt32 {
		t.Fatalf("Int32: some of the 31 low bits never set: %#x", or)
	}
}

func TestSourcesDiffer(t *testing.T) {
	first64 := func(src rand.Source) [8]uint64 {
		var w [8]uint64
		for i := range w {
			w[i] = src.Uint64()
		}
		return w
	}
	seen := make(map[[8]uint64]bool)
	for i := 0; i < 200; i++ {
		for _, src := range []rand.Source{randp.Source(), randp.UnbufferedSource()} {
			w := first64(src)
			if seen[w] {
				t.Fatalf("two sources returned the same first 64 bytes %x", w)
			}
			seen[w] = true
		}
	}
}

// TestConcurrent calls every package-level function and Reader from 8
// goroutines at once, and checks that no 64-bit value is handed out twice,
// which would mean two goroutines shared buffer bytes. The buffers live in
// pages mapped outside the Go heap, which the race detector does not track;
// under -race it sees them through their shadows (race.go), each access to
// a page announced on its shadow, so -race reports an access made outside
// its pinned section. This check covers the buffers in every build, and
// -race checks the rest as well (the hint table, the shard table).
func TestConcurrent(t *testing.T) {
	const goroutines, rounds = 8, 3000
	vals := make([][]uint64, goroutines)
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			buf := make([]byte, 700)
			var got []uint64
			for i := range rounds {
				got = append(got, randp.Uint64())
				n := i%len(buf) + 1
				if m, err := randp.Reader.Read(buf[:n]); m != n || err != nil {
					t.Errorf("Reader.Read(%d) = %d, %v", n, m, err)
					return
				}
				if n >= 8 {
					got = append(got, binary.LittleEndian.Uint64(buf))
				}
				randp.Read(buf[:n%16])
				_ = randp.Uint32()
				if randp.Int32() < 0 || randp.Int64() < 0 || randp.Int() < 0 {
					t.Error("negative value from Int32, Int64 or Int")
					return
				}
				if v := randp.IntN(10); v < 0 || v >= 10 {
					t.Errorf("IntN(10) = %d", v)
					return
				}
				if v := randp.Int32N(7); v < 0 || v >= 7 {
					t.Errorf("Int32N(7) = %d", v)
					return
				}
				if v := randp.Int64N(1e12); v < 0 || v >= 1e12 {
					t.Errorf("Int64N(1e12) = %d", v)
					return
				}
				if v := randp.Uint32N(3); v >= 3 {
					t.Errorf("Uint32N(3) = %d", v)
					return
				}
				if v := randp.Uint64N(5); v >= 5 {
					t.Errorf("Uint64N(5) = %d", v)
					return
				}
				if v := randp.UintN(9); v >= 9 {
					t.Errorf("UintN(9) = %d", v)
					return
				}
				if v := randp.N(int8(100)); v < 0 || v >= 100 {
					t.Errorf("N(int8(100)) = %d", v)
					return
				}
				if d := randp.Duration(time.Second); d < 0 || d >= time.Second {
					t.Errorf("Duration(1s) = %v", d)
					return
				}
				_ = randp.Uint()
				if f := randp.Float64(); f < 0 || f >= 1 {
					t.Errorf("Float64() = %v", f)
					return
				}
				if f := randp.Float32(); f < 0 || f >= 1 {
					t.Errorf("Float32() = %v", f)
					return
				}
				if f := randp.ExpFloat64(); f <= 0 {
					t.Errorf("ExpFloat64() = %v", f)
					return
				}
				_ = randp.NormFloat64()
				if i%100 == 0 {
					p := randp.Perm(10)
					randp.Shuffle(len(p), func(i, j int) { p[i], p[j] = p[j], p[i] })
					randp.ShuffleSlice(p)
					if !isPerm(p) {
						t.Errorf("Perm/Shuffle/ShuffleSlice lost elements: %v", p)
						return
					}
					if s := randp.Text(); len(s) != 26 {
						t.Errorf("Text() = %q", s)
						return
					}
					if v := randp.BigInt(big.NewInt(1000)); v.Sign() < 0 || v.Int64() >= 1000 {
						t.Errorf("BigInt(1000) = %v", v)
						return
					}
				}
			}
			vals[g] = got
		}()
	}
	wg.Wait()
	randp.CheckAllDistinct(t, vals)
}

// TestGOMAXPROCSGrowth raises GOMAXPROCS above its value at the first call,
// so that new Ps need buffers, and checks that values stay distinct.
func TestGOMAXPROCSGrowth(t *testing.T) {
	old := runtime.GOMAXPROCS(0)
	defer runtime.GOMAXPROCS(old)
	randp.Uint64()
	runtime.GOMAXPROCS(old + 3)
	const goroutines = 8
	vals := make([][]uint64, goroutines)
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 2000 {
				vals[g] = append(vals[g], randp.Uint64())
				runtime.Gosched()
			}
		}()
	}
	wg.Wait()
	randp.CheckAllDistinct(t, vals)
}

func isPerm(p []int) bool {
	seen := make([]bool, len(p))
	for _, v := range p {
		if v < 0 || v >= len(p) || seen[v] {
			return false
		}
		seen[v] = true
	}
	return true
}

// panicValue returns what f panics with, or nil.
func panicValue(f func()) (v any) {
	defer func() { v = recover() }()
	f()
	return nil
}
