package main

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
)

// report assembles BENCHMARKS.md and its charts from one run's results.
type report struct {
	res         *results
	chartDir    string            // the charts' folder, relative to the report
	resultsDir  string            // the raw outputs' folder, relative to the report
	resultsRoot string            // the folder of every CPU's run (resultsDir's parent), when there are several
	others      []cpuRun          // the runs of the other CPUs, newest first
	charts      map[string]string // file name -> SVG
	chartErrs   []string
	losses      []loss // every comparison in which randp is significantly slower
	b           strings.Builder
}

// loss is one comparison of the report in which randp is slower.
type loss struct {
	what, verdict, heading string
}

func (r *report) p(format string, args ...any) { fmt.Fprintf(&r.b, format, args...) }

// vs compares randp with a rival (times, lower is better) as compare does,
// and records the comparison when randp is slower, for the first screen.
func (r *report) vs(heading, what string, randp, rival stat) string {
	v := compare(randp, rival)
	if strings.HasSuffix(v, "slower") {
		r.losses = append(r.losses, loss{what, fmt.Sprintf("%s (%s against %s)", v, ns(randp.Center), ns(rival.Center)), heading})
	}
	return v
}

// Section headings, linked from the first screen.
const (
	hSummary  = "If you use X today"
	hEveryCPU = "On every CPU kept"
	hLosses   = "Where randp is slower"
	hCost     = "What adopting randp costs"
	hBars     = "Speed targets"
	hCSweep   = "C: fill by call size, 4 B to 1 MiB"
	hCFill    = "C: fill 4 GiB (planet36/randp's table)"
	hCWords   = "C: one uniform word per call"
	hCLt      = "C: a uniform uint32_t below a bound"
	hRdrand   = "RDRAND against a getrandom extraction (the kernel's RDRAND patch)"
	hCThreads = "C: two threads, and one generator behind a mutex"
	hRust     = "Rust: randp's API beside rand and getrandom"
	hCeiling  = "The AES-256-CTR ceiling of this CPU"
	hBackends = "randp on each keystream backend this CPU runs"
	hGoSrc    = "Go: math/rand sources that cannot be seeded"
	hGoV2     = "Go: math/rand/v2 sources"
	hGoRead   = "Go: Read at decred dcrd's sizes"
	hGoSweep  = "Go: Read by call size, 16 B to 1 MiB"
	hGoFuncs  = "Go: bounded functions as dcrd measures them"
	hGoPar    = "Go: package-level functions in parallel"
	hGoPure   = "Go: the pure-Go path"
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

// cpuName is the CPU as the first screen and the targets name it: model
// name, microarchitecture, family/model/stepping.
func (r *report) cpuName() string {
	run := r.res.run
	s := or(run["cpu"], "CPU not recorded")
	if u := run["uarch"]; u != "" {
		s += ", " + strings.SplitN(u, ":", 2)[0]
	}
	if id := run["cpu_id"]; id != "" {
		s += " (" + strings.SplitN(id, ",", 2)[0] + ")"
	}
	return s
}

func (r *report) markdown() string {
	// The tables first, which collect every loss; then the first screen,
	// which lists them, above the tables.
	r.bars()
	r.missesExplained()
	r.cTables()
	r.rustTables()
	r.ceilingTable()
	r.backendsTable()
	r.goTables()
	r.sweeps()
	r.method()
	body := r.b.String()
	r.b.Reset()

	r.text("header")
	r.summary()
	r.lossList()
	r.costs()
	r.b.WriteString(body)
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

// glibcVersion is the run's glibc version ("2.36"), or "".
func (r *report) glibcVersion() string {
	return strings.TrimPrefix(r.res.run["glibc"], "glibc ")
}

// glibcHasVDSO reports whether the run's glibc gets random bytes from the
// vDSO (2.41 and later); false when unknown.
func (r *report) glibcHasVDSO() bool {
	maj, min, ok := strings.Cut(r.glibcVersion(), ".")
	a, err1 := strconv.Atoi(maj)
	b, err2 := strconv.Atoi(min)
	return ok && err1 == nil && err2 == nil && (a > 2 || (a == 2 && b >= 41))
}

// glibcLabel names a glibc function with the version measured and what it
// does there.
func (r *report) glibcLabel(fn string) string {
	v := r.glibcVersion()
	if v == "" {
		return "glibc `" + fn + "` (version not recorded)"
	}
	if r.glibcHasVDSO() {
		return fmt.Sprintf("glibc %s `%s` (the getrandom vDSO)", v, fn)
	}
	return fmt.Sprintf("glibc %s `%s` (a getrandom system call per call; glibc ≥ 2.41 uses the vDSO)", v, fn)
}

// ---- the first screen ----

type summaryRow struct {
	you, work   string
	rival, mine stat
	why         string // why the rival is not measured
	heading     string
}

func (r *report) summary() {
	r.text("summary")
	groups := r.summaryGroups()
	for _, g := range groups {
		r.p("%s\n\n", g.title)
		r.summaryTable(g.rows)
	}
	r.everyCPU(groups)
}

// summaryGroup is one language's rows of the first screen.
type summaryGroup struct {
	title string
	rows  []summaryRow
}

// summaryGroups is the first screen's rows, by language.
func (r *report) summaryGroups() []summaryGroup {
	res := r.res
	var groups []summaryGroup
	goR, goP, goD, c := res.goRandp, res.goPeers, res.goDcrd, res.c
	dcrdWhy, unpWhy, p36Why := res.peers["dcrd-crypto-rand"], res.peers["unpredictable"], res.peers["planet36-randp"]

	groups = append(groups, summaryGroup{"**Go** (`randp` = `github.com/randp/randp/go`, cgo, as the module builds by default)", []summaryRow{
		{"crypto/rand.Read (Go " + strings.TrimPrefix(res.run["go"], "go") + ", the vDSO)", "4 B", goR.get("StdlibRead/4b"), goR.get("RandpRead/4b"), "", hGoRead},
		{"crypto/rand.Read", "32 B", goR.get("StdlibRead/32b"), goR.get("RandpRead/32b"), "", hGoRead},
		{"crypto/rand.Read", "4 KiB", goR.get("StdlibRead/4KiB"), goR.get("RandpRead/4KiB"), "", hGoRead},
		{"crypto/rand.Read as Go ≤ 1.23 did it (a getrandom system call per Read)", "32 B", goP.get("GetrandomRead/32b"), goR.get("RandpRead/32b"), "", hGoRead},
		{"a pure-Go AES-CTR reader of your own (one per goroutine)", "4 B", goR.get("AESCTRRead/4b"), goR.get("RandpRead/4b"), "", hGoRead},
		{"math/rand/v2 ChaCha8 `Read` (one per goroutine)", "4 B", goR.get("ChaCha8Read/4b"), goR.get("RandpRead/4b"), "", hGoRead},
		{"math/rand `rand.New(rand.NewSource(1)).Int63()`", "one value", goR.get("MathRand"), goR.get("RandpBufRand"), "", hGoSrc},
		{"math/rand/v2 `rand.New(rand.NewChaCha8(seed)).Uint64()`", "one value", goR.get("V2Uint64/src=ChaCha8"), goR.get("V2Uint64/src=RandpSource"), "", hGoV2},
		{"math/rand/v2 `rand.New(rand.NewPCG(1, 2)).Uint64()` (predictable)", "one value", goR.get("V2Uint64/src=PCG"), goR.get("V2Uint64/src=RandpSource"), "", hGoV2},
		{"math/rand/v2 `rand.Uint64()`", "one value", goR.get("Uint64/impl=MathRandV2"), goR.get("Uint64/impl=Randp"), "", hGoPar},
		{"decred dcrd crypto/rand `Read`", "32 B", goD.get("DcrdRead/32b"), goR.get("RandpRead/32b"), dcrdWhy, hGoRead},
		{"decred dcrd crypto/rand `Uint32N`", "one value", goD.get("Uint32N"), goR.get("Uint32N"), dcrdWhy, hGoFuncs},
		{"art4711/unpredictable as a math/rand Source", "one value", goP.get("Unpredictable"), goR.get("RandpBufRand"), unpWhy, hGoSrc},
		{"art4711/unpredictable `Read`", "2 MiB", goP.get("ReadUnpredictable"), goR.get("ReadRandp"), unpWhy, hGoSrc},
	}})

	p36 := or(p36Why, c.why("planet36"))
	rows := []summaryRow{
		{r.glibcLabel("arc4random_buf"), "256 B", c.get("fill_256B/arc4random_glibc"), c.get("fill_256B/randp"), c.why("arc4random_glibc"), hCSweep},
		{r.glibcLabel("arc4random"), "uint32_t", c.get("u32/arc4random_glibc"), c.get("u32/randp"), c.why("arc4random_glibc"), hCWords},
		{r.glibcLabel("getentropy"), "256 B", c.get("fill_256B/getentropy"), c.get("fill_256B/randp"), c.why("getentropy"), hCSweep},
	}
	if !r.glibcHasVDSO() {
		rows = append(rows,
			summaryRow{"glibc ≥ 2.41 `arc4random_buf` / `getentropy` (the getrandom vDSO: its row here)", "256 B", c.get("fill_256B/getrandom_vdso"), c.get("fill_256B/randp"), c.why("getrandom_vdso"), hCSweep},
			summaryRow{"glibc ≥ 2.41 `arc4random` (the vDSO, 4 bytes per call: its row here)", "uint32_t", c.get("u32/getrandom_vdso"), c.get("u32/randp"), c.why("getrandom_vdso"), hCWords})
	}
	rows = append(rows,
		summaryRow{"libbsd `arc4random_buf`", "256 B", c.get("fill_256B/arc4random_libbsd"), c.get("fill_256B/randp"), c.why("arc4random_libbsd"), hCSweep},
		summaryRow{"libbsd `arc4random_uniform`", "uint32_t below a bound", c.get("lt_u32/arc4random_libbsd"), c.get("lt_u32/randp"), c.why("arc4random_libbsd"), hCLt},
		summaryRow{"getrandom through the vDSO", "32 B", c.get("fill_32B/getrandom_vdso"), c.get("fill_32B/randp"), c.why("getrandom_vdso"), hCSweep},
		summaryRow{"getrandom through the vDSO", "4 KiB", c.get("fill_4KiB/getrandom_vdso"), c.get("fill_4KiB/randp"), c.why("getrandom_vdso"), hCSweep},
		summaryRow{"OpenSSL `RAND_bytes`", "32 B", c.get("fill_32B/openssl"), c.get("fill_32B/randp"), c.why("openssl"), hCSweep},
		summaryRow{"planet36/randp `randp_u64`", "uint64_t", c.get("u64/planet36"), c.get("u64/randp"), p36, hCWords},
	)
	for _, sz := range []string{"16B", "256B", "512B", "1KiB", "2KiB", "4KiB", "64KiB", "1MiB"} {
		rows = append(rows, summaryRow{"planet36/randp `randp_bytes` (3 AES rounds)", fmtBytes(parseSize(sz)) + " per call",
			c.get("fill_" + sz + "/planet36"), c.get("fill_" + sz + "/randp"), p36, hCSweep})
	}
	rows = append(rows, summaryRow{"randp linked statically, against randp through a dlopen'ed librandp.so", "`randp_u64`",
		c.get("u64/randp"), c.get("u64/randp_dlopen"), c.why("randp_dlopen"), hCWords})
	groups = append(groups, summaryGroup{"**C** (`randp` = randp's C ABI, `randp.h`, linked statically unless the row says otherwise)", rows})

	cr := res.crit
	return append(groups, summaryGroup{"**Rust** (`randp` = the `randp` crate)", []summaryRow{
		{"rand `ThreadRng` (`rand::rng()`)", "u32", cr.get("u32", "rand_ThreadRng").PerElement(), cr.get("u32", "randp_u32").PerElement(), "", hRust},
		{"rand `ThreadRng`", "u64", cr.get("u64", "rand_ThreadRng").Time, cr.get("u64", "randp_u64").Time, "", hRust},
		{"rand `ThreadRng` `random_range`", "u32 below a bound", cr.get("lt_u32", "rand_random_range").Time, cr.get("lt_u32", "randp_lt_u32").Time, "", hRust},
		{"rand `ThreadRng` `random_range`", "u64 below a bound", cr.get("lt_u64", "rand_random_range").Time, cr.get("lt_u64", "randp_lt_u64").Time, "", hRust},
		{"rand `ThreadRng`", "fill 256 B", cr.get("fill_256B", "rand_ThreadRng").Time, cr.get("fill_256B", "randp_bytes").Time, "", hRust},
		{"rand `ThreadRng`", "fill 1 MiB", cr.get("fill_1MiB", "rand_ThreadRng").Time, cr.get("fill_1MiB", "randp_bytes").Time, "", hRust},
		{"rand `StdRng` (ChaCha12)", "u64", cr.get("u64", "rand_StdRng").Time, cr.get("u64", "randp_u64").Time, "", hRust},
		{"getrandom crate", "u64", cr.get("u64", "getrandom_crate").Time, cr.get("u64", "randp_u64").Time, "", hRust},
		{"getrandom crate", "fill 256 B", cr.get("fill_256B", "getrandom_crate").Time, cr.get("fill_256B", "randp_bytes").Time, "", hRust},
	}})
}

// verdict is how randp compares with the rival of the row.
func (row summaryRow) verdict() string {
	if !row.rival.ok() || !row.mine.ok() {
		return notMeasured(row.why)
	}
	return compare(row.mine, row.rival)
}

func (r *report) summaryTable(rows []summaryRow) {
	t := &table{head: []string{"If you use today", "for", "it takes", "randp takes", "randp is"}}
	for _, row := range rows {
		t.row(row.you, row.work, ns(row.rival.Center), ns(row.mine.Center), link(or(boldRatio(row.verdict()), "—"), row.heading))
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

// lossList is every comparison of the report in which randp is slower,
// after the call sizes at which randp wins or loses against planet36/randp.
func (r *report) lossList() {
	r.text("losses")
	r.fillVerdicts()
	if len(r.losses) == 0 {
		r.p("In this run on the %s, randp is significantly slower in no comparison of this report.\n\n", r.cpuName())
		return
	}
	r.p("Every comparison of this report in which randp is significantly slower (the intervals do not overlap), on the %s:\n\n", r.cpuName())
	t := &table{head: []string{"Where", "randp is"}}
	seen := map[string]bool{}
	for _, l := range r.losses {
		if seen[l.what] {
			continue
		}
		seen[l.what] = true
		t.row(link(l.what, l.heading), "**"+l.verdict+"**")
	}
	r.p("%s\n", t)
}

// fillVerdicts groups the C fill sizes 16 B .. 1 MiB by randp's verdict
// against planet36/randp.
func (r *report) fillVerdicts() {
	if r.res.peers["planet36-randp"] != "" {
		return
	}
	groups := map[string][]string{}
	for n := 16.0; n <= 1<<20; n *= 2 {
		name := r.res.c.fillTable(n)
		ratio, sep, _ := r.fillRatio(n)
		var v string
		switch {
		case ratio == 0:
			continue
		case !sep:
			v = "no significant difference"
		case ratio < 1:
			v = "slower"
		default:
			v = "faster"
		}
		cell := fmtBytes(n)
		if f, of := r.perProcess(name+"randp", name+"planet36"); of > 0 {
			cell += fmt.Sprintf(" (%d of %d)", f, of)
		}
		groups[v] = append(groups[v], cell)
	}
	if len(groups) == 0 {
		return
	}
	r.p("C fill against planet36/randp (3 AES rounds) by call size, on the %s", r.cpuName())
	if note := r.res.c.turnsNote(); note != "" {
		r.p(", %s", note)
	}
	r.p("; in parentheses, the processes in which randp was the faster:\n\n")
	for _, v := range []string{"slower", "no significant difference", "faster"} {
		if len(groups[v]) > 0 {
			label := map[string]string{"slower": "**slower**", "faster": "faster", "no significant difference": "no significant difference"}[v]
			r.p("- %s: %s\n", label, strings.Join(groups[v], ", "))
		}
	}
	r.p("\n")
}

// costs is what a user takes on with randp, beside the speed.
func (r *report) costs() {
	_, pureWhy := r.res.purego()
	r.text("costs", "PureWhy", pureWhy)
}

// ---- how it was measured ----

func (r *report) method() {
	var ps []string
	for _, p := range []string{"planet36-randp", "dcrd-crypto-rand", "unpredictable"} {
		if why := r.res.peers[p]; why != "" {
			ps = append(ps, p+" (not measured: "+why+")")
		} else {
			ps = append(ps, p+" (measured; "+or(peerSource(r.res.peerFrom[p]), "source not recorded")+")")
		}
	}
	r.text("method", "Hypervisor", strings.Contains(" "+r.res.run["cpu_flags"]+" ", " hypervisor "),
		"Impl", r.res.goRandp.implementation(), "PuregoStatus", r.res.puregoStatus, "BuildType", r.res.c.buildType(),
		"OpenSSL", r.res.ceil.OpenSSLVersion, "Peers", strings.Join(ps, ", "), "Syscall", syscallSummary(r.res.syscallCheck))
}

// syscallSummary is the seccomp test's verdict, from its output.
func syscallSummary(out string) string {
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "getrandomRead:") || strings.HasPrefix(l, "control") {
			lines = append(lines, strings.TrimSpace(l))
		}
	}
	if len(lines) == 0 || !strings.Contains(out, "--- PASS") {
		return "**not verified in this run** (benches/go's seccomp test did not pass or did not run)."
	}
	return "verified in this run by benches/go's seccomp test: " + strings.Join(lines, "; ") + "."
}

func quoted(s string) string {
	if s == "" {
		return ""
	}
	return fmt.Sprintf("%q", s)
}

// peerSource is where a peer's source came from as the report names it:
// the upstream repository and commit, without the local folder it was read
// from ("../peers/x, a snapshot of URL@commit" -> "a snapshot of URL@commit"),
// which means nothing to a reader of the report.
func peerSource(from string) string {
	if local, rest, ok := strings.Cut(from, ", "); ok && !strings.Contains(local, "://") {
		return rest
	}
	return from
}
