package randp_test

import (
	"bufio"
	crand "crypto/rand"
	"math/rand/v2"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	randp "github.com/randp/randp/go"
)

// What a source costs as Go programs hold them, side by side with what the
// standard library offers for the same use (compare within one run):
//
//	go test -run '^$' -bench '^BenchmarkCost' -count 6
//
// CostNewSource is a source per request (a new source and its first value),
// CostNewChaCha8 the same with rand.NewChaCha8 seeded from crypto/rand.
// CostLocked20000 reports the process's locked memory (VmLck) while 20,000
// sources that have each handed out a value are alive.

func BenchmarkCostNewSource(b *testing.B) {
	for b.Loop() {
		sink += randp.Source().Uint64()
	}
}

// BenchmarkCostNewSourcePaged is CostNewSource for sources that each get a
// buffer of their own (on the cgo path a 4 KiB fill, on the pure-Go path a
// seed and a 1 KiB epoch): 500 at a time, which then become garbage and are
// collected outside the timing, so that their buffers are free again.
func BenchmarkCostNewSourcePaged(b *testing.B) {
	const batch = 500
	srcs := make([]*randp.Buffered, batch)
	var total time.Duration
	n := 0
	for b.Loop() {
		b.StopTimer()
		clear(srcs)
		for range 3 {
			runtime.GC()
			time.Sleep(time.Millisecond)
		}
		start := time.Now()
		b.StartTimer()
		for i := range srcs {
			srcs[i] = randp.Source()
			sink += srcs[i].Uint64()
		}
		total += time.Since(start)
		n += batch
	}
	b.ReportMetric(float64(total.Nanoseconds())/float64(n), "ns/source")
}

func BenchmarkCostNewChaCha8(b *testing.B) {
	for b.Loop() {
		var seed [32]byte
		crand.Read(seed[:])
		sink += rand.NewChaCha8(seed).Uint64()
	}
}

func BenchmarkCostBufferedUint64(b *testing.B) {
	s := randp.Source()
	for b.Loop() {
		sink += s.Uint64()
	}
}

func BenchmarkCostRandNewSourceUint64(b *testing.B) {
	r := rand.New(randp.Source())
	for b.Loop() {
		sink += r.Uint64()
	}
}

func BenchmarkCostRead32(b *testing.B) { benchCostRead(b, 32) }

func BenchmarkCostRead4096(b *testing.B) { benchCostRead(b, 4096) }

func benchCostRead(b *testing.B, n int) {
	buf := make([]byte, n)
	b.SetBytes(int64(n))
	for b.Loop() {
		randp.Read(buf)
	}
}

func BenchmarkCostLocked20000(b *testing.B) {
	for b.Loop() {
		srcs := make([]*randp.Buffered, 20000)
		for i := range srcs {
			srcs[i] = randp.Source()
			sink += srcs[i].Uint64()
		}
		b.ReportMetric(float64(vmLckKiB(b)), "KiB-locked")
		// A second count of this loop starts with the sources freed.
		for i := range srcs {
			srcs[i] = nil
		}
	}
}

// sink keeps the values drawn from being optimised away.
var sink uint64

// vmLckKiB returns the process's locked memory, VmLck in /proc/self/status.
func vmLckKiB(tb testing.TB) int {
	tb.Helper()
	f, err := os.Open("/proc/self/status")
	if err != nil {
		tb.Skipf("no /proc/self/status: %v", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmLck:"); ok {
			n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
			if err != nil {
				tb.Fatalf("VmLck %q: %v", v, err)
			}
			return n
		}
	}
	tb.Fatal("no VmLck in /proc/self/status")
	return 0
}
