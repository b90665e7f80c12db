package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func writeFile(t *testing.T, path, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestCeilingParse: the passes' openssl and aes-ceiling lines; aes-ceiling's
// wall column, not its CPU-time column; the widest 14-round kernel.
func TestCeilingParse(t *testing.T) {
	var out strings.Builder
	out.WriteString("# openssl: OpenSSL 3.0.19\n")
	for p := 1; p <= 2; p++ {
		fmt.Fprintf(&out, "# pass %02d\n+F:25:AES-256-CTR:8000000000.00\n# aes-ceiling\n", p)
		out.WriteString("kernel                        cpu GB/s          [min..max] | wall GB/s          [min..max]\n")
		out.WriteString("14-round CTR xmm AES-NI x8        7.61        [7.61..7.61] |      7.00        [7.00..7.00]\n")
		out.WriteString("14-round CTR ymm VAES256 x8      16.12      [16.12..16.12] |     16.00      [16.00..16.00]\n")
		out.WriteString("14-round CTR zmm VAES512 x8      33.80      [33.80..33.80] |     32.00      [32.00..32.00]\n")
	}
	path := filepath.Join(t.TempDir(), "ceiling.txt")
	writeFile(t, path, out.String())
	s, c, err := loadCeilings(path)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(s.samples["openssl:aes-256-ctr"]); n != 2 || c.OpenSSLVersion != "OpenSSL 3.0.19" {
		t.Fatalf("openssl: %d samples, %q", n, c.OpenSSLVersion)
	}
	r := resultsOf(s)
	r.ceil = c
	name, w := r.widest()
	if name != "14-round CTR zmm VAES512 x8" || w.N != 2 {
		t.Fatalf("widest = %q %+v", name, w)
	}
	if got := (1 << 20) / w.Center; got < 31.99 || got > 32.01 {
		t.Errorf("widest kernel %.2f GB/s, want the wall column's 32.00", got)
	}
}

// gbenchDoc is one pass's Google Benchmark JSON with the given ns per op.
func gbenchDoc(ops map[string]float64, context map[string]any) string {
	type bm struct {
		RunName        string  `json:"run_name"`
		RunType        string  `json:"run_type"`
		Threads        int     `json:"threads"`
		RealTime       float64 `json:"real_time"`
		TimeUnit       string  `json:"time_unit"`
		BytesPerSecond float64 `json:"bytes_per_second,omitempty"`
		ItemsPerSecond float64 `json:"items_per_second,omitempty"`
	}
	doc := struct {
		Context    map[string]any `json:"context"`
		Benchmarks []bm           `json:"benchmarks"`
	}{Context: context}
	for name, v := range ops {
		b := bm{RunName: name + "/real_time", RunType: "iteration", Threads: 1, RealTime: v, TimeUnit: "ns"}
		if size := opBytes(name); size > 0 {
			b.BytesPerSecond = size / v * 1e9
		} else {
			b.ItemsPerSecond = 1e9 / v
		}
		doc.Benchmarks = append(doc.Benchmarks, b)
	}
	out, _ := json.Marshal(doc)
	return string(out)
}

// resultsOf is the results of a run that holds the given benchmarks only.
func resultsOf(stores ...store) *results {
	r := &results{store: newStore(), peers: map[string]string{}}
	for _, s := range stores {
		r.merge(s)
	}
	return r
}

// mergeResults is benches/merge-results.sh's merge of kind (c or
// criterion) of the outputs in dir.
func mergeResults(t *testing.T, kind, dir string) string {
	t.Helper()
	cmd := exec.Command("../../benches/merge-results.sh", kind, dir)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("merge-results.sh %s %s: %v", kind, dir, err)
	}
	return string(out)
}

// loadMerged merges the pass-NN.json files of dir and loads the result.
func loadMerged(t *testing.T, dir string) (store, cRun) {
	t.Helper()
	merged := filepath.Join(t.TempDir(), "c.json")
	writeFile(t, merged, mergeResults(t, "c", dir))
	s, c, err := loadCBench(merged)
	if err != nil {
		t.Fatal(err)
	}
	return s, c
}

// TestMergeCPasses: per-pass files merge into one; samples keep their pass,
// and processes pairs randp and a rival within each process.
func TestMergeCPasses(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "pass-01.json"), gbenchDoc(map[string]float64{"fill_1KiB/randp": 100, "fill_1KiB/planet36": 90}, map[string]any{"library_build_type": "debug"}))
	writeFile(t, filepath.Join(dir, "pass-02.json"), gbenchDoc(map[string]float64{"fill_1KiB/randp": 80, "fill_1KiB/planet36": 95}, nil))
	writeFile(t, filepath.Join(dir, "pass-03.json"), gbenchDoc(map[string]float64{"fill_1KiB/randp": 70, "fill_1KiB/planet36": 96}, nil))
	s, c := loadMerged(t, dir)
	if got := s.samples.values("c:fill_1KiB/randp"); len(got) != 3 {
		t.Fatalf("samples = %v", got)
	}
	if bp, _ := s.samples.byPass("c:fill_1KiB/randp"); bp[1] != 100 || bp[2] != 80 || bp[3] != 70 {
		t.Errorf("by pass = %v", bp)
	}
	r := &report{res: resultsOf(s)}
	if p := r.processes("fill_1KiB/"); p != "2 of 3" {
		t.Errorf("processes = %q, want 2 of 3", p)
	}
	if c.build != "debug" {
		t.Errorf("build type %q", c.build)
	}
}

// TestPerProcessAfterSummaries: summarizing a row leaves its samples in
// pass order, so that the processes are still paired after the report has
// taken the rows' medians (it sorted them in place, and randp's fastest
// process was then set against planet36/randp's fastest).
func TestPerProcessAfterSummaries(t *testing.T) {
	c := newStore()
	for pass, v := range []float64{100, 80, 70} {
		c.samples.add("c:fill_1KiB/randp", pass+1, v)
		c.samples.add("c:fill_1KiB/planet36", pass+1, []float64{110, 60, 75}[pass])
	}
	if c.stat("c:fill_1KiB/randp").Center != 80 || c.stat("c:fill_1KiB/planet36").Center != 75 {
		t.Fatalf("medians %v %v", c.stat("c:fill_1KiB/randp"), c.stat("c:fill_1KiB/planet36"))
	}
	r := &report{res: resultsOf(c)}
	if p := r.processes("fill_1KiB/"); p != "2 of 3" {
		t.Errorf("processes = %q, want 2 of 3 (passes 1 and 3)", p)
	}
}

// TestWordRatioPaired: a Rust word row is judged by the median of each
// process's ratio, not by the ratio of the two medians, which sets one
// process's randp against another's rival; a pass that ran only one of the
// two is left out, and one pass alone falls back to the medians.
func TestWordRatioPaired(t *testing.T) {
	home := t.TempDir()
	randp := []float64{1.0, 2.0, 3.0, 4.0, 5.0, 9.0}
	rival := []float64{1.2, 2.2, 2.9, 4.5, 5.4}
	for p, v := range randp {
		critEntry(t, filepath.Join(home, fmt.Sprintf("pass-%02d", p+1)), "u32", "randp_u32", v, 0, 0)
		if p < len(rival) {
			critEntry(t, filepath.Join(home, fmt.Sprintf("pass-%02d", p+1)), "u32", "rand_ThreadRng", rival[p], 0, 0)
		}
	}
	set := loadMergedCriterion(t, home)
	r := &report{res: resultsOf(set)}
	// Ratios 0.833, 0.909, 1.034, 0.889, 0.926: median 0.909, randp the
	// faster in 4 of 5; the medians alone (3.5 against 2.9) say 1.21.
	v, _, faster, of := r.ratio("rust:u32/randp_u32", "rust:u32/rand_ThreadRng")
	if math.Abs(v-2.0/2.2) > 1e-9 || faster != 4 || of != 5 {
		t.Errorf("ratio = %v, faster in %d of %d; want %v, 4 of 5", v, faster, of, 2.0/2.2)
	}
	got := r.targetBar(target{What: "u32", Measure: "ratio", A: "rust:u32/randp_u32", B: "rust:u32/rand_ThreadRng", Wins: true, Target: "≤ 0.9×"}, "")
	if want := "randp faster in 4 of 5 processes"; !strings.Contains(got.Measured, want) || got.Met != "**no**" {
		t.Errorf("targetBar = %+v, want %q and not met (0.909 > 0.9)", got, want)
	}
	one := newStore()
	for ref, v := range map[string]float64{"rust:u32/randp_u32": 1, "rust:u32/rand_ThreadRng": 2} {
		one.samples.add(ref, 0, v)
		one.crit[ref] = critResult{Time: stat{Center: v, Lo: v - 0.1, Hi: v + 0.1}}
	}
	r = &report{res: resultsOf(one)}
	if v, sep, _, of := r.ratio("rust:u32/randp_u32", "rust:u32/rand_ThreadRng"); v != 0.5 || !sep || of != 0 {
		t.Errorf("one pass: ratio = %v, %v, of %d; want the medians' 0.5, significant, unpaired", v, sep, of)
	}
}

// TestGoPairsByPass: each pass's output ends with the binary's PASS line,
// which numbers the passes, so a Go row is paired by process like the Rust
// word rows; a benchmark a pass did not run leaves that pass out, and output
// that does not say where a pass ends pairs nothing.
func TestGoPairsByPass(t *testing.T) {
	pass := func(rows ...string) string {
		out := "randp-implementation: cgo\ngoos: linux\ngoarch: amd64\npkg: github.com/randp/randp/go\n"
		for _, r := range rows {
			out += r + "\n"
		}
		return out + "PASS\n"
	}
	row := func(name string, ns float64) string { return fmt.Sprintf("Benchmark%s-2\t1000\t%g ns/op", name, ns) }
	dir := t.TempDir()
	path := filepath.Join(dir, "go.txt")
	writeFile(t, path, pass(row("RandpRead/4b", 1), row("AESCTRRead/4b", 1.2))+
		pass(row("RandpRead/4b", 2), row("AESCTRRead/4b", 2.2))+
		pass(row("RandpRead/4b", 9))+
		pass(row("RandpRead/4b", 3), row("AESCTRRead/4b", 2.9)))
	s, g, err := loadGoBench(path, "go")
	if err != nil {
		t.Fatal(err)
	}
	if g.config["randp-implementation"] != "cgo" || g.runs != 4 {
		t.Errorf("implementation = %q, %d runs; want the passes' cgo, 4", g.config["randp-implementation"], g.runs)
	}
	want := [][2]float64{{1, 1.2}, {2, 2.2}, {3, 2.9}}
	got := s.pairs("go:RandpRead/4b", "go:AESCTRRead/4b")
	same := len(got) == len(want)
	for i := 0; same && i < len(got); i++ {
		same = math.Abs(got[i][0]-want[i][0]) < 1e-9 && math.Abs(got[i][1]-want[i][1]) < 1e-9
	}
	if !same {
		t.Errorf("pairs = %v, want %v (pass 3 ran randp only)", got, want)
	}
	// Ratios 0.833, 0.909, 1.034: median 0.909, randp the faster in 2 of
	// 3; the medians alone (2.5 against 2.2) say 1.14.
	r := &report{res: resultsOf(s)}
	b := r.targetBar(target{What: "Read 4 B", Measure: "ratio", A: "go:RandpRead/4b", B: "go:AESCTRRead/4b", Wins: true, Target: "≤ 1.0×"}, "")
	if !strings.Contains(b.Measured, "randp faster in 2 of 3 processes") || b.Met != "yes" {
		t.Errorf("targetBar = %+v, want the paired 0.909, 2 of 3, met", b)
	}
	// Without PASS lines the samples cannot be placed in their passes.
	writeFile(t, path, "goos: linux\n"+row("RandpRead/4b", 1)+"\n"+row("AESCTRRead/4b", 1.2)+"\n"+
		row("RandpRead/4b", 2)+"\n"+row("AESCTRRead/4b", 2.2)+"\n")
	if s, _, err = loadGoBench(path, "go"); err != nil {
		t.Fatal(err)
	}
	if got := s.pairs("go:RandpRead/4b", "go:AESCTRRead/4b"); got != nil {
		t.Errorf("pairs without PASS lines = %v, want none", got)
	}
}

// TestFillByOffset: each pass's destination offset is read from its
// context, and the fills are set side by side by offset, with the
// processes counted per column; one offset only gives no table.
func TestFillByOffset(t *testing.T) {
	dir := t.TempDir()
	times := []struct{ randp, p36 float64 }{{50, 60}, {55, 52}, {51, 61}, {56, 50}}
	for i, tm := range times {
		ctx := map[string]any{"dst_offset": fmt.Sprint(i % 2 * 16)}
		writeFile(t, filepath.Join(dir, fmt.Sprintf("pass-%02d.json", i+1)), gbenchDoc(map[string]float64{"fill_512B/randp": tm.randp, "fill_512B/planet36": tm.p36}, ctx))
	}
	s, c := loadMerged(t, dir)
	if c.dstOffset[1] != 0 || c.dstOffset[2] != 16 || c.dstOffset[4] != 16 {
		t.Fatalf("offsets by pass = %v", c.dstOffset)
	}
	r := &report{res: resultsOf(s)}
	r.res.c = c
	out := r.exec("c_offsets", r.data())
	for _, want := range []string{
		"destination +0 B: randp / planet36/randp",
		"destination +16 B: randp / planet36/randp",
		"| 512 B | 50.5 ns / 60.5 ns (randp faster in 2 of 2) | 55.5 ns / 51.0 ns (randp faster in 0 of 2) |",
		"0 and 16 bytes",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
	for p := range c.dstOffset {
		c.dstOffset[p] = 32
	}
	if offsets, rows := r.fillByOffset(); offsets != nil || rows != nil {
		t.Errorf("one offset gave a table: %v %v", offsets, rows)
	}
}

func critEntry(t *testing.T, home, group, fn string, median, lo, hi float64) {
	t.Helper()
	d := filepath.Join(home, group, fn, "new")
	writeFile(t, filepath.Join(d, "benchmark.json"), fmt.Sprintf(`{"group_id":%q,"function_id":%q,"value_str":null,"throughput":null}`, group, fn))
	writeFile(t, filepath.Join(d, "estimates.json"), fmt.Sprintf(`{"median":{"point_estimate":%g,"confidence_interval":{"lower_bound":%g,"upper_bound":%g}}}`, median, lo, hi))
}

// loadMergedCriterion merges the criterion folders under home
// and loads the result.
func loadMergedCriterion(t *testing.T, home string) store {
	t.Helper()
	path := filepath.Join(t.TempDir(), "criterion.json")
	writeFile(t, path, mergeResults(t, "criterion", home))
	set, err := loadCriterion(path)
	if err != nil {
		t.Fatal(err)
	}
	return set
}

// TestCriterionPasses: one sample per pass (criterion's median of that
// pass), summarized like C and Go; a benchmark of one process only (the
// sweeps) keeps criterion's own interval.
func TestCriterionPasses(t *testing.T) {
	home := t.TempDir()
	for p, v := range []float64{3, 1, 2, 5, 4, 6} {
		critEntry(t, filepath.Join(home, fmt.Sprintf("pass-%02d", p+1)), "u64", "randp_u64", v, v-0.5, v+0.5)
	}
	critEntry(t, filepath.Join(home, "sweeps"), "num_blocks_u64", "256", 1.5, 1.4, 1.6)
	set := loadMergedCriterion(t, home)
	if s := set.stat("rust:u64/randp_u64"); s.N != 6 || s.Center != 3.5 || s.Lo != 1 || s.Hi != 6 {
		t.Errorf("per-pass summary = %+v, want median 3.5 [1, 6] of 6", s)
	}
	if s := set.stat("rust:num_blocks_u64/256"); s.Center != 1.5 || s.Lo != 1.4 || s.Hi != 1.6 {
		t.Errorf("one-process benchmark = %+v, want criterion's 1.5 [1.4, 1.6]", s)
	}
}

// TestMergeRefusesIncompleteOutputs: benches/merge-results.sh merges
// complete outputs (the controls) and fails, rather than writing a record
// that lacks or misreads a pass, on each way a pass can be cut short or
// misnamed: a criterion benchmark without its estimates or with an empty
// file, a non-finite number (Google Benchmark writes NaN for a counter it
// could not compute), no C passes, an empty C pass, a file that is not
// named as a pass.
func TestMergeRefusesIncompleteOutputs(t *testing.T) {
	est := filepath.Join("pass-02", "u64", "randp_u64", "new", "estimates.json")
	crit := func(t *testing.T) string {
		home := t.TempDir()
		critEntry(t, filepath.Join(home, "pass-01"), "u64", "randp_u64", 2, 1, 3)
		critEntry(t, filepath.Join(home, "pass-02"), "u64", "randp_u64", 2, 1, 3)
		return home
	}
	c := func(t *testing.T) string {
		dir := t.TempDir()
		for _, p := range []string{"pass-01.json", "pass-02.json"} {
			writeFile(t, filepath.Join(dir, p), gbenchDoc(map[string]float64{"u64/randp": 2}, nil))
		}
		return dir
	}
	if entries := mergeResults(t, "criterion", crit(t)); strings.Count(entries, `"pass": 2`) != 1 {
		t.Fatalf("the control, complete, did not merge into two passes:\n%s", entries)
	}
	if passes := mergeResults(t, "c", c(t)); strings.Count(passes, `"pass": 2`) != 1 {
		t.Fatalf("the C control, complete, did not merge into two passes:\n%s", passes)
	}
	for name, broken := range map[string]func(t *testing.T) (kind, dir string){
		"criterion without estimates": func(t *testing.T) (string, string) {
			home := crit(t)
			if err := os.Remove(filepath.Join(home, est)); err != nil {
				t.Fatal(err)
			}
			return "criterion", home
		},
		"criterion, an empty file": func(t *testing.T) (string, string) {
			home := crit(t)
			writeFile(t, filepath.Join(home, est), "")
			return "criterion", home
		},
		"criterion, Infinity": func(t *testing.T) (string, string) {
			home := crit(t)
			writeFile(t, filepath.Join(home, est), `{"median":{"point_estimate":Infinity}}`)
			return "criterion", home
		},
		"no C passes": func(t *testing.T) (string, string) { return "c", t.TempDir() },
		"an empty C pass": func(t *testing.T) (string, string) {
			dir := c(t)
			writeFile(t, filepath.Join(dir, "pass-03.json"), "")
			return "c", dir
		},
		"C, NaN": func(t *testing.T) (string, string) {
			dir := c(t)
			writeFile(t, filepath.Join(dir, "pass-03.json"), `{"context":{},"benchmarks":[{"real_time":NaN}]}`)
			return "c", dir
		},
		"C, not a pass": func(t *testing.T) (string, string) {
			dir := c(t)
			writeFile(t, filepath.Join(dir, "pass-3x.json"), `{}`)
			return "c", dir
		},
	} {
		kind, dir := broken(t)
		if out, err := exec.Command("../../benches/merge-results.sh", kind, dir).Output(); err == nil {
			t.Errorf("%s: merge-results.sh %s succeeded:\n%s", name, kind, out)
		}
	}
}

func TestMicroarchitecture(t *testing.T) {
	for _, c := range []struct {
		vendor        string
		family, model int
		want          string
	}{
		{"AuthenticAMD", 26, 2, "Zen 5"}, {"AuthenticAMD", 25, 0x11, "Zen 4"}, {"AuthenticAMD", 25, 0xa0, "Zen 4"},
		{"AuthenticAMD", 25, 1, "Zen 3"}, {"GenuineIntel", 6, 0x8f, "Sapphire Rapids"}, {"GenuineIntel", 6, 1, ""},
		{"AuthenticAMD", 0x17, 0x31, "Zen 2"}, {"AuthenticAMD", 0x17, 0x18, "Zen / Zen+"}, {"AuthenticAMD", 0x17, 0x20, ""},
		{"GenuineIntel", 6, 0xba, "Alder Lake"}, {"GenuineIntel", 6, 0xa7, ""}, {"AuthenticAMD", 6, 0x8f, ""},
	} {
		got := microarchitecture(c.vendor, c.family, c.model)
		if (c.want == "" && got != "") || !strings.HasPrefix(got, c.want) {
			t.Errorf("microarchitecture(%s, %d, %#x) = %q, want %q…", c.vendor, c.family, c.model, got, c.want)
		}
	}
}

// TestPuregoNeverShowsCgo: pure-Go numbers only from a binary that says it
// ran the pure-Go path.
func TestPuregoNeverShowsCgo(t *testing.T) {
	res, err := loadResults(fullResults(t, 10, "not measured: no tag"), false)
	if err != nil || res.puregoWhy != "no tag" {
		t.Errorf("not built: %q, %v", res.puregoWhy, err)
	}
	if why := puregoWhy(goRun{config: map[string]string{"randp-implementation": "cgo"}}); !strings.Contains(why, `"cgo"`) {
		t.Errorf("cgo under the tag: %q", why)
	}
	if why := puregoWhy(goRun{config: map[string]string{"randp-implementation": "purego"}}); why != "" {
		t.Errorf("purego: %q", why)
	}
}

func TestSyscallSummary(t *testing.T) {
	ok := "=== RUN   TestX\ngetrandomRead: 1000 of 1000 Reads entered the getrandom system call\ncontrol: x\n--- PASS: TestX\n"
	if s := syscallSummary(ok); !strings.HasPrefix(s, "verified") || !strings.Contains(s, "1000 of 1000") {
		t.Errorf("pass: %q", s)
	}
	if s := syscallSummary("--- FAIL: TestX\n"); !strings.Contains(s, "not verified") {
		t.Errorf("fail: %q", s)
	}
}

// fullResults writes a results folder of `passes` passes in which randp
// loses to planet36/randp at 512 B and to ThreadRng at u32, with glibc 2.36.
func fullResults(t *testing.T, passes int, purego string) string {
	dir := t.TempDir()
	w := func(name, s string) { writeFile(t, filepath.Join(dir, name), s) }
	w("run.txt", "commit: abc\ndirty: no\ncpu: AMD EPYC\ncpu_id: AuthenticAMD family 26 model 2 stepping 1, microcode 0x1\n"+
		"uarch: Zen 5 (family 1Ah): VAES\nnproc: 2\ncpu_flags: aes vaes avx512f hypervisor\nbackend_flags: aes ssse3 avx2 avx512f avx512bw vaes\nbackend: vaes512\ngo: go1.26\nglibc: glibc 2.36\n"+
		"date: 2026-12-01 10:00 UTC\npasses: 10\n")
	w("loadavg.txt", "100 0.50 0.1 0.1\n160 1.50 0.1 0.1\n")
	w("peers.txt", "planet36-randp available x, a snapshot of https://github.com/planet36/randp@1ce4\ndcrd-crypto-rand available x\nunpredictable available x\n")
	w("syscall-check.txt", "getrandomRead: 1000 of 1000 Reads entered the getrandom system call\n--- PASS: T\n")
	w("go-purego-status.txt", purego)
	var ceil strings.Builder
	ceil.WriteString("# openssl: OpenSSL 3\n")
	for p := 1; p <= passes; p++ {
		fmt.Fprintf(&ceil, "# pass %02d\n+F:25:AES-256-CTR:%d.00\n# aes-ceiling\n", p, 8000000000+p)
		fmt.Fprintf(&ceil, "14-round CTR zmm VAES512 x8      33.80      [33.80..33.80] |     %5.2f      [0..0]\n", 32+float64(p)/100)
		fmt.Fprintf(&ceil, "14-round CTR xmm AES-NI x8        7.30        [7.30..7.30] |      7.30        [0..0]\n")
		fmt.Fprintf(&ceil, "3-aesenc CTR xmm AES-NI x8       21.90      [21.90..21.90] |     21.90      [0..0]\n")
	}
	w("ceiling.txt", ceil.String())
	// C: randp 10% faster than planet36 except at 512 B, where 30% slower,
	// and at 4 KiB (written in place), where 20% slower.
	for p := 1; p <= passes; p++ {
		ops := map[string]float64{"u32/randp": 2, "u32/planet36": 10, "u32/arc4random_glibc": 380, "u32/getrandom_vdso": 15,
			"u64/randp": 2.5, "u64/randp_dlopen": 3.4, "copyzero_u64/copyzero": 2, "copyzero_u64/copyzero_dlopen": 2.6,
			"empty_u64/empty": 1.5, "empty_u64/empty_dlopen": 2.4, "u64/planet36": 10, "lt_u32/randp": 3, "lt_u32/planet36": 10,
			"lt_u32/arc4random_glibc": 400, "rdrand64/rdrand64": 300, "u32/rdrand32": 150}
		for _, n := range cFillSizes() {
			name := "fill_" + sizeName(n) + "/"
			ops[name+"randp"] = n / 10
			ops[name+"planet36"] = n / 10 * 1.1
			ops[name+"getrandom_vdso"] = n / 0.6
			ops[name+"getrandom_syscall"] = 400 + n/0.3
			ops[name+"arc4random_glibc"] = 380 + n/0.3
			ops[name+"getentropy"] = 380 + n/0.3
		}
		ops["fill_512B/planet36"] = 512 / 10 / 1.3
		ops["fill_4KiB/planet36"] = 4096 / 10 / 1.2
		for k := range ops {
			ops[k] *= 1 + float64(p)/1000
		}
		w(fmt.Sprintf("c/pass-%02d.json", p), gbenchDoc(ops, map[string]any{"library_build_type": "debug"}))
	}
	w("c.json", mergeResults(t, "c", filepath.Join(dir, "c")))
	// Rust: randp's u32 slower than ThreadRng's.
	home := filepath.Join(dir, "crit")
	for p := 1; p <= passes; p++ {
		ph := filepath.Join(home, fmt.Sprintf("pass-%02d", p))
		d := float64(p) / 1000
		critEntry(t, ph, "u32", "randp_u32", 1.7+d, 0, 0)
		critEntry(t, ph, "u32", "rand_ThreadRng", 1.5+d, 0, 0)
		critEntry(t, ph, "u32", "copyzero_u32", 1.4+d, 0, 0)
		critEntry(t, ph, "lt_u32", "randp_lt_u32", 2.2+d, 0, 0)
		critEntry(t, ph, "lt_u32", "rand_random_range", 2+d, 0, 0)
		critEntry(t, ph, "u64", "randp_u64", 2+d, 0, 0)
		critEntry(t, ph, "u64", "rand_ThreadRng", 2.8+d, 0, 0)
		critEntry(t, ph, "fill_256B", "randp_keystream", 30+d, 0, 0)
		for _, n := range []int{16, 256, 512} {
			critEntry(t, ph, "copy_zero", fmt.Sprint(n), float64(n)/100+d, 0, 0)
		}
		// Three backends (no vaes256): on aesni, fills take three times as long.
		for b, k := range map[string]float64{"vaes512": 1, "aesni": 3, "portable": 4} {
			critEntry(t, ph, "backend_fill_256B", b, 25*k+d, 0, 0)
			critEntry(t, ph, "backend_fill_4KiB", b, 350*k+d, 0, 0)
			critEntry(t, ph, "backend_fill_1MiB", b, 90000*k+d, 0, 0)
			critEntry(t, ph, "backend_u64", b, 2*k+d, 0, 0)
		}
	}
	w("criterion.json", mergeResults(t, "criterion", home))
	goOut := func(impl string, names []string, ns func(name string) float64) string {
		out := "goos: linux\ngoarch: amd64\n"
		for p := 0; p < passes; p++ {
			if impl != "" {
				out += "randp-implementation: " + impl + "\n"
			}
			for _, n := range names {
				out += fmt.Sprintf("Benchmark%s-2\t1000\t%.3f ns/op\t16 B/op\t2 allocs/op\n", n, ns(n)+float64(p)/100)
			}
		}
		return out
	}
	var randpNames, peerNames []string
	for _, s := range contestants.Go.DcrdSizes {
		for _, p := range []string{"StdlibRead", "RandpRead", "RandpReadUnbuffered", "ChaCha8Read", "AESCTRRead"} {
			randpNames = append(randpNames, p+"/"+s)
		}
		peerNames = append(peerNames, "GetrandomRead/"+s, "UnpredictableRead/"+s)
	}
	for n := 16.0; n <= 1<<20; n *= 2 {
		for _, im := range []string{"Randp", "CryptoRand", "AESCTR", "ChaCha8"} {
			randpNames = append(randpNames, "ReadSweep/"+im+"/"+sizeName(n))
		}
	}
	randpNames = append(randpNames, "MathRand", "RandpBufRand", "CryptoRand", "Uint32N", "V2Uint64/src=RandpSource", "V2Uint64/src=ChaCha8", "V2Uint64/src=PCG",
		"ReadGuard/op=none", "ReadGuard/op=pin", "ReadGuard/op=swap")
	goNs := func(n string) float64 {
		switch {
		case strings.HasPrefix(n, "RandpRead/"):
			return 10
		case strings.HasPrefix(n, "AESCTRRead/"):
			return 7
		case strings.HasPrefix(n, "ReadSweep/"):
			return parseSize(n[strings.LastIndexByte(n, '/')+1:]) / 10
		case n == "V2Uint64/src=PCG":
			return 90
		case n == "ReadGuard/op=none":
			return 1.5
		case n == "ReadGuard/op=pin":
			return 5
		case n == "ReadGuard/op=swap":
			return 7.5
		}
		return 100
	}
	w("go-randp.txt", goOut("cgo", randpNames, goNs))
	if purego == "built" {
		w("go-randp-purego.txt", goOut("purego", randpNames, goNs))
	}
	w("go-peers.txt", goOut("", append(peerNames, "Unpredictable"), func(string) float64 { return 50 }))
	w("go-dcrd.txt", goOut("", []string{"DcrdRead/4b", "DcrdRead/32b", "Uint32N"}, func(string) float64 { return 40 }))
	w("go-opcount.txt", "operation          instructions/call\nbuffered-v2        45\npcg-v2             42\nchacha8-v2         59\n\n"+
		"function                                      frame\n"+
		"math/rand/v2.(*ChaCha8).Uint64                size=84 args=0x8 locals=0x10\n"+
		"math/rand/v2.(*PCG).Uint64                    nosplit size=132 args=0x8 locals=0x0\n"+
		"github.com/randp/randp/go.(*Buffered).Uint64  nosplit size=98 args=0x8 locals=0x10\n")
	return dir
}

// render loads a results folder and renders its report.
func render(t *testing.T, dir string) string {
	t.Helper()
	res, err := loadResults(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	return (&report{res: res, chartDir: "charts", resultsDir: "results", charts: map[string]string{}}).markdown()
}

// TestMissesExplained: a missed fill target gets its floor (the keystream
// at the ceiling, randp's copy and zeroing below 2 KiB, its call) and only
// the missed sizes do; a missed rand/v2 target gets the instruction counts and the
// frames; a run without go-opcount.txt explains only the fills.
func TestMissesExplained(t *testing.T) {
	dir := fullResults(t, 10, "not measured: this tree's Go module has no pure-Go path")
	md := render(t, dir)
	i := strings.Index(md, "## "+h("Why"))
	if i < 0 {
		t.Fatalf("no %q section", h("Why"))
	}
	why := md[i:]
	why = why[:strings.Index(why[3:], "\n## ")+3]
	fill := why[strings.Index(why, "### "+h("WhyFill")):strings.Index(why, "### "+h("WhyV2"))]
	// 512 B: the ceiling's 32.055 GB/s makes 16.0 ns of keystream,
	// copy_zero 5.12 ns; the call is randp_u64's 2.50 ns less its 8 bytes'
	// 0.25 ns of keystream and copy_zero's 0.16 ns at 16 B.
	if !strings.Contains(fill, "| 512 B | 39.4 ns | 51.5 ns | 16.0 ns | 5.12 ns | 2.09 ns | 23.2 ns | 1.70× |") {
		t.Errorf("the 512 B floor row is wrong or missing:\n%s", fill)
	}
	// 4 KiB is written in place: the keystream and the call, no copy.
	if !strings.Contains(fill, "| 4 KiB | 343 ns | 412 ns | 128 ns | none (written in place) | 2.09 ns | 130 ns | 2.64× |") {
		t.Errorf("the 4 KiB floor row is wrong or missing:\n%s", fill)
	}
	if strings.Contains(fill, "| 256 B |") {
		t.Errorf("a size randp wins is explained as a miss:\n%s", fill)
	}
	for _, want := range []string{"randp's `Buffered` 45, PCG 42, ChaCha8 59",
		"| `math/rand/v2.(*PCG).Uint64` | `nosplit size=132 args=0x8 locals=0x0` | yes: no frame, no stack-bound check |",
		"| `math/rand/v2.(*ChaCha8).Uint64` | `size=84 args=0x8 locals=0x10` | no: a frame and a stack-bound check |",
		"| `github.com/randp/randp/go.(*Buffered).Uint64` | `nosplit size=98 args=0x8 locals=0x10` | no: a frame, no stack-bound check |",
		"randp's is marked nosplit, which drops the check"} {
		if !strings.Contains(why, want) {
			t.Errorf("the rand/v2 profile lacks %q:\n%s", want, why)
		}
	}
	for _, want := range []string{"512 B calls, throughput | 0.77×; randp faster in 0 of 10 processes | ≥ 1.0× (VAES) | **no** ([profile](" + anchor(h("WhyFill")) + ")) |",
		"/ PCG, time | 1.11× | ≤ 1.0× | **no** ([profile](" + anchor(h("WhyV2")) + ")) |"} {
		if !strings.Contains(md, want) {
			t.Errorf("the targets table lacks %q", want)
		}
	}
	// Go Read: randp 10 ns, the reader 7 ns, the pin pair 3.5 ns beyond an
	// empty call: less the pin, randp's Read is under the reader.
	read := why[strings.Index(why, "### "+h("WhyRead")):strings.Index(why, "### "+h("WhyWord"))]
	for _, want := range []string{"| randp `Read`, 4 B | 10.0 ns", "| pure-Go AES-CTR reader, 8 B | 7.04 ns",
		"| `procPin` and `procUnpin`, as `Read` makes them (`ReadGuard/op=pin`) | 5.04 ns",
		"The pin pair costs 3.50 ns per call beyond an empty call; owning a shared buffer with an atomic swap instead costs 6.00 ns.",
		"6.54 ns at 4 B (the reader 7.04 ns)", "what the row misses by is the pin pair"} {
		if !strings.Contains(read, want) {
			t.Errorf("the Go Read profile lacks %q:\n%s", want, read)
		}
	}
	if want := "4 B, randp (goroutine-safe) / a pure-Go AES-CTR reader, time | 1.43× | ≤ 1.0× | **no** ([profile](" + anchor(h("WhyRead")) + ")) |"; !strings.Contains(md, want) {
		t.Errorf("the targets table lacks %q:\n%s", want, md[strings.Index(md, "Go `Read` 4 B"):][:300])
	}
	word := why[strings.Index(why, "### "+h("WhyWord")):]
	// The floor is the handout reached as the row is, through dlopen: 2.60
	// at its interval's fast end and 0.25 of keystream.
	for _, want := range []string{"took 3.42 ns (median of 10 processes), 0.42 ns over the target of 3.00 ns.",
		"| a thread-local word loaded and zeroed, no generator (`copyzero_u64`), in a dlopen'ed object | 2.61 ns [2.61, 2.62] |",
		"| the same, linked statically | 2.01 ns [2.00, 2.02] |",
		"| a function that does nothing, in a dlopen'ed object | 2.41 ns [2.40, 2.42] |",
		"| floor: the dlopen'ed handout at the fast end of its interval and the keystream | 2.85 ns |",
		"A call that does nothing takes 0.90 ns more in a dlopen'ed object than linked statically",
		"the dlopen'ed handout pays it too (0.60 ns more than its static copy)",
		"together 0.56 ns above the floor", "The floor takes 2.85 ns of the target's 3.00 ns", "The row's whole interval lies above the target"} {
		if !strings.Contains(word, want) {
			t.Errorf("the randp_u64 profile lacks %q:\n%s", want, word)
		}
	}
	if want := "| 3.42 ns [3.41, 3.43] | ≤ 3 ns | **no** ([profile](" + anchor(h("WhyWord")) + ")) |"; !strings.Contains(md, want) {
		t.Errorf("the targets table lacks %q", want)
	}
	if want := "hands out a word from a per-thread buffer and erases it, keystream aside: 2.01 ns [2.00, 2.02] linked statically, " +
		"2.61 ns [2.61, 2.62] in a dlopen'ed object; a function that does nothing: 1.51 ns [1.50, 1.51] linked statically, 2.41 ns [2.40, 2.42] in a dlopen'ed object."; !strings.Contains(md, want) {
		t.Errorf("the u64 table lacks the copyzero_u64 reference %q", want)
	}
	rust := why[strings.Index(why, "### "+h("WhyRust")):]
	for _, want := range []string{"| no generator: a thread-local word loaded and zeroed (`copyzero_u32`) | 1.41 ns [1.40, 1.41] | 0.93× |",
		"that floor alone takes 0.93× `ThreadRng`'s time, above the target of 0.90×", "randp's `u32` adds 0.30 ns to it",
		"randp's `lt_u32` takes 0.50 ns more than its `u32`, `ThreadRng`'s `random_range` 0.50 ns more than its `next_u32`."} {
		if !strings.Contains(rust, want) {
			t.Errorf("the Rust u32 profile lacks %q:\n%s", want, rust)
		}
	}
	// The word rows are paired by process: randp and ThreadRng run in every
	// pass's process, and the row counts the processes randp won.
	for _, want := range []string{"| 1.13×; randp faster in 0 of 10 processes | ≤ 0.9× | **no** ([profile](" + anchor(h("WhyRust")) + ")) |",
		"| 1.10×; randp faster in 0 of 10 processes | ≤ 1.0× | **no** ([profile](" + anchor(h("WhyRust")) + ")) |"} {
		if !strings.Contains(md, want) {
			t.Errorf("the targets table lacks %q", want)
		}
	}
	// A dlopen'ed handout that leaves no room under the target says so.
	editCRows(t, dir, "copyzero_u64/copyzero_dlopen", func(row map[string]any) bool {
		row["real_time"] = row["real_time"].(float64) + 0.3
		row["items_per_second"] = 1e9 / row["real_time"].(float64)
		return true
	})
	word = whyWord(t, render(t, dir))
	if want := "The floor alone, 3.15 ns, is at or above the target of 3.00 ns on this CPU: no call of this kind through a dlopen'ed object meets it here."; !strings.Contains(word, want) {
		t.Errorf("the randp_u64 profile lacks %q:\n%s", want, word)
	}
	// A run without the dlopen'ed references (older results) takes the
	// executable's handout for the floor and says nothing of the call.
	dropCRows(t, dir, "copyzero_u64/copyzero_dlopen")
	dropCRows(t, dir, "empty_u64/")
	word = whyWord(t, render(t, dir))
	for _, want := range []string{"| a thread-local word loaded and zeroed, no generator (`copyzero_u64`) | 2.01 ns [2.00, 2.02] |",
		"| floor: the handout at the fast end of its interval and the keystream | 2.25 ns |", "together 1.17 ns above the floor"} {
		if !strings.Contains(word, want) {
			t.Errorf("without the dlopen'ed references the randp_u64 profile lacks %q:\n%s", want, word)
		}
	}
	if strings.Contains(word, "does nothing") {
		t.Errorf("without the empty calls the profile speaks of them:\n%s", word)
	}
	// Without the handout row the miss stays, unexplained.
	dropCRows(t, dir, "copyzero_u64/")
	md = render(t, dir)
	if strings.Contains(md, "### "+h("WhyWord")) || strings.Contains(md, "copyzero_u64") || !strings.Contains(md, "| 3.42 ns [3.41, 3.43] | ≤ 3 ns | **no** |") {
		t.Error("without copyzero_u64 the randp_u64 miss should stay in the targets, unexplained")
	}
	os.Remove(filepath.Join(dir, "go-opcount.txt"))
	md = render(t, dir)
	if !strings.Contains(md, "### "+h("WhyFill")) || strings.Contains(md, "### "+h("WhyV2")) || strings.Contains(md, "([profile]("+anchor(h("WhyV2"))) {
		t.Error("without go-opcount.txt the report should explain the fills only")
	}
}

// dropCRows removes from a results folder's C passes the benchmarks whose
// run name starts with prefix, and merges the passes into c.json again.
// whyWord is the randp_u64 profile of a rendered report.
func whyWord(t *testing.T, md string) string {
	t.Helper()
	i := strings.Index(md, "### "+h("WhyWord"))
	if i < 0 {
		t.Fatalf("no %q section", h("WhyWord"))
	}
	word := md[i:]
	return word[:strings.Index(word[4:], "\n### ")+4]
}

// dropCRows removes the C rows whose names start with prefix from every
// pass, and merges the passes again.
func dropCRows(t *testing.T, dir, prefix string) {
	t.Helper()
	editCRows(t, dir, prefix, func(map[string]any) bool { return false })
}

// editCRows runs edit on every pass's C rows whose names start with prefix,
// keeps those it returns true for, and merges the passes again.
func editCRows(t *testing.T, dir, prefix string, edit func(row map[string]any) bool) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "c", "pass-*.json"))
	matched := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var doc map[string]json.RawMessage
		var rows []map[string]any
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(doc["benchmarks"], &rows); err != nil {
			t.Fatal(err)
		}
		kept := rows[:0]
		for _, row := range rows {
			name, _ := row["run_name"].(string)
			if !strings.HasPrefix(name, prefix) {
				kept = append(kept, row)
				continue
			}
			matched++
			if edit(row) {
				kept = append(kept, row)
			}
		}
		if doc["benchmarks"], err = json.Marshal(kept); err != nil {
			t.Fatal(err)
		}
		if b, err = json.Marshal(doc); err != nil {
			t.Fatal(err)
		}
		writeFile(t, f, string(b))
	}
	if matched == 0 {
		t.Fatalf("no C benchmark in %s is named %s...", dir, prefix)
	}
	writeFile(t, filepath.Join(dir, "c.json"), mergeResults(t, "c", filepath.Join(dir, "c")))
}

// TestReportFromResults renders a complete results folder and checks what
// a skeptical reader looks for: the CPU named exactly, losses on the first
// screen, the seed references on the seed's own contestant, libc versions,
// one evidence standard, charts stamped with machine, commit and date.
func TestReportFromResults(t *testing.T) {
	dir := fullResults(t, 10, "not measured: this tree's Go module has no pure-Go path")
	res, err := loadResults(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	r := &report{res: res, chartDir: "charts", resultsDir: "results", charts: map[string]string{}}
	md := r.markdown()
	first := md[:strings.Index(md, "## "+h("Bars"))]
	for _, want := range []string{
		"AMD EPYC, Zen 5 (family 1Ah) (AuthenticAMD family 26 model 2 stepping 1)",
		"## " + h("Losses"),
		"C fill 512 B per call: planet36/randp",
		"Rust u32: rand `ThreadRng`",
		"**1.31× slower**",
		"glibc 2.36 `arc4random_buf` (a getrandom system call per call; glibc ≥ 2.41 uses the vDSO)",
		"glibc ≥ 2.41 `arc4random_buf` / `getentropy` (the getrandom vDSO: its row here)",
		"## " + h("Cost"),
		"A pure-Go path: this tree's Go module has no pure-Go path.",
		"Every number is the median of 10 samples, each from its own process",
		"- **slower**: 512 B (0 of 10), 4 KiB (0 of 10)\n- faster: 16 B (10 of 10), 32 B (10 of 10)",
	} {
		if !strings.Contains(first, want) {
			t.Errorf("first screen lacks %q", want)
		}
	}
	// Seed 002's published planet36/randp numbers sit on planet36's rows.
	for _, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(line, "| **randp** (`randp_*`) |") && (strings.Contains(line, "199 ms") || strings.Contains(line, "6.33 ns")) {
			t.Errorf("a seed reference on randp's row: %s", line)
		}
	}
	fill256 := md[strings.Index(md, "### Fill 4 GiB in 256 B calls"):]
	fill256 = fill256[:strings.Index(fill256, "### Fill 4 GiB in 1 MiB calls")]
	if !strings.Contains(fill256, "| planet36/randp (3 AES rounds) | 475 ms | 9.04 GB/s [9.01, 9.07] | 1.10× faster | 199 ms | 202 ms | 189 ms | 217 ms |") {
		t.Errorf("planet36's 256 B fill row lacks its four references:\n%s", fill256)
	}
	for _, want := range []string{
		"| planet36/randp (3 AES rounds) | 10.1 ns", "| 6.33 ns | 6.65 ns | 6.22 ns | 6.69 ns |", // u32, four runs
		"6.70 ns",                // 2024's 149.148 M/s as ns
		"| 0 of 10 | ",           // the 512 B row's processes
		"+25.10% (p=0.000 n=10)", // seed 000's vs base
		"208.2n → 160.1n",        // and its geomean
		"16 B, 2 allocs",         // seed 003's B/op and allocs/op
		"## " + h("Rdrand"),
		"Not measured in this run: this tree's Go module has no pure-Go path",
		"the benchmark's own thread accounts for about 1.0",
		"14-round CTR zmm VAES512 x8",
		"| glibc 2.36 `arc4random_uniform` (a getrandom system call per call; glibc ≥ 2.41 uses the vDSO) |",
		"| glibc 2.36 arc4random_buf | libbsd arc4random_buf |",
		"verified in this run by benches/go's seccomp test",
		"the default build's binary reports randp.Implementation() = \"cgo\"",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	if strings.Contains(md, "criterion's bootstrap") {
		t.Error("the report still describes a second interval method")
	}
	for _, name := range []string{"c-fill-by-size.svg", "go-read-dcrd-sizes.svg", "go-read-by-size.svg", "go-sources.svg", "c-u32.svg", "rdrand.svg"} {
		svg, ok := r.charts[name]
		if !ok {
			t.Errorf("chart %s missing (errors: %v)", name, r.chartErrs)
			continue
		}
		for _, want := range []string{"<svg", "AMD EPYC", "family 26 model 2", "randp abc", "2026-12-01 10:00 UTC", "95% interval"} {
			if !strings.Contains(svg, want) {
				t.Errorf("chart %s lacks %q", name, want)
			}
		}
		if !strings.Contains(md, "(charts/"+name+")") {
			t.Errorf("report does not show %s", name)
		}
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

// TestReportPurego: a pure-Go binary that ran the pure-Go path has its
// section and its targets; the same numbers are refused when it says cgo.
func TestReportPurego(t *testing.T) {
	dir := fullResults(t, 10, "built")
	res, err := loadResults(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	md := (&report{res: res, chartDir: "charts", resultsDir: "results", charts: map[string]string{}}).markdown()
	if !strings.Contains(md, "built with `-tags randp_purego` (the binary reports `randp.Implementation() = \"purego\"`)") ||
		!strings.Contains(md, "| pure-Go `Read` 32 B / crypto/rand.Read, time | 0.10× | ≤ 0.5× | yes |") {
		t.Error("pure-Go section or target missing")
	}
	b, err := os.ReadFile(filepath.Join(dir, "go-randp-purego.txt"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "go-randp-purego.txt"), strings.ReplaceAll(string(b), "randp-implementation: purego", "randp-implementation: cgo"))
	if res, err = loadResults(dir, false); err != nil {
		t.Fatal(err)
	}
	md = (&report{res: res, chartDir: "charts", resultsDir: "results", charts: map[string]string{}}).markdown()
	if strings.Contains(md, "| pure-Go `Read` 32 B / crypto/rand.Read, time | 0.10×") || !strings.Contains(md, `ran randp.Implementation() = "cgo"`) {
		t.Error("cgo numbers shown as pure-Go")
	}
}

// TestGoReadWhy: a Go Read miss that the pin pair does not account for says
// so, and a run that meets the Go Read targets has no such section.
func TestGoReadWhy(t *testing.T) {
	dir := fullResults(t, 10, "not measured: this tree's Go module has no pure-Go path")
	path := filepath.Join(dir, "go-randp.txt")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	orig := string(b)
	// The pin pair 1 ns beyond the empty call, not 3.5.
	cheap := setGoNs(orig, "ReadGuard/op=pin", 5, 2.5)
	if cheap == orig {
		t.Fatal("the fixture has no ReadGuard/op=pin rows to change")
	}
	writeFile(t, path, cheap)
	md := render(t, dir)
	i := strings.Index(md, "### "+h("WhyRead"))
	if i < 0 {
		t.Fatalf("no %q section", h("WhyRead"))
	}
	read := md[i:]
	read = read[:strings.Index(read[4:], "\n### ")+4]
	for _, want := range []string{"The pin pair costs 1.00 ns per call beyond an empty call",
		"9.04 ns at 4 B (the reader 7.04 ns)", "above the reader even without the pin pair"} {
		if !strings.Contains(read, want) {
			t.Errorf("the Go Read profile lacks %q:\n%s", want, read)
		}
	}
	// randp's Read at 6 ns, under the reader's 7: met, nothing to explain.
	met := orig
	for _, sz := range []string{"4b", "8b", "32b"} {
		met = setGoNs(met, "RandpRead/"+sz, 10, 6)
	}
	writeFile(t, path, met)
	md = render(t, dir)
	if strings.Contains(md, "### "+h("WhyRead")) {
		t.Errorf("a run that meets the Go Read targets has a %q section", h("WhyRead"))
	}
	if want := "4 B, randp (goroutine-safe) / a pure-Go AES-CTR reader, time | 0.86× | ≤ 1.0× | yes |"; !strings.Contains(md, want) {
		t.Errorf("the targets table lacks %q:\n%s", want, md[strings.Index(md, "Go `Read` 4 B"):][:200])
	}
}

// setGoNs moves benchmark name of a fullResults Go output from base to
// base2 ns per op in each of its 10 passes (which add p/100 to the base).
func setGoNs(out, name string, base, base2 float64) string {
	for p := 0; p < 10; p++ {
		row := "Benchmark" + name + "-2\t1000\t"
		out = strings.ReplaceAll(out, fmt.Sprintf("%s%.3f ", row, base+float64(p)/100), fmt.Sprintf("%s%.3f ", row, base2+float64(p)/100))
	}
	return out
}

// TestBackendsTable: a row per backend, this CPU's marked, one without
// results said so (and why: the CPU cannot run it, by the flags the run
// recorded, or the run did not measure it), each fill compared with
// planet36/randp's C fill of the same size.
func TestBackendsTable(t *testing.T) {
	dir := fullResults(t, 10, "not measured: no tag")
	run, err := os.ReadFile(filepath.Join(dir, "run.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if md := render(t, dir); !strings.Contains(md, "| `vaes256` | not measured in this run |") {
		t.Errorf("a backend the CPU runs, without results, is not said to be unmeasured")
	}
	writeFile(t, filepath.Join(dir, "run.txt"), strings.Replace(string(run), "avx2 avx512f", "avx512f", 1))
	md := render(t, dir)
	i := strings.Index(md, "## "+h("Backends"))
	if i < 0 {
		t.Fatalf("no section %q", h("Backends"))
	}
	sec := md[i:]
	sec = sec[:strings.Index(sec[3:], "\n## ")+3]
	for _, want := range []string{
		"| `vaes512` (this CPU's) | 25.0 ns [",
		"| `vaes256` | not run: this CPU cannot |",
		"| `aesni` | 75.0 ns [",
		// planet36/randp at 256 B: 28.3 ns; aesni 75 ns.
		"| 2.65× slower |",
		"at 7.30 GB/s, and the same loop with planet36/randp's 3 rounds at 21.90 GB/s, 3.0× as fast. randp's `aesni` fills of 1 MiB reach 53% of that 14-round loop.",
	} {
		if !strings.Contains(sec, want) {
			t.Errorf("backends section lacks %q:\n%s", want, sec)
		}
	}
	// The AES-NI-only rows, on a VAES CPU: from the aesni backend.
	bars := md[strings.Index(md, "## "+h("Bars")):strings.Index(md, "## "+h("Why"))]
	if want := "| Rust `fill_bytes` on the `aesni` backend / planet36/randp `randp_bytes`, 256 B calls, throughput | 0.38× | ≥ 0.8× (AES-NI only) | **no** (this CPU's AES units"; !strings.Contains(bars, want) {
		t.Errorf("speed targets lack %q:\n%s", want, bars)
	}
	if strings.Contains(md[:strings.Index(md, "## "+h("Bars"))], "aesni") {
		t.Errorf("a backend this CPU does not use made the first screen's losses")
	}
}

// turnsDoc is gbenchDoc with fill_turns_ rows: randp and planet36/randp
// taking turns, their ns per call in each row's counters.
func turnsDoc(ops map[string]float64, turns map[string][2]float64) string {
	var doc map[string]any
	if err := json.Unmarshal([]byte(gbenchDoc(ops, nil)), &doc); err != nil {
		panic(err)
	}
	for table, ns := range turns {
		doc["benchmarks"] = append(doc["benchmarks"].([]any), map[string]any{
			"run_name": table + "/randp_planet36/real_time", "run_type": "iteration", "threads": 1,
			"real_time": 1e7, "time_unit": "ns", "randp_ns": ns[0], "rival_ns": ns[1],
		})
	}
	out, _ := json.Marshal(doc)
	return string(out)
}

// TestFillTurns: a fill_turns_ row gives a sample of randp and one of its
// rival per pass, and where a size has one, the verdicts against
// planet36/randp come from it rather than from the rows measured one after
// the other (which here say the opposite); sizes without one keep those.
func TestFillTurns(t *testing.T) {
	dir := t.TempDir()
	times := []struct{ randp, p36 float64 }{{150, 120}, {155, 118}, {140, 145}, {151, 119}, {153, 121}, {150, 117}, {152, 120}, {149, 122}, {154, 119}, {151, 118}}
	for i, tm := range times {
		ops := map[string]float64{"fill_2KiB/randp": 170 + float64(i), "fill_2KiB/planet36": 180 - float64(i), "fill_1KiB/randp": 90 + float64(i), "fill_1KiB/planet36": 60 - float64(i)}
		// At 128 B both sides change by a factor of ten from process to
		// process (the moments each met), but in every process planet36/randp
		// takes 1.1 times randp's time: the medians' intervals overlap, the
		// processes' ratios do not straddle 1.
		k := float64(i + 1)
		turns := map[string][2]float64{"fill_turns_2KiB": {tm.randp, tm.p36}, "fill_turns_128B": {10 * k, 11 * k}}
		writeFile(t, filepath.Join(dir, fmt.Sprintf("pass-%02d.json", i+1)), turnsDoc(ops, turns))
	}
	c, _ := loadMerged(t, dir)
	if bp, _ := c.samples.byPass("c:fill_turns_2KiB/planet36"); len(bp) != len(times) || bp[1] != 120 || bp[3] != 145 {
		t.Fatalf("planet36/randp's turns by pass = %v", bp)
	}
	r := &report{res: resultsOf(c)}
	if got := r.fillTable(2048); got != "fill_turns_2KiB/" {
		t.Errorf("fillTable(2 KiB) = %q", got)
	}
	if got := r.fillTable(1024); got != "fill_1KiB/" {
		t.Errorf("fillTable(1 KiB) = %q", got)
	}
	if p := r.processes("fill_turns_2KiB/"); p != "1 of 10" {
		t.Errorf("processes = %q, want 1 of 10", p)
	}
	out := r.exec("losses", r.data())
	if f := r.fill(128); !f.Turns || !f.Sep || math.Abs(f.Ratio-1.1) > 1e-9 {
		t.Errorf("fill(128 B) = %+v; want the paired 1.1, significant", f)
	}
	if _, sep := ratioOf(c.stat("c:fill_turns_128B/planet36"), c.stat("c:fill_turns_128B/randp")); sep {
		t.Errorf("the 128 B medians' intervals do not overlap: the case no longer shows what pairing adds")
	}
	for _, want := range []string{"- **slower**: 1 KiB (0 of 10), 2 KiB (1 of 10)", "- faster: 128 B (10 of 10)", "the two taking turns in one benchmark"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
}

// TestHotPathBarsPaired: the hot-path rows whose two sides ran in one go
// test binary or one criterion group are judged, like the AES-NI-only rows, by
// the median of the processes' ratios, and a row that is not randp against a
// rival (a rival's time over randp's) counts no winner.
func TestHotPathBarsPaired(t *testing.T) {
	pass := func(rows ...string) string {
		out := "randp-implementation: purego\ngoos: linux\ngoarch: amd64\npkg: github.com/randp/randp/go\n"
		for _, r := range rows {
			out += r + "\n"
		}
		return out + "PASS\n"
	}
	row := func(name string, ns float64) string { return fmt.Sprintf("Benchmark%s-2\t1000\t%g ns/op", name, ns) }
	// Ratios 0.833, 0.909, 1.034, 0.889, 0.926: median 0.909, randp the
	// faster in 4 of 5; the medians alone (3 against 2.9) say 1.03.
	randp := []float64{1.0, 2.0, 3.0, 4.0, 5.0}
	rival := []float64{1.2, 2.2, 2.9, 4.5, 5.4}
	var out string
	for i := range randp {
		out += pass(row("V2Uint64/src=RandpSource", randp[i]), row("V2Uint64/src=ChaCha8", rival[i]),
			row("ReadAESCTR", rival[i]), row("ReadRandp", randp[i]))
	}
	path := filepath.Join(t.TempDir(), "go.txt")
	writeFile(t, path, out)
	g, _, err := loadGoBench(path, "go")
	if err != nil {
		t.Fatal(err)
	}
	p, _, err := loadGoBench(path, "purego")
	if err != nil {
		t.Fatal(err)
	}
	r := &report{res: resultsOf(g, p)}
	r.res.run = runInfo{"cpu_flags": "aes vaes"}
	var source bar
	for _, b := range r.targetTables()[2].Bars {
		if strings.Contains(b.What, "NewChaCha8") {
			source = b
		}
	}
	if !strings.Contains(source.Measured, "ratios 0.91×") || !strings.Contains(source.Measured, "randp faster in 4 of 5 processes") || source.Met != "yes" {
		t.Errorf("pure-Go Source row = %+v, want the paired 0.91×, 4 of 5, met (the medians say 1.03×)", source)
	}
	for _, b := range r.targetTables()[0].Bars {
		if !strings.Contains(b.What, "throughput multiple") {
			continue
		}
		// The rival's time over randp's: 1.2, 1.1, 0.967, 1.125, 1.08.
		if !strings.Contains(b.Measured, "1.1") || strings.Contains(b.Measured, "randp faster") || b.Met != "**no**" {
			t.Errorf("Read 2 MiB row = %+v, want the paired 1.1×, no count of winners, not met (≥ 2×)", b)
		}
	}
}
