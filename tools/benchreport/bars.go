package main

import "fmt"

// bar is one speed requirement of issues 2 and 3, checked against this run.
type bar struct {
	what, measured, limit string
	ok, known             bool
}

func (r *report) speedBars() {
	var bars []bar
	add := func(what string, v float64, known bool, limit string, ok bool, measuredFmt string) {
		bars = append(bars, bar{what, fmt.Sprintf(measuredFmt, v), limit, ok, known})
	}
	// Issue 2 (Rust).
	rf, ks := r.critGet("fill_1MiB", "randp_bytes"), r.critGet("fill_1MiB", "aes256ctr_keystream")
	v := rf.GBps() / ks.GBps()
	add("Rust fill 1 MiB / raw AES-256-CTR keystream (throughput)", v, rf.MedianNs > 0 && ks.MedianNs > 0, "≥ 0.9×", v >= 0.9, "%.2f×")
	ru, tr := r.critGet("u64", "randp_u64"), r.critGet("u64", "rand_ThreadRng")
	v = ru.MedianNs / tr.MedianNs
	add("Rust randp::u64 / ThreadRng next_u64 (time)", v, ru.MedianNs > 0 && tr.MedianNs > 0, "≤ 0.5×", v <= 0.5, "%.2f×")
	cu := r.critGet("u64", "randp_u64_c_abi")
	add("randp_u64 through the C ABI (ns per call)", cu.MedianNs, cu.MedianNs > 0, "≤ 3 ns", cu.MedianNs <= 3, "%.2f ns")
	for _, g := range []struct{ group, what string }{{"threads_fill_1MiB", "fill"}, {"threads_u64", "u64"}} {
		one, two := r.critGet(g.group, "randp_1_thread"), r.critGet(g.group, "randp_2_thread")
		thr := func(c critResult) float64 { return (c.Bytes + c.Elements) / c.MedianNs }
		v = thr(two) / thr(one)
		add("Two threads / one thread, "+g.what+" (throughput)", v, one.MedianNs > 0 && two.MedianNs > 0, "≥ 1.8×", v >= 1.8, "%.2f×")
	}
	// Issue 3 (Go).
	goRatio := func(what, a, b, limit string, max float64) {
		x, y := r.goMedian(a), r.goMedian(b)
		v := x / y
		add(what, v, x > 0 && y > 0, limit, v <= max, "%.2f×")
	}
	goRatio("Go rand.New(randp.Source()).Int63 / math/rand NewSource(1)", "RandpBufRand", "MathRand", "≤ 1.3×", 1.3)
	goRatio("Go rand/v2 rand.New(randp.Source()).Uint64 / ChaCha8", "V2Uint64/src=RandpSource", "V2Uint64/src=ChaCha8", "≤ 0.8×", 0.8)
	goRatio("Go randp.Read / crypto/rand.Read, 4 B", "RandpRead/4b", "StdlibRead/4b", "≤ 0.5×", 0.5)
	goRatio("Go randp.Read / crypto/rand.Read, 32 B", "RandpRead/32b", "StdlibRead/32b", "≤ 0.5×", 0.5)
	goRatio("Go randp.Read / crypto/rand.Read, 4 KiB", "RandpRead/4KiB", "StdlibRead/4KiB", "≤ 0.1×", 0.1)
	goRatio("Go randp.Read / pure-Go AES-CTR reader, 4 KiB", "RandpRead/4KiB", "AESCTRRead/4KiB", "≤ 0.5×", 0.5)
	goRatio("Go randp.Uint64 / rand/v2 Uint64, one goroutine", "Uint64/impl=Randp", "Uint64/impl=MathRandV2", "≤ 1.5×", 1.5)
	goRatio("Go randp.Uint64 / rand/v2 Uint64, RunParallel", "ParallelUint64/impl=Randp", "ParallelUint64/impl=MathRandV2", "≤ 1.5×", 1.5)
	un, co := r.goMedian("RandpRand"), r.goMedian("COverhead")
	add("Go UnbufferedSource Int63 − empty cgo call (ns)", un-co, un > 0 && co > 0, "≤ 5 ns", un-co <= 5, "%.2f ns")

	r.p("## Speed bars of issues 2 and 3\n\n")
	r.p("The bars the issues set, against this run's medians (ratios within the run). Reported, not enforced: CI never judges speed.\n\n")
	t := &table{head: []string{"Bar", "Measured", "Required", "Met"}}
	for _, b := range bars {
		met := "no"
		switch {
		case !b.known:
			b.measured, met = "not measured", "—"
		case b.ok:
			met = "yes"
		}
		t.row(b.what, b.measured, b.limit, met)
	}
	r.p("%s\n", t)
}

func (r *report) sweeps() {
	r.p("## Parameter sweeps\n\n")
	r.p("`make num-blocks` and `make reseed-countdown` (benches/sweep.rs, `randp::internals::Generator<BLOCKS, RESEED>`, ")
	r.p("each generator seeded from the OS): the buffer size at the default reseed interval, and the reseed interval at the default buffer size.\n\n")
	for _, s := range []struct{ name, title string }{{"num_blocks", "num-blocks"}, {"reseed_countdown", "reseed-countdown"}} {
		t, err := sweepTable(r.crit, s.name)
		if err != nil {
			r.p("### %s\n\nNot run in this report (%v).\n\n", s.title, err)
			continue
		}
		r.p("### %s\n\n%s\n", s.title, t)
	}
}
