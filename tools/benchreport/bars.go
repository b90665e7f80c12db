package main

import (
	"fmt"
	"strings"
)

// bar is one speed target for the keystream engine and the Go hot paths,
// checked against this run's medians.
type bar struct {
	what     string
	measured string
	target   string
	met      string
}

// ratioBar is the time ratio a/b of two contestants against a target (a
// throughput ratio is the inverse time ratio: pass the contestants swapped).
func ratioBar(what string, a, b stat, target string, ok func(float64) bool) bar {
	v, sep := ratioOf(a, b)
	if v == 0 {
		return bar{what, "not measured", target, "—"}
	}
	m := sig(v) + "×"
	if !sep {
		m = fmt.Sprintf("%s (medians %s×)", noDifference, sig(v))
	}
	return bar{what, m, target, yesNo(ok(v))}
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "**no**"
}

func (r *report) bars() {
	res := r.res
	cr, c, goR := res.crit, res.c, res.goRandp
	vaes := strings.Contains(" "+res.run["cpu_flags"]+" ", " vaes ")
	var bars []bar
	le := func(max float64) func(float64) bool { return func(v float64) bool { return v <= max } }
	ge := func(min float64) func(float64) bool { return func(v float64) bool { return v >= min } }
	// Keystream: throughput ratios are inverse time ratios.
	ks := cr.get("fill_1MiB", "randp_keystream").Time
	osl := res.ceil.OpenSSL()
	ksTarget, ksMin := "≥ 0.95× (AES-NI only)", 0.95
	if vaes {
		ksTarget, ksMin = "≥ 1.8× (VAES)", 1.8
	}
	bars = append(bars, ratioBar("Raw AES-256-CTR keystream (randp's engine) / `openssl speed -evp aes-256-ctr`, throughput", osl, ks, ksTarget, ge(ksMin)))
	bars = append(bars, ratioBar("Rust `fill_bytes` 1 MiB / raw keystream, throughput", ks, cr.get("fill_1MiB", "randp_bytes").Time, "≥ 0.9×", ge(0.9)))
	bars = append(bars, ratioBar("Rust `randp::u64` / rand `ThreadRng` `next_u64`, time", cr.get("u64", "randp_u64").Time, cr.get("u64", "rand_ThreadRng").Time, "≤ 0.8×", le(0.8)))
	for _, k := range []struct{ name, what string }{{"u64/randp", "C ABI `randp_u64`, linked statically"}, {"u64/randp_dlopen", "C ABI `randp_u64` through a dlopen'ed librandp.so"}} {
		s := c.get(k.name)
		if !s.ok() {
			bars = append(bars, bar{k.what, notMeasured(c.why("randp_dlopen")), "≤ 3 ns", "—"})
			continue
		}
		bars = append(bars, bar{k.what, spread(s), "≤ 3 ns", yesNo(s.Center <= 3)})
	}
	bars = append(bars, ratioBar("Go `rand.New(randp.Source()).Int63` / math/rand `NewSource(1)`, time", goR.get("RandpBufRand"), goR.get("MathRand"), "≤ 1.3×", le(1.3)))
	bars = append(bars, ratioBar("Go rand/v2 `rand.New(randp.Source()).Uint64` / ChaCha8, time", goR.get("V2Uint64/src=RandpSource"), goR.get("V2Uint64/src=ChaCha8"), "≤ 0.7×", le(0.7)))
	bars = append(bars, ratioBar("Go rand/v2 `rand.New(randp.Source()).Uint64` / PCG, time", goR.get("V2Uint64/src=RandpSource"), goR.get("V2Uint64/src=PCG"), "≤ 1.0×", le(1.0)))
	bars = append(bars, ratioBar("Go `Read` 2 MiB, pure-Go AES-CTR reader / randp, time (= randp's throughput multiple)", goR.get("ReadAESCTR"), goR.get("ReadRandp"), "≥ 2×", ge(2)))
	bars = append(bars, ratioBar("Go `Read` 4 KiB, randp / pure-Go AES-CTR reader, time", goR.get("RandpRead/4KiB"), goR.get("AESCTRRead/4KiB"), "≤ 0.6×", le(0.6)))
	bars = append(bars, ratioBar("Go `Read` 4 KiB, randp / crypto/rand, time", goR.get("RandpRead/4KiB"), goR.get("StdlibRead/4KiB"), "≤ 0.08×", le(0.08)))
	un, co := goR.get("RandpRand"), goR.get("COverhead")
	if un.ok() && co.ok() {
		d := un.Center - co.Center
		bars = append(bars, bar{"Go `UnbufferedSource` Int63 − empty cgo call", fmt.Sprintf("%+.1f ns (%s − %s)", d, ns(un.Center), ns(co.Center)), "≤ 6 ns", yesNo(d <= 6)})
	} else {
		bars = append(bars, bar{"Go `UnbufferedSource` Int63 − empty cgo call", "not measured", "≤ 6 ns", "—"})
	}
	p36 := res.peers["planet36-randp"]
	for _, k := range []struct{ group, what string }{{"u32", "`randp_u32`"}, {"u64", "`randp_u64`"}, {"lt_u32", "`randp_lt_u32`"}} {
		b := ratioBar("planet36/randp / randp, "+k.what+", time per call", c.get(k.group+"/planet36"), c.get(k.group+"/randp"), "≥ 3×", ge(3))
		if p36 != "" {
			b.measured = notMeasured(p36)
		}
		bars = append(bars, b)
	}
	for _, sz := range []string{"1MiB", "256B"} {
		b := ratioBar("randp / planet36/randp, fill in "+fmtBytes(parseSize(sz))+" calls, throughput", c.get("fill_"+sz+"/planet36"), c.get("fill_"+sz+"/randp"), "≥ 1.0×", ge(1.0))
		if p36 != "" {
			b.measured = notMeasured(p36)
		}
		bars = append(bars, b)
	}

	r.p("## %s\n\n", hBars)
	r.p("The targets set for randp's keystream engine and hot paths, against this run (ratios within the run, on the %s", or(res.run["cpu"], "CPU above"))
	if vaes {
		r.p(", which has VAES")
	} else {
		r.p(", which has no VAES")
	}
	r.p("). \"Met\" compares the medians with the target; CI never judges speed.\n\n")
	t := &table{head: []string{"Target", "Measured", "Required", "Met"}}
	for _, b := range bars {
		t.row(b.what, b.measured, b.target, b.met)
	}
	r.p("%s\n", t)
}
