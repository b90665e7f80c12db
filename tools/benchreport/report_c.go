package main

import "fmt"

// cRow is one contestant of a C table.
type cRow struct {
	key, label, ref string // ref: the key of planet36/randp's README rows
}

var cLabels = map[string]string{
	"randp":             "**randp** (`randp_*`)",
	"randp_dlopen":      "**randp** through a dlopen'ed librandp.so",
	"planet36":          "planet36/randp (3 AES rounds)",
	"arc4random_glibc":  "glibc 2.36 arc4random (getrandom system call per call)",
	"arc4random_libbsd": "libbsd arc4random",
	"openssl":           "OpenSSL `RAND_bytes`",
	"getentropy":        "`getentropy` (256 B per call)",
	"getrandom_vdso":    "getrandom through the vDSO",
	"getrandom_syscall": "getrandom system call",
	"rdrand32":          "`_rdrand32_step` (retried)",
	"rdseed32":          "`_rdseed32_step` (retried)",
}

func (r *report) cWhy(key string) string {
	if key == "planet36" && r.res.peers["planet36-randp"] != "" {
		return r.res.peers["planet36-randp"]
	}
	return r.res.c.why(key)
}

func (r *report) cTables() {
	c := r.res.c
	r.p("## %s\n\n", hCFill)
	r.p("C to C (benches/c, Google Benchmark): every library is called through a function pointer from the same C program, ")
	r.p("as planet36/randp's own benchmarks do. Time to generate 4 GiB at the measured rate, in 256 B calls (planet36/randp's method) and in 1 MiB calls. ")
	r.p("The reference columns quote planet36/randp's README (%s; %s), not this machine.\n\n", seed002[0].Label, seed002[1].Label)
	keys := []string{"randp", "planet36", "arc4random_glibc", "arc4random_libbsd", "openssl", "getentropy", "getrandom_vdso", "getrandom_syscall"}
	refKey := map[string]string{"randp": "randp_bytes", "arc4random_glibc": "arc4random_buf", "getentropy": "getentropy"}
	for _, sz := range []struct {
		name  string
		bytes float64
	}{{"256B", 256}, {"1MiB", 1 << 20}} {
		r.p("### Fill 4 GiB in %s calls\n\n", fmtBytes(sz.bytes))
		base := c.get("fill_" + sz.name + "/randp")
		t := &table{head: []string{"Function", "Time to generate 4 GiB", "Throughput", "randp is", "reference: README 2026", "reference: README 2024"}}
		for _, k := range keys {
			s := c.get("fill_" + sz.name + "/" + k)
			ra, rb := "", ""
			if sz.name == "256B" && refKey[k] != "" {
				ra = seedNum(seed002[0].FillMs, refKey[k], fmtMs)
				rb = seedNum(seed002[1].FillMs, refKey[k], fmtMs)
			}
			if !s.ok() {
				t.row(cLabels[k], notMeasured(r.cWhy(k)), "", "", ra, rb)
				continue
			}
			cmp := ""
			if k != "randp" {
				cmp = compare(base, s)
			}
			t.row(cLabels[k], fill4GiB(s, sz.bytes), gbps(s, sz.bytes), cmp, ra, rb)
		}
		r.p("%s\n", t)
	}

	r.p("## %s\n\n", hCSizes)
	r.p("One call filling 4 B to 4 KiB (the Go read sizes), ns per call. The vDSO getrandom is what glibc 2.41+ and Go 1.24+ ")
	r.p("use on Linux 6.11+; here it is called directly (benches/c/vdso_getrandom.c). Last column: randp against the vDSO.\n\n")
	sizeKeys := []string{"randp", "getrandom_vdso", "getrandom_syscall", "arc4random_libbsd", "arc4random_glibc", "openssl", "planet36"}
	head := []string{"Size"}
	for _, k := range sizeKeys {
		head = append(head, cLabels[k])
	}
	t := &table{head: append(head, "randp vs the vDSO")}
	for _, sz := range cReadSizes {
		cells := []string{fmtBytes(sz.bytes)}
		for _, k := range sizeKeys {
			cells = append(cells, timeCell(c.get("read_"+sz.name+"/"+k), r.cWhy(k)))
		}
		cells = append(cells, compare(c.get("read_"+sz.name+"/randp"), c.get("read_"+sz.name+"/getrandom_vdso")))
		t.row(cells...)
	}
	r.p("%s\n", t)

	r.p("## %s\n\n", hCWords)
	r.p("### Get a uniform random uint32_t\n\n")
	r.cWordTable("u32", []string{"randp", "planet36", "arc4random_glibc", "arc4random_libbsd", "getrandom_vdso", "openssl", "rdrand32", "rdseed32"},
		map[string]string{"randp": "randp_u32", "arc4random_glibc": "arc4random", "rdrand32": "rdrand32", "rdseed32": "rdseed32"},
		seed002[0].U32Ns, seed002[1].U32Ns)
	r.p("rdrand32 and rdseed32 wrap `_rdrand32_step` and `_rdseed32_step`, retried until they succeed, as planet36/randp's do; randp uses neither. ")
	r.p("Rows without a word call (the vDSO, OpenSSL) fill 4 or 8 bytes per call, as their users write it.\n\n")
	r.p("### Get a uniform random uint64_t\n\n")
	r.cWordTable("u64", []string{"randp", "randp_dlopen", "planet36", "arc4random_glibc", "arc4random_libbsd", "getrandom_vdso", "getrandom_syscall", "openssl"},
		nil, nil, nil)

	r.p("## %s\n\n", hCLt)
	r.p("`upper_bound` cycles through 1 ..= 0x100000, one call per iteration, as in planet36/randp's table.\n\n")
	r.cWordTable("lt_u32", []string{"randp", "planet36", "arc4random_glibc", "arc4random_libbsd"},
		map[string]string{"randp": "randp_lt_u32", "arc4random_glibc": "arc4random_uniform"}, seed002[0].LtNs, nil)

	r.p("## %s\n\n", hCThreads)
	r.p("Each thread draws from its own per-thread state; throughput counts the work of every thread (wall time).\n\n")
	t = &table{head: []string{"Work", "1 thread", "2 threads", "2 threads / 1 thread"}}
	for _, w := range []struct{ name, label string }{
		{"threads_fill_1MiB/randp", "randp_bytes, 1 MiB calls"}, {"threads_fill_1MiB/planet36", "planet36/randp randp_bytes, 1 MiB calls"},
		{"threads_u64/randp", "randp_u64"}, {"threads_u64/planet36", "planet36/randp randp_u64"},
	} {
		one, two := c.get(w.name+"/threads:1"), c.get(w.name+"/threads:2")
		if !one.ok() || !two.ok() {
			t.row(w.label, notMeasured(r.cWhy(keyOf(w.name))), "", "")
			continue
		}
		if size := opBytes(w.name); size > 0 {
			t.row(w.label, gbps(one, size), gbps(two, size), scaling(one, two))
		} else {
			t.row(w.label, spread(one)+" per value", spread(two)+" per value", scaling(one, two))
		}
	}
	r.p("%s\n", t)
	r.p("One generator behind a mutex against one per thread (planet36/randp's mutex benchmark, made with randp): ")
	r.p("`randp_u64` as it is, and `randp_u64` called under one global `pthread_mutex_t`, as a program that shares one generator between threads has it. ns per value, all threads together.\n\n")
	t = &table{head: []string{"Threads", "per-thread state", "one generator behind a mutex", "per-thread is"}}
	for _, n := range []string{"1", "2"} {
		a, b := c.get("mutex_u64/randp_thread_local/threads:"+n), c.get("mutex_u64/randp_mutex/threads:"+n)
		t.row(n, timeCell(a, ""), timeCell(b, ""), compare(a, b))
	}
	r.p("%s\n", t)
}

// scaling is the throughput of two threads over one, when their intervals separate.
func scaling(one, two stat) string {
	v, sep := ratioOf(one, two)
	if !sep {
		return noDifference
	}
	return sig(v) + "×"
}

func keyOf(name string) string {
	for i := len(name) - 1; i >= 0; i-- {
		if name[i] == '/' {
			return name[i+1:]
		}
	}
	return name
}

func (r *report) cWordTable(group string, keys []string, refKeys map[string]string, refA, refB map[string]float64) {
	c := r.res.c
	base := c.get(group + "/randp")
	head := []string{"Function", "Time per call", "randp is"}
	if refA != nil {
		head = append(head, "reference: README 2026")
	}
	if refB != nil {
		head = append(head, "reference: README 2024")
	}
	t := &table{head: head}
	for _, k := range keys {
		s := c.get(group + "/" + k)
		cells := []string{cLabels[k], timeCell(s, r.cWhy(k)), ""}
		if k != "randp" && s.ok() {
			cells[2] = compare(base, s)
		}
		nsf := func(v float64) string { return ns(v) }
		if refA != nil {
			cells = append(cells, seedNum(refA, refKeys[k], nsf))
		}
		if refB != nil {
			cells = append(cells, seedNum(refB, refKeys[k], nsf))
		}
		t.row(cells...)
	}
	r.p("%s\n", t)
}

var cReadSizes = []struct {
	name  string
	bytes float64
}{{"4B", 4}, {"8B", 8}, {"32B", 32}, {"512B", 512}, {"1KiB", 1024}, {"4KiB", 4096}}

func fmtMs(v float64) string {
	if v <= 0 {
		return "—"
	}
	if v >= 100 {
		return fmt.Sprintf("%.0f ms", v)
	}
	return fmt.Sprintf("%.1f ms", v)
}

func seedNum(m map[string]float64, k string, f func(float64) string) string {
	if v, ok := m[k]; ok && k != "" {
		return f(v)
	}
	return ""
}
