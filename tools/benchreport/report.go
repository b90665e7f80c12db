package main

import (
	"fmt"
	"strings"
)

// report assembles BENCHMARKS.md from one run's results.
type report struct {
	root     string
	crit     critSet
	gores    *goSet
	goFile   string
	svgPath  string
	describe string
	b        strings.Builder
}

func (r *report) p(format string, args ...any) { fmt.Fprintf(&r.b, format, args...) }

func (r *report) markdown() (string, error) {
	si := gatherSysinfo(r.root)
	r.p("# Benchmarks\n\n")
	r.p("Written by `make bench` from one run on the machine below; not edited by hand. ")
	r.p("Regenerate with `make bench` (about 15 minutes on 2 cores) or `make bench-quick`. ")
	r.p("Columns headed *seed* quote the reference documents in `../shared/seeds/`, measured on their authors' machines, ")
	r.p("not here; they are there for orientation, and only ratios within this run compare like with like.\n\n")
	if r.describe != "" {
		r.p("Run: %s.\n\n", r.describe)
	}
	r.p("## System info\n\n")
	r.p("- %s\n- %s (%s cores; %s)\n- %s\n- %s\n- %s\n- %s\n- %s\n\n",
		si.Kernel, si.CPU, si.Cores, si.CPUFlags, si.Libc, si.Rustc, "Go "+si.Go, si.Randp, si.Date)
	if si.LoadStart != "" || si.LoadEnd != "" {
		r.p("Load average (1, 5, 15 min) at the start of the run: %s; at the end: %s. ", or(si.LoadStart, "not recorded"), or(si.LoadEnd, "not recorded"))
		r.p("Anything above 0 is other work sharing the 2 cores during the measurements.\n\n")
	}

	r.p("Contents: [Rust, seed 002](#rust-planet36randps-tables-seed-002) · ")
	r.p("[Go, seed 003](#go-unpredictable-sources-seed-003) · [Go, seed 000](#go-decred-dcrds-table-seed-000) · ")
	r.p("[Go, parallel](#go-package-level-functions-one-goroutine-and-in-parallel) · [Speed bars](#speed-bars-of-issues-2-and-3) · ")
	r.p("[Sweeps](#parameter-sweeps)\n\n")

	if err := r.rustTables(); err != nil {
		return "", err
	}
	if err := r.goUnpredictable(); err != nil {
		return "", err
	}
	if err := r.goDcrd(); err != nil {
		return "", err
	}
	if err := r.goParallel(); err != nil {
		return "", err
	}
	r.speedBars()
	r.sweeps()
	return r.b.String(), nil
}

// crit returns a criterion result or a zero one (rendered as "—").
func (r *report) critGet(group, fn string) critResult {
	c, _ := r.crit.get(group, fn)
	return c
}

func (r *report) goMedian(name string) float64 {
	g, ok := r.gores.get(name)
	if !ok {
		return 0
	}
	return g.Median()
}

func (r *report) goRuns() int {
	for _, n := range r.gores.order {
		g, _ := r.gores.get(n)
		return len(g.NsPerOp)
	}
	return 0
}

func fmtMs(v float64) string {
	if v <= 0 {
		return "—"
	}
	if v >= 100 {
		return fmt.Sprintf("%.0f ms", v)
	}
	return fmt.Sprintf("%.1f ms", v)
}

func fmtGBps(c critResult) string {
	if c.MedianNs <= 0 || c.Bytes <= 0 {
		return "—"
	}
	return fmt.Sprintf("%.2f GB/s", c.GBps())
}

func seedNum(m map[string]float64, k string, f func(float64) string) string {
	if v, ok := m[k]; ok {
		return f(v)
	}
	return ""
}

// ---- Rust: seed 002 ----

type rustRow struct {
	fn, label, seedKey string
	randp              bool
}

func (r *report) rustTables() error {
	r.p("## Rust: planet36/randp's tables (seed 002)\n\n")
	r.p("criterion 0.8, median of the samples (`benches/`). Rows named `randp::…` call the Rust API; `… (C ABI)` rows call the ")
	r.p("exported C function through a function pointer, as a C program does. planet36/randp itself cannot be fetched and built ")
	r.p("on this project's machines, so its numbers appear only in the *seed* columns, as its README reports them: ")
	r.p("*seed A* = %s; *seed B* = %s.\n\n", seed002[0].Label, seed002[1].Label)

	fillRows := []rustRow{
		{"randp_bytes", "randp::fill_bytes", "", true},
		{"randp_bytes_c_abi", "randp_bytes (C ABI)", "randp_bytes", true},
		{"arc4random_buf", "arc4random_buf (glibc)", "arc4random_buf", false},
		{"getentropy", "getentropy (256 B calls)", "getentropy", false},
		{"getrandom_crate", "getrandom crate", "", false},
		{"rand_ThreadRng", "rand 0.10 ThreadRng", "", false},
		{"aes256ctr_keystream", "aes crate AES-256-CTR keystream (ceiling)", "", false},
	}
	for _, grp := range []struct{ group, title string }{
		{"fill_1MiB", "Fill a buffer with random bytes, 1 MiB per call"},
		{"fill_256B", "Fill a buffer with random bytes, 256 B per call"},
	} {
		r.p("### %s\n\n", grp.title)
		base := r.critGet(grp.group, "randp_bytes")
		t := &table{head: []string{"Function", "Median time to generate 4 GiB", "Throughput", "randp::fill_bytes compared",
			"seed A", "seed B"}}
		for _, row := range fillRows {
			c := r.critGet(grp.group, row.fn)
			if c.MedianNs <= 0 {
				continue
			}
			cmp := ""
			if !row.randp {
				cmp = faster(msFor4GiB(base.GBps()), msFor4GiB(c.GBps()))
			} else if a := r.critGet(grp.group, "arc4random_buf"); a.MedianNs > 0 && row.fn == "randp_bytes" {
				cmp = faster(msFor4GiB(c.GBps()), msFor4GiB(a.GBps())) + " than arc4random_buf"
			}
			sa, sb := "", ""
			if grp.group == "fill_1MiB" && row.seedKey != "" {
				sa = seedNum(seed002[0].FillMs, row.seedKey, fmtMs)
				sb = seedNum(seed002[1].FillMs, row.seedKey, fmtMs)
			}
			t.row(row.label, fmtMs(msFor4GiB(c.GBps())), fmtGBps(c), cmp, sa, sb)
		}
		r.p("%s\n", t)
	}

	r.p("### Get a uniform random uint32_t\n\n")
	r.wordTable("u32", "randp_u32", []rustRow{
		{"randp_u32", "randp::u32", "", true},
		{"randp_u32_c_abi", "randp_u32 (C ABI)", "randp_u32", true},
		{"arc4random", "arc4random (glibc)", "arc4random", false},
		{"rdrand32", "rdrand32", "rdrand32", false},
		{"rdseed32", "rdseed32", "rdseed32", false},
		{"rand_ThreadRng", "rand 0.10 ThreadRng next_u32", "", false},
	}, seed002[0].U32Ns, seed002[1].U32Ns)
	r.p("Note: rdrand32 and rdseed32 wrap `_rdrand32_step` and `_rdseed32_step` (retried until they succeed), as in planet36/randp; ")
	r.p("randp uses neither (seed 004).\n\n")

	r.p("### Get a uniform random uint64_t\n\n")
	r.wordTable("u64", "randp_u64", []rustRow{
		{"randp_u64", "randp::u64", "", true},
		{"randp_u64_c_abi", "randp_u64 (C ABI)", "", true},
		{"rand_ThreadRng", "rand 0.10 ThreadRng next_u64", "", false},
		{"getrandom_crate", "getrandom crate u64", "", false},
		{"fastrand", "fastrand (not cryptographic: the floor)", "", false},
	}, nil, nil)

	r.p("### Get a uniform random uint32_t less than upper_bound = [1 .. 0x100000]\n\n")
	{
		base := r.critGet("lt_u32", "randp_lt_u32")
		t := &table{head: []string{"Function", "Median time per call", "Calls per second", "randp::lt_u32 compared", "seed A (per call)", "seed B (calls/s)"}}
		for _, row := range []rustRow{
			{"randp_lt_u32", "randp::lt_u32", "", true},
			{"randp_lt_u32_c_abi", "randp_lt_u32 (C ABI)", "randp_lt_u32", true},
			{"arc4random_uniform", "arc4random_uniform (glibc)", "arc4random_uniform", false},
			{"rand_random_range", "rand 0.10 ThreadRng random_range", "", false},
		} {
			c := r.critGet("lt_u32", row.fn)
			if c.MedianNs <= 0 {
				continue
			}
			cmp := ""
			if !row.randp {
				cmp = faster(base.MedianNs, c.MedianNs)
			} else if a := r.critGet("lt_u32", "arc4random_uniform"); row.fn == "randp_lt_u32" && a.MedianNs > 0 {
				cmp = faster(c.MedianNs, a.MedianNs) + " than arc4random_uniform"
			}
			sa := seedNum(seed002[0].LtNs, row.seedKey, func(v float64) string { return ns(v) })
			sb := seedNum(seed002[1].LtMps, row.seedKey, func(v float64) string { return fmt.Sprintf("%.1fM/s", v) })
			t.row(row.label, ns(c.MedianNs), fmt.Sprintf("%.1fM/s", 1e3/c.MedianNs), cmp, sa, sb)
		}
		r.p("%s\n", t)
	}

	r.p("### Two threads at once against one\n\n")
	r.p("Each sample runs its threads inside `std::thread::scope`; throughput counts the work of all threads.\n\n")
	t := &table{head: []string{"Work", "1 thread", "2 threads", "2 threads / 1 thread"}}
	for _, w := range []struct{ group, label string }{
		{"threads_fill_1MiB", "randp::fill_bytes, 1 MiB calls"},
		{"threads_u64", "randp::u64"},
	} {
		one, two := r.critGet(w.group, "randp_1_thread"), r.critGet(w.group, "randp_2_thread")
		if one.MedianNs <= 0 || two.MedianNs <= 0 {
			continue
		}
		if one.Bytes > 0 {
			t.row(w.label, fmtGBps(one), fmtGBps(two), fmt.Sprintf("%.2f×", two.GBps()/one.GBps()))
		} else {
			m1, m2 := one.Elements/one.MedianNs*1e3, two.Elements/two.MedianNs*1e3
			t.row(w.label, fmt.Sprintf("%.0fM/s", m1), fmt.Sprintf("%.0fM/s", m2), fmt.Sprintf("%.2f×", m2/m1))
		}
	}
	r.p("%s\n", t)
	return nil
}

func (r *report) wordTable(group, baseFn string, rows []rustRow, seedA, seedB map[string]float64) {
	base := r.critGet(group, baseFn)
	head := []string{"Function", "Median time per call", "randp compared"}
	if seedA != nil {
		head = append(head, "seed A", "seed B")
	}
	t := &table{head: head}
	for _, row := range rows {
		c := r.critGet(group, row.fn)
		if c.MedianNs <= 0 {
			continue
		}
		cmp := ""
		if !row.randp {
			cmp = faster(base.MedianNs, c.NsPerElement())
		}
		cells := []string{row.label, ns(c.NsPerElement()), cmp}
		if seedA != nil {
			f := func(v float64) string { return ns(v) }
			cells = append(cells, seedNum(seedA, row.seedKey, f), seedNum(seedB, row.seedKey, f))
		}
		t.row(cells...)
	}
	r.p("%s\n", t)
}

func or(s, alt string) string {
	if s == "" {
		return alt
	}
	return s
}
