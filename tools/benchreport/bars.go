package main

import (
	"fmt"
	"strings"
)

// bar is one speed target, checked against this run's medians.
type bar struct {
	what     string
	measured string
	target   string
	met      string
}

// linkProfile points a missed target at the section of "Misses explained"
// headed h.
func (b *bar) linkProfile(h string) { b.met += " ([profile](" + anchor(h) + "))" }

// ratioBar is the time ratio a/b of two contestants against a target (a
// throughput ratio is the inverse time ratio: pass the contestants swapped).
func ratioBar(what string, a, b stat, target string, ok func(float64) bool) bar {
	v, sep := ratioOf(a, b)
	return ratioVerdict(what, v, sep, "medians", target, ok)
}

// ratioVerdict is a bar for ratio v, significant or not (then the cell
// names what v is the ratio of: `of`); 0 is not measured.
func ratioVerdict(what string, v float64, sep bool, of, target string, ok func(float64) bool) bar {
	if v == 0 {
		return bar{what, "not measured", target, "—"}
	}
	m := sig(v) + "×"
	if !sep {
		m = fmt.Sprintf("%s (%s %s×)", noDifference, of, sig(v))
	}
	return bar{what, m, target, yesNo(ok(v))}
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "**no**"
}

func le(max float64) func(float64) bool { return func(v float64) bool { return v <= max } }
func ge(min float64) func(float64) bool { return func(v float64) bool { return v >= min } }

func (r *report) bars() {
	res := r.res
	vaes := strings.Contains(" "+res.run["cpu_flags"]+" ", " vaes ")
	r.p("## %s\n\n", hBars)
	r.p("The project's speed targets, against this run, on the **%s**", r.cpuName())
	if vaes {
		r.p(", which has VAES")
	} else {
		r.p(", which has no VAES")
	}
	r.p(" (randp's `%s` kernel). Ratios are within this run; \"Met\" compares the medians with the target (for a ratio whose two sides ran in the same processes, which is every ratio but the OpenSSL row, the `aesni` proxy rows and C fills not measured in turns, the median of the processes' ratios, with the processes randp won where the row sets randp against a rival), and a ratio whose intervals overlap says so. ", or(res.run["backend"], "?"))
	r.p("A target met on this CPU says nothing of another: the CPU is part of every row. CI never judges speed.\n\n")
	r.barTable("The keystream engine and the hot paths", r.bars12(vaes))
	r.barTable("No row behind a peer", r.bars20(vaes))
	r.barTable("The pure-Go path", r.bars17())
}

func (r *report) barTable(title string, bars []bar) {
	r.p("**%s**\n\n", title)
	t := &table{head: []string{"Target", "Measured", "Required", "Met on this CPU"}}
	for _, b := range bars {
		t.row(b.what, b.measured, b.target, b.met)
	}
	r.p("%s\n", t)
}

func (r *report) bars12(vaes bool) []bar {
	res := r.res
	cr, c, goR := res.crit, res.c, res.goRandp
	var bars []bar
	ks := cr.get("fill_1MiB", "randp_keystream").Time
	ksTarget, ksMin := "≥ 0.95× (AES-NI only)", 0.95
	if vaes {
		ksTarget, ksMin = "≥ 1.8× (VAES)", 1.8
	}
	bars = append(bars, ratioBar("Raw AES-256-CTR keystream (randp's engine) / `openssl speed -evp aes-256-ctr`, throughput", res.ceil.OpenSSL(), ks, ksTarget, ge(ksMin)))
	bars = append(bars, pairedBar("Rust `fill_bytes` 1 MiB / raw keystream, throughput", cr.pairs("fill_1MiB", "randp_keystream", "randp_bytes"),
		ks, cr.get("fill_1MiB", "randp_bytes").Time, "≥ 0.9×", ge(0.9)))
	bars = append(bars, r.wordBar("Rust `randp::u64` / rand `ThreadRng` `next_u64`, time", "u64", "randp_u64", "rand_ThreadRng", "≤ 0.8×", le(0.8)))
	bars = append(bars, r.nsBar("C ABI `randp_u64`, linked statically", "u64/randp", "randp", 3))
	bars = append(bars, goBar("Go `rand.New(randp.Source()).Int63` / math/rand `NewSource(1)`, time", goR, "RandpBufRand", "MathRand", "≤ 1.3×", le(1.3)))
	bars = append(bars, goBar("Go rand/v2 `rand.New(randp.Source()).Uint64` / ChaCha8, time", goR, "V2Uint64/src=RandpSource", "V2Uint64/src=ChaCha8", "≤ 0.7×", le(0.7)))
	bars = append(bars, pairedBar("Go `Read` 2 MiB, pure-Go AES-CTR reader / randp, time (= randp's throughput multiple)", goR.pairs("ReadAESCTR", "ReadRandp"),
		goR.get("ReadAESCTR"), goR.get("ReadRandp"), "≥ 2×", ge(2)))
	bars = append(bars, goBar("Go `Read` 4 KiB, randp / pure-Go AES-CTR reader, time", goR, "RandpRead/4KiB", "AESCTRRead/4KiB", "≤ 0.6×", le(0.6)))
	bars = append(bars, goBar("Go `Read` 4 KiB, randp / crypto/rand, time", goR, "RandpRead/4KiB", "StdlibRead/4KiB", "≤ 0.08×", le(0.08)))
	un, co := goR.get("RandpRand"), goR.get("COverhead")
	if un.ok() && co.ok() {
		d := un.Center - co.Center
		bars = append(bars, bar{"Go `UnbufferedSource` Int63 − empty cgo call", fmt.Sprintf("%+.1f ns (%s − %s)", d, ns(un.Center), ns(co.Center)), "≤ 6 ns", yesNo(d <= 6)})
	} else {
		bars = append(bars, bar{"Go `UnbufferedSource` Int63 − empty cgo call", "not measured", "≤ 6 ns", "—"})
	}
	p36 := res.peers["planet36-randp"]
	for _, k := range []struct{ group, what string }{{"u32", "`randp_u32`"}, {"u64", "`randp_u64`"}, {"lt_u32", "`randp_lt_u32`"}} {
		b := pairedBar("planet36/randp / randp, "+k.what+", time per call", c.pairs(k.group+"/planet36", k.group+"/randp"),
			c.get(k.group+"/planet36"), c.get(k.group+"/randp"), "≥ 3×", ge(3))
		if p36 != "" {
			b.measured = notMeasured(p36)
		}
		bars = append(bars, b)
	}
	return bars
}

// fillRatio is randp's throughput against planet36/randp for C fills of
// `n` bytes (planet36/randp's time over randp's) and whether it is
// significant. From rows in turns it is paired: the median of each
// process's ratio, significant when that median's interval excludes 1
// (both sides of a process met the same moments, so the pairs carry the
// comparison); from rows measured one after the other, the ratio of the
// two medians, significant when their intervals do not overlap.
func (r *report) fillRatio(n float64) (v float64, sep, paired bool) {
	c := r.res.c
	table := c.fillTable(n)
	if !strings.HasPrefix(table, turnsPrefix) {
		v, sep = ratioOf(c.get(table+"planet36"), c.get(table+"randp"))
		return v, sep, false
	}
	v, sep = pairedRatio(c.pairs(table+"planet36", table+"randp"))
	return v, sep, true
}

// pairedRatio is the median over the processes of each one's ratio
// p[0]/p[1], significant when that median's interval excludes 1.
func pairedRatio(pairs [][2]float64) (float64, bool) {
	var ratios []float64
	for _, p := range pairs {
		if p[1] > 0 {
			ratios = append(ratios, p[0]/p[1])
		}
	}
	s := summarize(ratios)
	return s.Center, s.ok() && (s.Lo > 1 || s.Hi < 1)
}

// timeRatio is randp's time against a rival's and whether it is
// significant. When both ran in the same processes (pairs: randp's sample
// and the rival's from each process), it is paired as fillRatio's rows in
// turns are: the median of each process's ratio, so that a process's memory
// layout and clock are the same for both sides; faster and of then count
// the processes in which randp took less time. With fewer than two pairs
// it is the ratio of the two medians, and of is 0.
func timeRatio(pairs [][2]float64, randp, rival stat) (v float64, sep bool, faster, of int) {
	if len(pairs) < 2 {
		v, sep = ratioOf(randp, rival)
		return v, sep, 0, 0
	}
	for _, p := range pairs {
		if p[0] < p[1] {
			faster++
		}
	}
	v, sep = pairedRatio(pairs)
	return v, sep, faster, len(pairs)
}

// timeBar is a timeRatio result's row against a target.
func timeBar(what string, v float64, sep bool, faster, of int, target string, ok func(float64) bool) bar {
	if of == 0 {
		return ratioVerdict(what, v, sep, "medians", target, ok)
	}
	b := ratioVerdict(what, v, sep, "median of the processes' ratios", target, ok)
	b.measured += fmt.Sprintf("; randp faster in %d of %d processes", faster, of)
	return b
}

// wordRatio is timeRatio for the Rust word group `group`: randp's function
// randpFn against the rival's rivalFn, run one after the other in every
// pass's process.
func (r *report) wordRatio(group, randpFn, rivalFn string) (v float64, sep bool, faster, of int) {
	cr := r.res.crit
	return timeRatio(cr.pairs(group, randpFn, rivalFn), cr.get(group, randpFn).Time, cr.get(group, rivalFn).Time)
}

// wordBar is wordRatio's row against a target.
func (r *report) wordBar(what, group, randpFn, rivalFn, target string, ok func(float64) bool) bar {
	v, sep, faster, of := r.wordRatio(group, randpFn, rivalFn)
	return timeBar(what, v, sep, faster, of, target, ok)
}

// goRatio is timeRatio for two benchmarks of one go test binary, which ran
// in every pass's process.
func goRatio(s *goSet, randp, rival string) (v float64, sep bool, faster, of int) {
	return timeRatio(s.pairs(randp, rival), s.get(randp), s.get(rival))
}

// goBar is goRatio's row against a target.
func goBar(what string, s *goSet, randp, rival, target string, ok func(float64) bool) bar {
	v, sep, faster, of := goRatio(s, randp, rival)
	return timeBar(what, v, sep, faster, of, target, ok)
}

// pairedBar is a row for the ratio of a's time to b's, two benchmarks that
// ran in the same processes (pairs, a's sample first): the median of the
// processes' ratios, or, with fewer than two pairs, the ratio of the
// medians a and b. It counts no winner: a and b are not randp and a rival
// in that order (the rival's time over randp's, or one randp path against
// another).
func pairedBar(what string, pairs [][2]float64, a, b stat, target string, ok func(float64) bool) bar {
	if len(pairs) < 2 {
		return ratioBar(what, a, b, target, ok)
	}
	v, sep := pairedRatio(pairs)
	return ratioVerdict(what, v, sep, "median of the processes' ratios", target, ok)
}

// nsBar is an absolute time target for one C benchmark.
func (r *report) nsBar(what, name, key string, max float64) bar {
	s := r.res.c.get(name)
	if !s.ok() {
		return bar{what, notMeasured(r.res.c.why(key)), fmt.Sprintf("≤ %g ns", max), "—"}
	}
	return bar{what, spread(s), fmt.Sprintf("≤ %g ns", max), yesNo(s.Center <= max)}
}

func (r *report) bars20(vaes bool) []bar {
	res := r.res
	c, goR := res.c, res.goRandp
	var bars []bar
	target, min := "≥ 0.8× (AES-NI only)", 0.8
	if vaes {
		target, min = "≥ 1.0× (VAES)", 1.0
	}
	p36 := res.peers["planet36-randp"]
	floors, _, _ := r.fillFloors()
	explained := map[float64]bool{}
	for _, f := range floors {
		explained[f.size] = true
	}
	for n := 16.0; n <= 1<<20; n *= 2 {
		name := c.fillTable(n)
		calls := " calls"
		if strings.HasPrefix(name, turnsPrefix) {
			calls = " calls in turns"
		}
		v, sep, paired := r.fillRatio(n)
		of := "medians"
		if paired {
			of = "median of the processes' ratios"
		}
		b := ratioVerdict("C `randp_bytes` (Rust `fill_bytes` behind the C ABI) / planet36/randp `randp_bytes`, "+fmtBytes(n)+calls+", throughput",
			v, sep, of, target, ge(min))
		if fast, of := r.perProcess(name+"randp", name+"planet36"); of > 0 {
			b.measured += fmt.Sprintf("; randp faster in %d of %d processes", fast, of)
		}
		if p36 != "" {
			b.measured = notMeasured(p36)
		} else if explained[n] {
			b.linkProfile(hWhyFill)
		}
		bars = append(bars, b)
	}
	if vaes {
		bars = append(bars, r.aesniBars()...)
	}
	_, u32Missed, ltMissed := r.rustWordMiss()
	u32 := r.wordBar("Rust `randp::u32` / rand `ThreadRng` `next_u32`, time", "u32", "randp_u32", "rand_ThreadRng", "≤ 0.9×", le(rustU32Target))
	lt := r.wordBar("Rust `randp::lt_u32` / rand `ThreadRng` `random_range`, time", "lt_u32", "randp_lt_u32", "rand_random_range", "≤ 1.0×", le(rustLtTarget))
	if u32Missed && u32.met == "**no**" {
		u32.linkProfile(hWhyRust)
	}
	if ltMissed && lt.met == "**no**" {
		lt.linkProfile(hWhyRust)
	}
	bars = append(bars, u32, lt)
	bars = append(bars, r.wordBar("Rust `randp::lt_u64` / rand `ThreadRng` `random_range`, time", "lt_u64", "randp_lt_u64", "rand_random_range", "≤ 1.0×", le(1.0)))
	readMissed := map[string]bool{}
	for _, sz := range r.goReadMissed() {
		readMissed[sz] = true
	}
	for _, sz := range goReadTargets {
		b := goBar("Go `Read` "+fmtBytes(parseSize(sz))+", randp (goroutine-safe) / a pure-Go AES-CTR reader, time",
			goR, "RandpRead/"+sz, "AESCTRRead/"+sz, "≤ 1.0×", le(1.0))
		if readMissed[sz] && b.met == "**no**" {
			b.linkProfile(hWhyRead)
		}
		bars = append(bars, b)
	}
	bars = append(bars, goBar("Go `ParallelRead32`, randp / a pure-Go AES-CTR reader per goroutine, time", goR, "ParallelRead32/impl=Randp", "ParallelRead32/impl=AESCTR", "≤ 1.0×", le(1.0)))
	v2 := goBar("Go rand/v2 `rand.New(randp.Source()).Uint64` / PCG, time", goR, "V2Uint64/src=RandpSource", "V2Uint64/src=PCG", "≤ 1.0×", le(1.0))
	if v2.met == "**no**" && r.v2Explained() {
		v2.linkProfile(hWhyV2)
	}
	bars = append(bars, v2)
	word := r.nsBar("C ABI `randp_u64` through a dlopen'ed librandp.so", "u64/randp_dlopen", "randp_dlopen", wordTarget)
	if _, missed := r.wordMiss(); missed && word.met == "**no**" {
		word.linkProfile(hWhyWord)
	}
	bars = append(bars, word)
	return bars
}

func (r *report) bars17() []bar {
	set, why := r.res.purego()
	rows := []struct{ what, a, b, target string }{
		{"pure-Go `rand.New(randp.Source()).Uint64` / `rand.New(rand.NewChaCha8(seed)).Uint64`, time", "V2Uint64/src=RandpSource", "V2Uint64/src=ChaCha8", "≤ 1.0×"},
		{"pure-Go `Read` 32 B / crypto/rand.Read, time", "RandpRead/32b", "StdlibRead/32b", "≤ 0.5×"},
		{"pure-Go `Read` 4 KiB / crypto/rand.Read, time", "RandpRead/4KiB", "StdlibRead/4KiB", "≤ 0.5×"},
		{"pure-Go top-level `Uint64` / math/rand/v2 `Uint64`, time", "Uint64/impl=Randp", "Uint64/impl=MathRandV2", "≤ 1.0×"},
	}
	var bars []bar
	for _, row := range rows {
		if set == nil {
			bars = append(bars, bar{row.what, notMeasured(why), row.target, "—"})
			continue
		}
		max := 1.0
		if strings.Contains(row.target, "0.5") {
			max = 0.5
		}
		bars = append(bars, goBar(row.what, set, row.a, row.b, row.target, le(max)))
	}
	return bars
}
