package main

import (
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestGoNames: a Go benchmark's name loses its -GOMAXPROCS suffix, which
// the run keeps, and nothing else.
func TestGoNames(t *testing.T) {
	path := filepath.Join(t.TempDir(), "go.txt")
	writeFile(t, path, "BenchmarkStdlibRead/4b-2\t10\t5 ns/op\nBenchmarkV2Uint64/src=PCG\t10\t5 ns/op\nBenchmarkA-b/c\t10\t5 ns/op\nBenchmarkMathRand-20\t10\t5 ns/op\n")
	s, g, err := loadGoBench(path, "go")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for ref := range s.samples {
		got = append(got, ref)
	}
	sort.Strings(got)
	if strings.Join(got, " ") != "go:A-b/c go:MathRand go:StdlibRead/4b go:V2Uint64/src=PCG" || g.procs != "-20" || g.runs != 1 {
		t.Errorf("names %q, procs %q, runs %d", got, g.procs, g.runs)
	}
}

func TestFaster(t *testing.T) {
	if s := faster(199, 5154); s != "25.9× faster" {
		t.Errorf("faster = %q", s)
	}
	if s := faster(2, 1); s != "2.00× slower" {
		t.Errorf("slower = %q", s)
	}
}

// TestCompareOnlySeparated: a ratio only where the intervals do not overlap.
func TestCompareOnlySeparated(t *testing.T) {
	a := stat{Center: 10, Lo: 9, Hi: 11, N: 6}
	b := stat{Center: 31, Lo: 30, Hi: 32, N: 6}
	if s := compare(a, b); s != "3.10× faster" {
		t.Errorf("separated: %q", s)
	}
	if s := compare(b, a); s != "3.10× slower" {
		t.Errorf("separated, reversed: %q", s)
	}
	c := stat{Center: 11.5, Lo: 10.5, Hi: 12, N: 6}
	if s := compare(a, c); s != noDifference {
		t.Errorf("overlapping: %q", s)
	}
	if s := compare(a, stat{}); s != "" {
		t.Errorf("missing: %q", s)
	}
}

// TestSummarize: benchstat's median interval needs 6 samples; fewer give none.
func TestSummarize(t *testing.T) {
	s := summarize([]float64{5, 1, 3, 2, 4, 6})
	if s.Center != 3.5 || s.Lo != 1 || s.Hi != 6 {
		t.Errorf("six samples: %+v", s)
	}
	s = summarize([]float64{1, 2, 3})
	if s.Center != 2 || !math.IsInf(s.Lo, -1) || separated(s, stat{Center: 100, Lo: 99, Hi: 101}) {
		t.Errorf("three samples must not separate: %+v", s)
	}
}

func TestSpreadAndRates(t *testing.T) {
	if got := spread(stat{Center: 5.72, Lo: 5.61, Hi: 5.9}); got != "5.72 ns [5.61, 5.90]" {
		t.Errorf("spread = %q", got)
	}
	if got := spread(stat{Center: 25000, Lo: 24000, Hi: 26000}); got != "25.0 µs [24.0, 26.0]" {
		t.Errorf("spread µs = %q", got)
	}
	// 1 MiB in 1e5 ns is 10.49 GB/s; the interval reverses.
	if got := gbps(stat{Center: 1e5, Lo: 0.9e5, Hi: 1.1e5}, 1<<20); got != "10.49 GB/s [9.53, 11.65]" {
		t.Errorf("gbps = %q", got)
	}
	// 4 GiB at 1 byte/ns is 4.29 s.
	if got := fill4GiB(stat{Center: 256}, 256); got != "4.29 s" {
		t.Errorf("fill4GiB = %q", got)
	}
	for n, want := range map[float64]string{4: "4 B", 48: "48 B", 512: "512 B", 1536: "1536 B", 4096: "4 KiB", 1 << 20: "1 MiB", 3 << 19: "1536 KiB"} {
		if got := fmtBytes(n); got != want {
			t.Errorf("fmtBytes(%v) = %q", n, got)
		}
	}
}

func TestAnchor(t *testing.T) {
	for h, want := range map[string]string{
		h("GoRead"):   "#go-read-at-decred-dcrds-sizes",
		h("CThreads"): "#c-two-threads-and-one-generator-behind-a-mutex",
		h("CSweep"):   "#c-fill-by-call-size-4-b-to-1-mib",
		h("Ceiling"):  "#the-aes-256-ctr-ceiling-of-this-cpu",
	} {
		if got := anchor(h); got != want {
			t.Errorf("anchor(%q) = %q, want %q", h, got, want)
		}
	}
}

func TestTick(t *testing.T) {
	for e, want := range map[float64]string{0: "1 ns", 2: "100 ns", 3: "1 µs", 7: "10 ms"} {
		if got := tick(e); got != want {
			t.Errorf("tick(%v) = %q, want %q", e, got, want)
		}
	}
}

func TestCheckClean(t *testing.T) {
	if err := checkClean(runInfo{"dirty": "yes"}, false); err == nil {
		t.Error("a dirty run was accepted")
	}
	if err := checkClean(runInfo{}, false); err == nil {
		t.Error("a run without a record of its tree was accepted")
	}
	if err := checkClean(runInfo{"dirty": "yes"}, true); err != nil {
		t.Errorf("-allow-dirty refused: %v", err)
	}
	if err := checkClean(runInfo{"dirty": "no"}, false); err != nil {
		t.Errorf("clean refused: %v", err)
	}
}

func TestParseSize(t *testing.T) {
	for s, want := range map[string]float64{"4B": 4, "4b": 4, "256B": 256, "4KiB": 4096, "1MiB": 1 << 20, "x": 0} {
		if got := parseSize(s); got != want {
			t.Errorf("parseSize(%q) = %v", s, got)
		}
	}
}

// TestLoadCBench: Google Benchmark JSON becomes ns per operation; bytes and
// threads are turned into a time per call across all threads; aggregates and
// errors are dropped; missing contestants come from the context. (One file
// read alone counts as pass 0; merged passes: TestMergeCPasses.)
func TestLoadCBench(t *testing.T) {
	js := `{"context": {"missing:planet36": "peer source unavailable"}, "benchmarks": [
 {"run_name": "u64/randp/real_time", "run_type": "iteration", "threads": 1, "real_time": 3.5, "time_unit": "ns", "items_per_second": 2.5e8},
 {"run_name": "u64/randp/real_time", "run_type": "aggregate", "threads": 1, "real_time": 99, "time_unit": "ns", "items_per_second": 1},
 {"run_name": "fill_256B/randp/real_time", "run_type": "iteration", "threads": 1, "real_time": 40, "time_unit": "ns", "bytes_per_second": 6.4e9},
 {"run_name": "threads_u64/randp/real_time/threads:2", "run_type": "iteration", "threads": 2, "real_time": 4, "time_unit": "ns", "items_per_second": 5e8},
 {"run_name": "u32/openssl/real_time", "run_type": "iteration", "threads": 1, "real_time": 1, "time_unit": "us", "error_occurred": true}
]}`
	path := filepath.Join(t.TempDir(), "c.json")
	if err := os.WriteFile(path, []byte(js), 0o644); err != nil {
		t.Fatal(err)
	}
	st, c, err := loadCBench(path)
	if err != nil {
		t.Fatal(err)
	}
	if s := st.samples.values("c:u64/randp"); len(s) != 1 || s[0] != 4 {
		t.Errorf("u64/randp = %v, want [4] (from items_per_second)", s)
	}
	if s := st.samples.values("c:fill_256B/randp"); len(s) != 1 || s[0] != 40 {
		t.Errorf("fill_256B/randp = %v, want [40]", s)
	}
	if s := st.samples.values("c:threads_u64/randp/threads:2"); len(s) != 1 || s[0] != 2 {
		t.Errorf("threads = %v, want [2]", s)
	}
	if _, ok := st.samples["c:u32/openssl"]; ok {
		t.Error("an errored run was kept")
	}
	if c.why("planet36") != "peer source unavailable" || c.why("randp") != "" {
		t.Errorf("missing = %v", c.missing)
	}
	if (cRun{}).why("randp") != "C benchmarks not run" {
		t.Error("a run without the C program gives no reason")
	}
}
