package main

import (
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestSplitProcs(t *testing.T) {
	for _, c := range []struct{ in, name, procs string }{
		{"StdlibRead/4b-2", "StdlibRead/4b", "-2"},
		{"MathRand-20", "MathRand", "-20"},
		{"MathRand", "MathRand", ""},
		{"V2Uint64/src=PCG", "V2Uint64/src=PCG", ""},
		{"A-b/c", "A-b/c", ""},
	} {
		name, procs := splitProcs(c.in)
		if name != c.name || procs != c.procs {
			t.Errorf("splitProcs(%q) = %q, %q; want %q, %q", c.in, name, procs, c.name, c.procs)
		}
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
	for n, want := range map[float64]string{4: "4 B", 512: "512 B", 4096: "4 KiB", 1 << 20: "1 MiB"} {
		if got := fmtBytes(n); got != want {
			t.Errorf("fmtBytes(%v) = %q", n, got)
		}
	}
}

func TestAnchor(t *testing.T) {
	for h, want := range map[string]string{
		hGoRead:   "#go-read-at-decred-dcrds-sizes",
		hCThreads: "#c-two-threads-and-one-generator-behind-a-mutex",
		hCSizes:   "#c-one-call-of-4-b-to-4-kib",
		hCeiling:  "#the-aes-256-ctr-ceiling-of-this-cpu",
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
// errors are dropped; missing contestants come from the context.
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
	c, err := loadCBench(path)
	if err != nil {
		t.Fatal(err)
	}
	if s := c.samples["u64/randp"]; len(s) != 1 || s[0] != 4 {
		t.Errorf("u64/randp = %v, want [4] (from items_per_second)", s)
	}
	if s := c.samples["fill_256B/randp"]; len(s) != 1 || s[0] != 40 {
		t.Errorf("fill_256B/randp = %v, want [40]", s)
	}
	if s := c.samples["threads_u64/randp/threads:2"]; len(s) != 1 || s[0] != 2 {
		t.Errorf("threads = %v, want [2]", s)
	}
	if _, ok := c.samples["u32/openssl"]; ok {
		t.Error("an errored run was kept")
	}
	if c.why("planet36") != "peer source unavailable" || c.why("randp") != "" {
		t.Errorf("missing = %v", c.missing)
	}
}

func TestCeilingParse(t *testing.T) {
	out := "# openssl: OpenSSL 3.0.19\n+F:25:AES-256-CTR:7854882816.00\n+F:25:AES-256-CTR:8000000000.00\n# aes-ceiling\n" +
		"kernel                        cpu GB/s          [min..max] | wall GB/s          [min..max]\n" +
		"14-round CTR xmm AES-NI x8        7.61        [7.39..7.75] |      7.61        [7.39..7.75]\n" +
		"14-round CTR ymm VAES256 x8      16.12      [15.61..16.16] |     16.12      [15.61..16.16]\n"
	path := filepath.Join(t.TempDir(), "ceiling.txt")
	if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	var c ceilings
	if err := c.load(path, "start"); err != nil {
		t.Fatal(err)
	}
	if len(c.openssl) != 2 || c.OpenSSLVersion != "OpenSSL 3.0.19" {
		t.Fatalf("openssl = %v %q", c.openssl, c.OpenSSLVersion)
	}
	b, ok := c.best()
	if !ok || b.Name != "14-round CTR ymm VAES256 x8" || b.GBps != 16.12 {
		t.Errorf("best = %+v", b)
	}
}

// TestReportFromResults writes a complete results folder, renders the
// report and the chart, and checks what a reader looks for first.
func TestReportFromResults(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("run.txt", "commit: abc\ndirty: no\ncpu: Test CPU\nnproc: 2\ncpu_flags: aes vaes\ngo: go1.26\n")
	write("loadavg.txt", "100 0.50 0.1 0.1\n160 1.50 0.1 0.1\n")
	write("peers.txt", "planet36-randp missing peer source unavailable\ndcrd-crypto-rand available x\nunpredictable available x\n")
	goOut := func(names []string, ns func(i int) float64) string {
		out := "goos: linux\ngoarch: amd64\n"
		for run := 0; run < 6; run++ {
			for i, n := range names {
				out += "Benchmark" + n + "-2\t1000\t" + strconv.FormatFloat(ns(i)+float64(run)/100, 'f', 2, 64) + " ns/op\n"
			}
		}
		return out
	}
	var randpNames, peerNames []string
	for _, s := range goReadSizes {
		for _, p := range []string{"StdlibRead", "RandpRead", "RandpReadUnbuffered", "ChaCha8Read", "AESCTRRead"} {
			randpNames = append(randpNames, p+"/"+s.name)
		}
		peerNames = append(peerNames, "GetrandomRead/"+s.name, "UnpredictableRead/"+s.name)
	}
	randpNames = append(randpNames, "MathRand", "RandpBufRand", "Uint32N")
	write("go-randp.txt", goOut(randpNames, func(i int) float64 {
		if strings.HasPrefix(randpNames[i], "RandpRead/") {
			return 10
		}
		return 100
	}))
	write("go-peers.txt", goOut(append(peerNames, "Unpredictable"), func(int) float64 { return 50 }))
	write("go-dcrd.txt", goOut([]string{"DcrdRead/4b", "Uint32N"}, func(int) float64 { return 40 }))
	write("c.json", `{"context": {}, "benchmarks": [{"run_name": "u64/randp/real_time", "run_type": "iteration", "threads": 1, "real_time": 3.5, "time_unit": "ns", "items_per_second": 2.5e8}]}`)
	write("ceiling-start.txt", "# openssl: OpenSSL 3\n+F:25:AES-256-CTR:7854882816.00\n")
	write("ceiling-end.txt", "# openssl: OpenSSL 3\n+F:25:AES-256-CTR:7854882816.00\n")
	write("criterion.json", "[]")

	res, err := loadResults(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	svg, err := readSizeChart(res)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"<svg", "4 B", "4 KiB", "time per Read call", "crypto/rand before Go 1.24", "art4711/unpredictable"} {
		if !strings.Contains(svg, want) {
			t.Errorf("chart lacks %q", want)
		}
	}
	if strings.Contains(svg, "decred dcrd Read") {
		t.Error("chart drew dcrd's incomplete series")
	}
	md := (&report{res: res, svgPath: "read-size.svg", resultsDir: "results"}).markdown()
	for _, want := range []string{
		"## If you use X today",
		"| crypto/rand.Read | 32 B | 100 ns | 10.0 ns | [**9.98× faster**](#go-read-at-decred-dcrds-sizes) |",
		"planet36/randp `randp_u64` | uint64_t | — | 4.00 ns | [not measured: peer source unavailable]",
		"Commit abc,",
		"0.50 / 1.50 / 1.50 (min / median / max of 2 samples",
		"Test CPU",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	// Without the randp series the chart is an error, not a silent gap.
	delete(res.goRandp.samples, "RandpRead/4b")
	if _, err := readSizeChart(res); err == nil {
		t.Error("chart drawn without RandpRead/4b")
	}
	// A results folder without the C output is incomplete outside smoke mode.
	os.Remove(filepath.Join(dir, "c.json"))
	if _, err := loadResults(dir, false); err == nil {
		t.Error("results without c.json accepted")
	}
	if _, err := loadResults(dir, true); err != nil {
		t.Errorf("smoke mode refused missing c.json: %v", err)
	}
}
