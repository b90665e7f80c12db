package main

import (
	"fmt"
	"strings"
)

func (r *report) goTables() {
	res := r.res
	goR, goP, goD := res.goRandp, res.goPeers, res.goDcrd
	unpWhy, dcrdWhy := res.peers["unpredictable"], res.peers["dcrd-crypto-rand"]
	procs := strings.TrimPrefix(goR.procsOr(), "-")

	r.p("## %s\n\n", hGoSrc)
	r.p("`go test -bench`, %d interleaved passes of `-count 1`, GOMAXPROCS %s; ns/op, median [95%% interval]. Every row is `rand.New(SOURCE).Int63()` ", goR.runs(), procs)
	r.p("with math/rand, as in \"How slow are decent random numbers?\"; its two runs (%s) are the reference columns. ", seed003.Machine)
	r.p("`Unpredictable` is that article's own pure-Go arc4random (art4711/unpredictable), built from its source.\n\n")
	base := goR.get("RandpBufRand")
	t := &table{head: []string{"Benchmark", "What it is", "ns/op", "randp.Source() is", "reference: run 1", "reference: run 2"}}
	f := func(x float64) string { return ns(x) }
	for _, row := range []struct {
		set       *goSet
		name, ref string
		what, why string
	}{
		{goR, "RandpBufRand", "", "**randp** `randp.Source()`: 4 KiB Go-side buffer", ""},
		{goR, "RandpRand", "", "**randp** `randp.UnbufferedSource()`: one cgo call per value", ""},
		{goR, "MathRand", "MathRand", "math/rand `rand.NewSource(1)` (predictable)", ""},
		{goP, "Unpredictable", "Unpredictable", "art4711/unpredictable `NewMathRandSource()`", unpWhy},
		{goR, "AESCTRBufRand", "", "pure-Go crypto/aes CTR, 4 KiB buffer", ""},
		{goR, "CryptoRand", "CryptoRand", "crypto/rand.Reader through encoding/binary.Read", ""},
		{goR, "CryptoCastRand", "CryptoCastRand", "crypto/rand.Read into [8]byte", ""},
		{goR, "CryptoBufRand", "CryptoBufRand", "CryptoRand with a 256-value buffer", ""},
		{goR, "LibcRand", "LibcRand", "one cgo call to glibc arc4random_buf per value", ""},
		{goR, "LibcBufRand", "LibcBufRand", "256 values per cgo arc4random_buf call", ""},
		{goR, "COverhead", "COverhead", "an empty cgo call", ""},
	} {
		s := row.set.get(row.name)
		cmp := ""
		if row.name != "RandpBufRand" && row.name != "COverhead" {
			cmp = compare(base, s)
		}
		t.row(row.name, row.what, timeCell(s, row.why), cmp, seedNum(seed003.Runs[0], row.ref, f), seedNum(seed003.Runs[1], row.ref, f))
	}
	r.p("%s\n", t)

	r.p("Reading 2 MiB per call through an io.Reader:\n\n")
	base = goR.get("ReadRandp")
	t = &table{head: []string{"Benchmark", "Time per 2 MiB", "Throughput", "randp is", "reference"}}
	for _, row := range []struct {
		set       *goSet
		name, ref string
		why       string
	}{
		{goR, "ReadRandp", "", ""}, {goR, "ReadMathRand", "ReadMathRand", ""}, {goP, "ReadUnpredictable", "ReadUnpredictable", unpWhy},
		{goR, "ReadAESCTR", "", ""}, {goR, "ReadChaCha8", "", ""},
	} {
		s := row.set.get(row.name)
		ref := ""
		if v, ok := seed003.Read[row.ref]; ok {
			ref = fmt.Sprintf("%s, %.0f MB/s", ns(v[0]), v[1])
		}
		cmp := ""
		if row.name != "ReadRandp" {
			cmp = compare(base, s)
		}
		t.row(row.name, timeCell(s, row.why), gbps(s, 2<<20), cmp, ref)
	}
	r.p("%s\n", t)

	r.p("## %s\n\n", hGoV2)
	r.p("What a Go programmer picks today with math/rand/v2: `rand.New(SOURCE).Uint64()`.\n\n")
	base = goR.get("V2Uint64/src=RandpSource")
	t = &table{head: []string{"Source", "ns/op", "randp.Source() is"}}
	for _, s := range []struct{ name, label string }{
		{"RandpSource", "**randp** `randp.Source()`"}, {"RandpUnbuffered", "**randp** `randp.UnbufferedSource()`"},
		{"ChaCha8", "`rand.NewChaCha8`"}, {"PCG", "`rand.NewPCG` (predictable)"}, {"AESCTR", "pure-Go crypto/aes CTR, 4 KiB buffer"},
		{"BufferOnly", "randp's buffer refilled from a counter: its cost without the cipher (not a generator)"},
	} {
		v := goR.get("V2Uint64/src=" + s.name)
		cmp := ""
		if s.name != "RandpSource" {
			cmp = compare(base, v)
		}
		t.row(s.label, timeCell(v, ""), cmp)
	}
	r.p("%s\n", t)

	r.p("## %s\n\n", hGoRead)
	r.p("One Read call of each size, ns per call. crypto/rand.Read is Go %s's (the getrandom vDSO on Linux 6.11+); the \"before Go 1.24\" column is ", strings.TrimPrefix(res.run["go"], "go"))
	r.p("what crypto/rand did then, one getrandom system call per Read (golang.org/x/sys/unix.Getrandom). dcrd's columns come from its own ")
	r.p("bench_test.go, run from its source. The last column compares randp.Read with today's crypto/rand.Read. The chart below plots the same medians.\n\n")
	cols := []struct {
		set          *goSet
		prefix, head string
		why          string
	}{
		{goR, "RandpRead", "**randp.Read**", ""},
		{goR, "RandpReadUnbuffered", "randp, one cgo call per Read", ""},
		{goR, "StdlibRead", "crypto/rand.Read", ""},
		{goP, "GetrandomRead", "crypto/rand before Go 1.24", ""},
		{goD, "DcrdRead", "dcrd `Read`", dcrdWhy},
		{goD, "DcrdReadPRNG", "dcrd `PRNG.Read`", dcrdWhy},
		{goR, "ChaCha8Read", "math/rand/v2 ChaCha8", ""},
		{goR, "AESCTRRead", "pure-Go AES-CTR reader", ""},
		{goP, "UnpredictableRead", "unpredictable", unpWhy},
	}
	head := []string{"Size"}
	for _, c := range cols {
		head = append(head, c.head)
	}
	t = &table{head: append(head, "randp.Read vs crypto/rand.Read")}
	for _, sz := range goReadSizes {
		cells := []string{fmtBytes(sz.bytes)}
		for _, c := range cols {
			cells = append(cells, timeCell(c.set.get(c.prefix+"/"+sz.name), c.why))
		}
		cells = append(cells, compare(goR.get("RandpRead/"+sz.name), goR.get("StdlibRead/"+sz.name)))
		t.row(cells...)
	}
	r.p("%s\n", t)
	r.p("![ns per Read call against the read size, log-log](%s)\n\n", r.svgPath)
	r.p("<details><summary>Reference: dcrd's own published run (%s), ns per call</summary>\n\n", seed000.Machine)
	t = &table{head: []string{"Size", "StdlibRead old", "StdlibRead new", "DcrdRead old", "DcrdRead new", "DcrdReadPRNG new"}}
	for _, sz := range goReadSizes {
		t.row(fmtBytes(sz.bytes), seedNum(seed000.Old, "StdlibRead/"+sz.name, f), seedNum(seed000.New, "StdlibRead/"+sz.name, f),
			seedNum(seed000.Old, "DcrdRead/"+sz.name, f), seedNum(seed000.New, "DcrdRead/"+sz.name, f), seedNum(seed000.New, "DcrdReadPRNG/"+sz.name, f))
	}
	r.p("%s\n</details>\n\n", t)

	r.p("## %s\n\n", hGoFuncs)
	r.p("dcrd's own benchmark functions beside randp's and math/rand/v2's, each measured the way dcrd's bench_test.go does: one bound per benchmark drawn ")
	r.p("once from the library under test (Int32N: `Int32()`; Uint32N, Int64N, Uint64N: `Uint32()`; Duration: `Uint32()` seconds), and ShuffleSlice per element of a 100-element slice. ")
	r.p("math/rand/v2 has no Duration: its row is `rand.N`.\n\n")
	t = &table{head: []string{"Function", "**randp**", "dcrd", "math/rand/v2", "randp vs dcrd", "randp vs math/rand/v2", "reference: dcrd old", "reference: dcrd new"}}
	for _, fn := range []string{"Int32N", "Uint32N", "Int64N", "Uint64N", "Duration", "ShuffleSlice"} {
		a, d, v2 := goR.get(fn), goD.get(fn), goR.get("RandV2"+fn)
		dv := compare(a, d)
		if !d.ok() {
			dv = ""
		}
		t.row(fn, timeCell(a, ""), timeCell(d, dcrdWhy), timeCell(v2, ""), dv, compare(a, v2),
			seedNum(seed000.Old, fn, f), seedNum(seed000.New, fn, f))
	}
	r.p("%s\n", t)

	r.p("## %s\n\n", hGoPar)
	r.p("Goroutine-safe package-level functions: `Uint64` (crypto/rand: Read into 8 bytes) with one goroutine and under `b.RunParallel` on every P, ")
	r.p("and Read of 32 bytes under `b.RunParallel` (math/rand/v2 has no global Read: a ChaCha8 per goroutine; likewise a pure-Go AES-CTR reader per goroutine). ")
	r.p("In parallel rows ns/op is wall time per operation across all goroutines.\n\n")
	t = &table{head: []string{"Benchmark", "**randp**", "math/rand/v2", "crypto/rand", "pure-Go AES-CTR", "randp vs math/rand/v2", "randp vs crypto/rand"}}
	for _, bm := range []struct{ name, v2 string }{
		{"Uint64", "MathRandV2"}, {"ParallelUint64", "MathRandV2"}, {"ParallelRead32", "MathRandV2ChaCha8"},
	} {
		a, b, c := goR.get(bm.name+"/impl=Randp"), goR.get(bm.name+"/impl="+bm.v2), goR.get(bm.name+"/impl=CryptoRand")
		aes := "—"
		if bm.name == "ParallelRead32" {
			aes = timeCell(goR.get(bm.name+"/impl=AESCTR"), "")
		}
		t.row(bm.name, timeCell(a, ""), timeCell(b, ""), timeCell(c, ""), aes, compare(a, b), compare(a, c))
	}
	r.p("%s\n", t)
}

// goReadSizes are dcrd's Read sizes, with its benchmark names.
var goReadSizes = []struct {
	name  string
	bytes float64
}{{"4b", 4}, {"8b", 8}, {"32b", 32}, {"512b", 512}, {"1KiB", 1024}, {"4KiB", 4096}}

func (s *goSet) procsOr() string {
	if s == nil {
		return ""
	}
	return s.procs
}
