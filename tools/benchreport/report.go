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

	run := r.res.run
	r.p("# Benchmarks\n\n")
	r.p("randp beside what its users call today, measured side by side in one run on one machine: **%s**, %s cores, ",
		r.cpuName(), or(run["nproc"], "?"))
	r.p("randp's `%s` keystream kernel. Commit %s%s, %s. Written by `make bench` from the raw outputs in [%s](%s); not edited by hand.\n\n",
		or(run["backend"], "?"), or(run["commit"], "?"), dirtyNote(run["dirty"]), or(run["date"], "date not recorded"), r.resultsDir, r.resultsDir)
	r.p("Every number is the median of %s samples, each from its own process, with the 95%% confidence interval of the median from ", or(run["passes"], "?"))
	r.p("order statistics, `median [low, high]`, in every language (see [%s](%s)). A ratio is given only where the two intervals ", hMethod, anchor(hMethod))
	r.p("do not overlap; otherwise the cell says \"%s\". Ratios are time ratios: \"3.1× faster\" means the other takes 3.1 times as long ", noDifference)
	r.p("as randp, \"1.2× slower\" that randp takes 1.2 times as long. Load average during the run: %s.\n\n", r.res.load.describe())

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
	r.p("## %s\n\n", hSummary)
	r.p("How much faster or slower randp is than what you call today, for the same work, on the %s; each row links to its full table. ", r.cpuName())
	r.p("The rows where randp is slower are here too, and every other loss of the report is listed [below](%s).\n\n", anchor(hLosses))
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
	r.p("## %s\n\n", hLosses)
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
	r.p("## %s\n\n", hCost)
	_, pureWhy := r.res.purego()
	r.p("- **Go**: the default build links randp's Rust library through cgo: it needs `CGO_ENABLED=1`, a C compiler and glibc, ")
	r.p("on linux/amd64 or linux/arm64, and links the prebuilt static library committed in the module (`go/lib/`, built from this tree). ")
	if pureWhy == "" {
		r.p("Elsewhere the pure-Go path is used ([its numbers](%s)).\n", anchor(hGoPure))
	} else {
		r.p("A pure-Go path: %s.\n", pureWhy)
	}
	r.p("- **Memory**: one page (4 KiB) of state per thread that draws, mapped on its first draw and released when the thread exits; ")
	r.p("droppable (Linux ≥ 6.11) or wiped on fork and locked where RLIMIT_MEMLOCK allows. On Linux, three more pages (12 KiB) per thread ")
	r.p("that draws more than one buffer, locked in memory (RLIMIT_MEMLOCK), into which its buffer grows; where the limit refuses them, ")
	r.p("the buffer stays on the state page.\n")
	r.p("- **C**: building the library needs a Rust toolchain (using it does not): `build/librandp.a` or `librandp.so`; a call through ")
	r.p("a dlopen'ed librandp.so costs what a call from the executable into another object costs on the CPU, whatever the function does ")
	r.p("(the `randp_u64` rows above, and %s).\n", link("a function that does nothing in both places", hCWords))
	r.p("- **Rust**: one crate with no build script (aes, ctr, cpufeatures, libc, rand_core, zeroize), Rust 1.89 or newer; Linux only (x86_64, aarch64).\n\n")
}

// ---- how it was measured ----

func (r *report) method() {
	run := r.res.run
	r.p("## %s\n\n", hMethod)
	r.p("- CPU: %s; %s; %s cores (a VM: the hypervisor flag is %s)\n", or(run["cpu"], "?"), or(run["cpu_id"], "family/model not recorded"), or(run["nproc"], "?"),
		map[bool]string{true: "set", false: "not set"}[strings.Contains(" "+run["cpu_flags"]+" ", " hypervisor ")])
	r.p("- Microarchitecture: %s\n", or(run["uarch"], "not known for this family/model"))
	r.p("- CPU flags: %s; the flags randp's keystream dispatch reads (aes, ssse3, avx2, avx512f, avx512bw, vaes): %s; randp's backend: `%s`\n",
		or(run["cpu_flags"], "?"), or(run["backend_flags"], "?"), or(run["backend"], "?"))
	r.p("- %s; %s (`%s`)\n", or(run["kernel"], "kernel ?"), or(run["libc"], "libc ?"), or(run["glibc"], "?"))
	r.p("- Rust: %s; cargo bench profile: %s\n", or(run["rustc"], "rustc ?"), or(run["cargo_bench_profile"], "not recorded"))
	r.p("- Go: %s (`go env GOVERSION`); %s (benches/go); the default build's binary reports randp.Implementation() = %s; the pure-Go build: %s\n",
		or(run["go"], "?"), or(run["xsys"], "golang.org/x/sys ?"), or(quoted(r.res.goRandp.implementation()), "nothing (this tree has no randp.Implementation)"),
		or(r.res.puregoStatus, "?"))
	r.p("- C: %s; C++: %s; Google Benchmark: %s, the library reports build type \"%s\" (Debian builds it without NDEBUG; the timing loop ", or(run["compiler"], "?"),
		or(run["cxx"], "?"), or(run["gbench"], "?"), or(r.res.c.buildType(), "?"))
	r.p("is inlined into benches/c/bench_c.cc, built with -O2); %s; %s (%s)\n", or(run["libbsd"], "libbsd ?"), or(r.res.ceil.OpenSSLVersion, "openssl ?"), or(run["openssl_pkg"], "?"))
	r.p("- randp %s at commit %s%s; run started %s\n", or(run["randp"], "?"), or(run["commit"], "?"), dirtyNote(run["dirty"]), or(run["date"], "?"))
	r.p("- Load average (1 min) sampled during the run: %s. The machine is shared: the benchmark's own thread accounts for about 1.0 ", r.res.load.describe())
	r.p("of it (2.0 during the two-thread rows); anything above that is other work on the same cores.\n")
	r.p("- Budget: %s.\n", or(run["describe"], "not recorded"))
	r.p("- Peers, built from their own source at bench time and never copied into the repository: ")
	var ps []string
	for _, p := range []string{"planet36-randp", "dcrd-crypto-rand", "unpredictable"} {
		if why := r.res.peers[p]; why != "" {
			ps = append(ps, p+" (not measured: "+why+")")
		} else {
			ps = append(ps, p+" (measured; "+or(peerSource(r.res.peerFrom[p]), "source not recorded")+")")
		}
	}
	r.p("%s.\n", strings.Join(ps, ", "))
	r.p("- The \"before Go 1.24\" crypto/rand column: %s\n\n", syscallSummary(r.res.syscallCheck))
	r.p("One evidence standard for Rust, C, Go and the AES references: every contestant is measured in %s passes, each pass ", or(run["passes"], "?"))
	r.p("starting a new process of every benchmark program (criterion binaries, the C program, the Go test binaries, openssl speed, aes-ceiling), ")
	r.p("the programs of a pass one after another and the passes one after another, so that the samples of every contestant spread over ")
	r.p("the whole run and each comes from its own process (its own memory layout, which decides some mid-size rows). Inside a pass, the C program ")
	r.p("runs its benchmarks in random order (Google Benchmark's random interleaving) and the Go and criterion binaries in their fixed order. ")
	r.p("A pass's sample is one measurement: criterion's median of its samples in that process, one Google Benchmark repetition, one ")
	r.p("`go test -count 1` result, one openssl speed run, one aes-ceiling repetition. Every number is the median of the samples with the ")
	r.p("distribution-free 95%% interval of the median from order statistics (benchstat's method; fewer than 6 samples give none), and every time ")
	r.p("is wall-clock time (criterion and Go measure wall time; the C program uses real time; openssl speed runs with `-elapsed`; aes-ceiling's wall column). ")
	r.p("The parameter sweeps run in one process each (medians only: they compare parameters, not contestants). ")
	r.p("The raw outputs (criterion's estimates per pass, the Google Benchmark JSON per pass, the go test output, openssl speed and aes-ceiling, ")
	r.p("the seccomp check, the load samples and this run's record) are in [%s](%s); `make bench-report` re-renders this file from them.\n", r.resultsDir, r.resultsDir)
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
