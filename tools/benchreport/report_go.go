package main

import (
	"fmt"
	"runtime"
	"strings"
)

// ---- Go: seed 003 ----

func (r *report) goUnpredictable() error {
	r.p("## Go: unpredictable sources (seed 003)\n\n")
	r.p("`go test -bench` in `go/`, median ns/op of %d runs (`-count`); GOMAXPROCS %s. Every row is ", r.goRuns(), strings.TrimPrefix(r.procs(), "-"))
	r.p("`rand.New(SOURCE).Int63()` with math/rand, as in the seed. *seed 1* and *seed 2* are the seed's two runs on %s; ", seed003.Machine)
	r.p("its `Unpredictable` row (a buffered pure-Go arc4random) stands beside RandpBufRand.\n\n")
	base := r.goMedian("MathRand")
	t := &table{head: []string{"Benchmark", "ns/op", "vs MathRand", "seed 1", "seed 2", "What it is"}}
	rows := []struct{ name, seedKey, what string }{
		{"MathRand", "MathRand", "math/rand `rand.NewSource(1)` (predictable)"},
		{"CryptoRand", "CryptoRand", "crypto/rand.Reader through encoding/binary.Read"},
		{"LibcRand", "LibcRand", "one cgo call to glibc arc4random_buf per value"},
		{"LibcBufRand", "LibcBufRand", "256 values per cgo arc4random_buf call"},
		{"CryptoBufRand", "CryptoBufRand", "CryptoRand with the 256-value buffer"},
		{"COverhead", "COverhead", "an empty cgo call"},
		{"CryptoCastRand", "CryptoCastRand", "crypto/rand.Read into [8]byte"},
		{"RandpRand", "", "randp.UnbufferedSource(): one cgo call per value"},
		{"RandpBufRand", "Unpredictable", "randp.Source(): 4 KiB Go-side buffer"},
		{"AESCTRBufRand", "", "pure-Go crypto/aes CTR, 4 KiB buffer"},
	}
	for _, row := range rows {
		v := r.goMedian(row.name)
		if v <= 0 {
			t.row(row.name, "skipped", "", "", "", row.what)
			continue
		}
		f := func(x float64) string { return ns(x) }
		t.row(row.name, ns(v), ratioX(v, base), seedNum(seed003.Runs[0], row.seedKey, f), seedNum(seed003.Runs[1], row.seedKey, f), row.what)
	}
	r.p("%s\n", t)

	r.p("Reading 2 MiB per call through an io.Reader:\n\n")
	t = &table{head: []string{"Benchmark", "ns/op", "MB/s", "seed (ns/op, MB/s)"}}
	for _, row := range []struct{ name, seedKey string }{
		{"ReadMathRand", "ReadMathRand"}, {"ReadRandp", "ReadUnpredictable"}, {"ReadAESCTR", ""},
	} {
		v := r.goMedian(row.name)
		if v <= 0 {
			continue
		}
		s := ""
		if sv, ok := seed003.Read[row.seedKey]; ok {
			s = fmt.Sprintf("%s, %.0f MB/s (%s)", ns(sv[0]), sv[1], strings.Replace(row.seedKey, "Unpredictable", "Unpredictable", 1))
		}
		t.row(row.name, ns(v), fmt.Sprintf("%.0f", 2<<20/v*1e3), s)
	}
	r.p("%s\n", t)

	r.p("What a Go user would pick today, with math/rand/v2: `rand.New(SOURCE).Uint64()`.\n\n")
	base = r.goMedian("V2Uint64/src=ChaCha8")
	t = &table{head: []string{"Source", "ns/op", "vs ChaCha8"}}
	for _, s := range []struct{ name, label string }{
		{"ChaCha8", "rand.NewChaCha8 (math/rand/v2)"}, {"PCG", "rand.NewPCG (predictable)"},
		{"AESCTR", "pure-Go crypto/aes CTR, 4 KiB buffer"}, {"RandpSource", "randp.Source()"},
		{"RandpUnbuffered", "randp.UnbufferedSource()"},
	} {
		v := r.goMedian("V2Uint64/src=" + s.name)
		if v > 0 {
			t.row(s.label, ns(v), ratioX(v, base))
		}
	}
	r.p("%s\n", t)

	out, err := benchstat(r.goFile, func(n string) (string, bool) {
		for _, k := range []string{"MathRand", "CryptoRand", "LibcRand", "LibcBufRand", "CryptoBufRand", "COverhead",
			"CryptoCastRand", "RandpRand", "RandpBufRand", "AESCTRBufRand", "ReadMathRand", "ReadRandp", "ReadAESCTR"} {
			if n == k {
				return n, true
			}
		}
		return "", false
	}, []string{"B/op", "allocs/op", "MB/s"})
	if err != nil {
		return err
	}
	r.p("<details><summary>benchstat</summary>\n\n```\n%s\n```\n\n", out)
	out, err = benchstat(r.goFile, func(n string) (string, bool) {
		return n, strings.HasPrefix(n, "V2Uint64/")
	}, nil, "-col", "/src")
	if err != nil {
		return err
	}
	r.p("```\n%s\n```\n\n</details>\n\n", out)
	return nil
}

// ratioX is a/b as "1.23×".
func ratioX(a, b float64) string {
	if a <= 0 || b <= 0 {
		return ""
	}
	return sig(a/b) + "×"
}

func (r *report) procs() string {
	for _, n := range r.gores.order {
		g, _ := r.gores.get(n)
		return g.Procs
	}
	return ""
}

// ---- Go: seed 000 ----

var readImpls = []string{"StdlibRead", "RandpRead", "RandpReadUnbuffered", "ChaCha8Read", "AESCTRRead"}

func (r *report) goDcrd() error {
	r.p("## Go: decred dcrd's table (seed 000)\n\n")
	r.p("Read at seed 000's sizes: crypto/rand.Read (`StdlibRead`; %s, which uses the getrandom vDSO on Linux 6.11 and later), ", runtime.Version())
	r.p("randp.Read (`RandpRead`), one cgo call per Read (`RandpReadUnbuffered`), math/rand/v2 ChaCha8 (`ChaCha8Read`) and a buffered ")
	r.p("pure-Go AES-CTR reader (`AESCTRRead`). Median ns/op. The *seed* columns are dcrd's `new` run (%s).\n\n", seed000.Machine)
	t := &table{head: []string{"Size", "StdlibRead", "RandpRead", "RandpReadUnbuffered", "ChaCha8Read", "AESCTRRead",
		"RandpRead vs StdlibRead", "seed StdlibRead", "seed DcrdRead", "seed DcrdReadPRNG"}}
	for _, size := range chartSizes {
		cells := []string{size.name}
		for _, im := range readImpls {
			cells = append(cells, ns(r.goMedian(im+"/"+size.name)))
		}
		cells = append(cells, faster(r.goMedian("RandpRead/"+size.name), r.goMedian("StdlibRead/"+size.name)))
		f := func(x float64) string { return ns(x) }
		cells = append(cells, seedNum(seed000.New, "StdlibRead/"+size.name, f), seedNum(seed000.New, "DcrdRead/"+size.name, f),
			seedNum(seed000.New, "DcrdReadPRNG/"+size.name, f))
		t.row(cells...)
	}
	r.p("%s\n", t)
	r.p("![ns per Read against read size](%s)\n\n", r.svgPath)

	r.p("The package-level functions with random non-power-of-two bounds, randp beside math/rand/v2's top-level functions ")
	r.p("(`RandV2…`; math/rand/v2 has no Duration, so its row is `rand.N(time.Duration)`). ShuffleSlice shuffles 100 elements; ns/op is per element.\n\n")
	t = &table{head: []string{"Benchmark", "randp", "math/rand/v2", "randp vs math/rand/v2", "seed old", "seed new"}}
	for _, fn := range []string{"Int32N", "Uint32N", "Int64N", "Uint64N", "Duration", "ShuffleSlice"} {
		a, b := r.goMedian(fn), r.goMedian("RandV2"+fn)
		f := func(x float64) string { return ns(x) }
		t.row(fn, ns(a), ns(b), faster(a, b), seedNum(seed000.Old, fn, f), seedNum(seed000.New, fn, f))
	}
	r.p("%s\n", t)

	out, err := benchstat(r.goFile, func(n string) (string, bool) {
		impl, size, ok := strings.Cut(n, "/")
		if !ok {
			return "", false
		}
		for _, im := range readImpls {
			if impl == im {
				return "Read/size=" + size + "/impl=" + impl, true
			}
		}
		return "", false
	}, nil, "-col", "/impl@("+strings.Join(readImpls, " ")+")", "-row", "/size")
	if err != nil {
		return err
	}
	r.p("<details><summary>benchstat</summary>\n\n```\n%s\n```\n\n", out)
	out, err = benchstat(r.goFile, func(n string) (string, bool) {
		for _, fn := range []string{"Int32N", "Uint32N", "Int64N", "Uint64N", "Duration", "ShuffleSlice"} {
			switch n {
			case fn:
				return "Func/fn=" + fn + "/impl=Randp", true
			case "RandV2" + fn:
				return "Func/fn=" + fn + "/impl=MathRandV2", true
			}
		}
		return "", false
	}, nil, "-col", "/impl@(MathRandV2 Randp)", "-row", "/fn")
	if err != nil {
		return err
	}
	r.p("```\n%s\n```\n\n</details>\n\n", out)
	return nil
}

// ---- Go: parallel ----

func (r *report) goParallel() error {
	r.p("## Go: package-level functions, one goroutine and in parallel\n\n")
	r.p("Goroutine-safe package-level functions: `Uint64` (crypto/rand: Read into 8 bytes) with one goroutine and under ")
	r.p("`b.RunParallel` on every P, and Read of 32 bytes under `b.RunParallel` (math/rand/v2 has no global Read: a ChaCha8 per goroutine). ")
	r.p("Median ns/op; in parallel rows ns/op is wall time per operation across all goroutines.\n\n")
	t := &table{head: []string{"Benchmark", "math/rand/v2", "randp", "crypto/rand", "randp vs math/rand/v2"}}
	for _, bm := range []struct{ name, v2 string }{
		{"Uint64", "MathRandV2"}, {"ParallelUint64", "MathRandV2"}, {"ParallelRead32", "MathRandV2ChaCha8"},
	} {
		a, b, c := r.goMedian(bm.name+"/impl="+bm.v2), r.goMedian(bm.name+"/impl=Randp"), r.goMedian(bm.name+"/impl=CryptoRand")
		t.row(bm.name, ns(a), ns(b), ns(c), ratioX(b, a))
	}
	r.p("%s\n", t)
	out, err := benchstat(r.goFile, func(n string) (string, bool) {
		base, impl, ok := strings.Cut(n, "/impl=")
		if !ok || (base != "Uint64" && base != "ParallelUint64" && base != "ParallelRead32") {
			return "", false
		}
		if impl == "MathRandV2ChaCha8" {
			impl = "MathRandV2"
		}
		return base + "/impl=" + impl, true
	}, nil, "-col", "/impl@(MathRandV2 Randp CryptoRand)", "-row", ".name")
	if err != nil {
		return err
	}
	r.p("<details><summary>benchstat</summary>\n\n```\n%s\n```\n\n</details>\n\n", out)
	return nil
}
