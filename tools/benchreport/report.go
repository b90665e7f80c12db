package main

import (
	"fmt"
	"strings"
	"unicode"
)

// report assembles BENCHMARKS.md from one run's results.
type report struct {
	res        *results
	svgPath    string
	resultsDir string
	b          strings.Builder
}

func (r *report) p(format string, args ...any) { fmt.Fprintf(&r.b, format, args...) }

// Section headings, linked from the first screen.
const (
	hSummary  = "If you use X today"
	hBars     = "Speed targets"
	hCFill    = "C: fill a buffer"
	hCSizes   = "C: one call of 4 B to 4 KiB"
	hCWords   = "C: one uniform word per call"
	hCLt      = "C: a uniform uint32_t below a bound"
	hCThreads = "C: two threads, and one generator behind a mutex"
	hRust     = "Rust: randp's API beside rand and getrandom"
	hCeiling  = "The AES-256-CTR ceiling of this CPU"
	hGoSrc    = "Go: math/rand sources that cannot be seeded"
	hGoV2     = "Go: math/rand/v2 sources"
	hGoRead   = "Go: Read at decred dcrd's sizes"
	hGoFuncs  = "Go: bounded functions as dcrd measures them"
	hGoPar    = "Go: package-level functions in parallel"
	hSweeps   = "Parameter sweeps"
	hMethod   = "How this was measured"
)

// anchor is GitHub's anchor for a heading.
func anchor(h string) string {
	var b strings.Builder
	for _, c := range strings.ToLower(h) {
		switch {
		case c == ' ':
			b.WriteByte('-')
		case c == '-' || c == '_' || (c < unicode.MaxASCII && (unicode.IsLetter(c) || unicode.IsDigit(c))):
			b.WriteRune(c)
		}
	}
	return "#" + b.String()
}

func link(text, heading string) string { return "[" + text + "](" + anchor(heading) + ")" }

// notMeasured is the cell of a contestant without a measurement.
func notMeasured(why string) string {
	if why == "" {
		return "not measured"
	}
	return "not measured: " + why
}

// timeCell is a time with its interval, or why there is none.
func timeCell(s stat, why string) string {
	if !s.ok() {
		return notMeasured(why)
	}
	return spread(s)
}

func (r *report) markdown() string {
	run := r.res.run
	r.p("# Benchmarks\n\n")
	r.p("randp beside what its users call today, measured side by side in one run on one machine: **%s**, %s cores (%s). ",
		or(run["cpu"], "CPU not recorded"), or(run["nproc"], "?"), or(run["cpu_flags"], "flags not recorded"))
	r.p("Commit %s%s, %s. Written by `make bench` from the raw outputs in [%s](%s); not edited by hand.\n\n",
		or(run["commit"], "?"), dirtyNote(run["dirty"]), or(run["date"], "date not recorded"), r.resultsDir, r.resultsDir)
	r.p("Times are medians with a 95%% confidence interval, `median [low, high]`. A ratio is given only where the two intervals ")
	r.p("do not overlap; otherwise the cell says \"%s\". Ratios are time ratios: \"3.1× faster\" means the other takes 3.1 times as long ", noDifference)
	r.p("as randp, \"1.2× slower\" that randp takes 1.2 times as long. Load average during the run: %s.\n\n", r.res.load.describe())

	r.summary()
	r.bars()
	r.cTables()
	r.rustTables()
	r.ceilingTable()
	r.goTables()
	r.sweeps()
	r.method()
	return r.b.String()
}

func dirtyNote(dirty string) string {
	if dirty == "yes" {
		return " **with uncommitted changes**"
	}
	return ""
}

func or(s, alt string) string {
	if s == "" {
		return alt
	}
	return s
}

// ---- the first screen ----

type summaryRow struct {
	you, work   string
	rival, mine stat
	why         string // why the rival is not measured
	heading     string
}

func (r *report) summary() {
	res := r.res
	r.p("## %s\n\n", hSummary)
	r.p("How much faster or slower randp is than what you call today, for the same work; each row links to its full table.\n\n")
	goR, goP, goD, c := res.goRandp, res.goPeers, res.goDcrd, res.c
	dcrdWhy, unpWhy, p36Why := res.peers["dcrd-crypto-rand"], res.peers["unpredictable"], res.peers["planet36-randp"]

	r.p("**Go** (`randp` = `github.com/randp/randp/go`)\n\n")
	r.summaryTable([]summaryRow{
		{"crypto/rand.Read", "32 B", goR.get("StdlibRead/32b"), goR.get("RandpRead/32b"), "", hGoRead},
		{"crypto/rand.Read", "4 KiB", goR.get("StdlibRead/4KiB"), goR.get("RandpRead/4KiB"), "", hGoRead},
		{"crypto/rand.Read as Go ≤ 1.23 did it (getrandom per call)", "32 B", goP.get("GetrandomRead/32b"), goR.get("RandpRead/32b"), "", hGoRead},
		{"math/rand `rand.New(rand.NewSource(1)).Int63()`", "one value", goR.get("MathRand"), goR.get("RandpBufRand"), "", hGoSrc},
		{"math/rand/v2 `rand.New(rand.NewChaCha8(seed)).Uint64()`", "one value", goR.get("V2Uint64/src=ChaCha8"), goR.get("V2Uint64/src=RandpSource"), "", hGoV2},
		{"math/rand/v2 `rand.Uint64()`", "one value", goR.get("Uint64/impl=MathRandV2"), goR.get("Uint64/impl=Randp"), "", hGoPar},
		{"decred dcrd crypto/rand `Read`", "32 B", goD.get("DcrdRead/32b"), goR.get("RandpRead/32b"), dcrdWhy, hGoRead},
		{"decred dcrd crypto/rand `Uint32N`", "one value", goD.get("Uint32N"), goR.get("Uint32N"), dcrdWhy, hGoFuncs},
		{"art4711/unpredictable as a math/rand Source", "one value", goP.get("Unpredictable"), goR.get("RandpBufRand"), unpWhy, hGoSrc},
		{"art4711/unpredictable `Read`", "2 MiB", goP.get("ReadUnpredictable"), goR.get("ReadRandp"), unpWhy, hGoSrc},
	})

	r.p("**C** (`randp` = randp's C ABI, `randp.h`)\n\n")
	r.summaryTable([]summaryRow{
		{"glibc `arc4random_buf`", "256 B", c.get("fill_256B/arc4random_glibc"), c.get("fill_256B/randp"), c.why("arc4random_glibc"), hCFill},
		{"glibc `arc4random`", "uint32_t", c.get("u32/arc4random_glibc"), c.get("u32/randp"), c.why("arc4random_glibc"), hCWords},
		{"libbsd `arc4random_buf`", "256 B", c.get("fill_256B/arc4random_libbsd"), c.get("fill_256B/randp"), c.why("arc4random_libbsd"), hCFill},
		{"libbsd `arc4random_uniform`", "uint32_t below a bound", c.get("lt_u32/arc4random_libbsd"), c.get("lt_u32/randp"), c.why("arc4random_libbsd"), hCLt},
		{"getrandom through the vDSO", "32 B", c.get("read_32B/getrandom_vdso"), c.get("read_32B/randp"), c.why("getrandom_vdso"), hCSizes},
		{"getrandom through the vDSO", "4 KiB", c.get("read_4KiB/getrandom_vdso"), c.get("read_4KiB/randp"), c.why("getrandom_vdso"), hCSizes},
		{"planet36/randp `randp_bytes`", "1 MiB", c.get("fill_1MiB/planet36"), c.get("fill_1MiB/randp"), or(p36Why, c.why("planet36")), hCFill},
		{"planet36/randp `randp_u64`", "uint64_t", c.get("u64/planet36"), c.get("u64/randp"), or(p36Why, c.why("planet36")), hCWords},
		{"OpenSSL `RAND_bytes`", "32 B", c.get("read_32B/openssl"), c.get("read_32B/randp"), c.why("openssl"), hCSizes},
		{"`getentropy`", "256 B", c.get("fill_256B/getentropy"), c.get("fill_256B/randp"), c.why("getentropy"), hCFill},
	})

	cr := res.crit
	r.p("**Rust** (`randp` = the `randp` crate)\n\n")
	r.summaryTable([]summaryRow{
		{"rand `ThreadRng` (`rand::rng()`)", "u64", cr.get("u64", "rand_ThreadRng").Time, cr.get("u64", "randp_u64").Time, "", hRust},
		{"rand `ThreadRng`", "fill 1 MiB", cr.get("fill_1MiB", "rand_ThreadRng").Time, cr.get("fill_1MiB", "randp_bytes").Time, "", hRust},
		{"rand `StdRng` (ChaCha12)", "u64", cr.get("u64", "rand_StdRng").Time, cr.get("u64", "randp_u64").Time, "", hRust},
		{"rand `StdRng`", "fill 1 MiB", cr.get("fill_1MiB", "rand_StdRng").Time, cr.get("fill_1MiB", "randp_bytes").Time, "", hRust},
		{"getrandom crate", "u64", cr.get("u64", "getrandom_crate").Time, cr.get("u64", "randp_u64").Time, "", hRust},
		{"getrandom crate", "fill 256 B", cr.get("fill_256B", "getrandom_crate").Time, cr.get("fill_256B", "randp_bytes").Time, "", hRust},
	})
}

func (r *report) summaryTable(rows []summaryRow) {
	t := &table{head: []string{"If you use today", "for", "it takes", "randp takes", "randp is"}}
	for _, row := range rows {
		verdict := compare(row.mine, row.rival)
		if !row.rival.ok() || !row.mine.ok() {
			verdict = notMeasured(row.why)
		}
		t.row(row.you, row.work, ns(row.rival.Center), ns(row.mine.Center), link(or(boldRatio(verdict), "—"), row.heading))
	}
	r.p("%s\n", t)
}

// boldRatio makes a ratio stand out; other verdicts stay plain.
func boldRatio(v string) string {
	if strings.HasSuffix(v, "faster") || strings.HasSuffix(v, "slower") {
		return "**" + v + "**"
	}
	return v
}

// ---- how it was measured ----

func (r *report) method() {
	run := r.res.run
	r.p("## %s\n\n", hMethod)
	r.p("- Machine: %s, %s cores; CPU flags: %s\n", or(run["cpu"], "?"), or(run["nproc"], "?"), or(run["cpu_flags"], "?"))
	r.p("- %s; %s\n", or(run["kernel"], "kernel ?"), or(run["libc"], "libc ?"))
	r.p("- %s; Go: %s (`go env GOVERSION`); C: %s; %s\n", or(run["rustc"], "rustc ?"), or(run["go"], "?"), or(run["compiler"], "?"), or(r.res.ceil.OpenSSLVersion, "openssl ?"))
	r.p("- randp %s at commit %s%s; run started %s\n", or(run["randp"], "?"), or(run["commit"], "?"), dirtyNote(run["dirty"]), or(run["date"], "?"))
	r.p("- Load average (1 min) sampled during the run: %s. The machine is shared: anything above 0 is other work on the same cores.\n", r.res.load.describe())
	r.p("- Budget: %s.\n", or(run["describe"], "not recorded"))
	r.p("- Peers, built from their own source at bench time and never copied into the repository: ")
	var ps []string
	for _, p := range []string{"planet36-randp", "dcrd-crypto-rand", "unpredictable"} {
		if why := r.res.peers[p]; why != "" {
			ps = append(ps, p+" (not measured: "+why+")")
		} else {
			ps = append(ps, p+" (measured)")
		}
	}
	r.p("%s.\n\n", strings.Join(ps, ", "))
	r.p("Interleaving: the Go test binaries run in alternating passes of `-count 1` (every contestant gets one sample per pass, ")
	r.p("spread over the run); the C program runs its repetitions with Google Benchmark's random interleaving; criterion runs the ")
	r.p("contestants of a group one after another. Intervals: Go and C use benchstat's method (median, distribution-free 95%% interval ")
	r.p("from order statistics; fewer than 6 samples give none); Rust uses criterion's bootstrap interval of the median. ")
	r.p("The raw outputs (criterion's estimates, the Google Benchmark JSON, the go test output, openssl speed and aes-ceiling, ")
	r.p("the load samples and this run's record) are in [%s](%s); `make bench-report` re-renders this file from them.\n", r.resultsDir, r.resultsDir)
}
