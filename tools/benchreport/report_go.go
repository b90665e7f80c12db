package main

import (
	"fmt"
	"math"
	"strings"
)

func (s *goSet) procsOr() string {
	if s == nil {
		return ""
	}
	return s.procs
}

// goStat is the benchmark name of the test binary that ran row.
func (r *report) goStat(row goRow, name string) stat {
	set, _ := row.set(r.res)
	return set.get(name)
}

// goMem is "B/op, allocs/op" of the benchmark name of the test binary
// that ran row, or "".
func (r *report) goMem(row goRow, name string) string {
	set, _ := row.set(r.res)
	b, a, ok := set.mem(name)
	if !ok {
		return ""
	}
	return fmt.Sprintf("%.0f B, %.0f allocs", b, a)
}

func (r *report) goTables() {
	res := r.res
	goR := res.goRandp
	dcrdWhy := res.peers["dcrd-crypto-rand"]
	procs := strings.TrimPrefix(goR.procsOr(), "-")

	r.text("go_sources", "Runs", goR.runs(), "Procs", procs, "Machine", refs.Unpredictable.Machine, "Go", contestants.Go, "Unp", refs.Unpredictable)
	r.text("go_read_2mib", "Go", contestants.Go, "Unp", refs.Unpredictable)

	r.text("go_v2", "Go", contestants.Go)
	r.goReadTables()
	r.goSweep(r.res.goRandp, h("GoSweep"), "go-read-by-size.svg", "randp.Read (cgo)")

	r.text("go_funcs", "Go", contestants.Go, "DcrdWhy", dcrdWhy)
	r.text("go_par", "Go", contestants.Go)
	r.goPureTables()
}

// goReadTables are the Read table at dcrd's sizes with its chart, and seed
// 000's own table (old against new) as measured here and as published.
func (r *report) goReadTables() {
	res := r.res
	goR, goP, goD := res.goRandp, res.goPeers, res.goDcrd
	dcrdWhy := res.peers["dcrd-crypto-rand"]
	goVer := strings.TrimPrefix(res.run["go"], "go")
	r.text("go_read", "GoVer", goVer, "Syscall", strings.TrimSuffix(syscallSummary(res.syscallCheck), "."), "Go", contestants.Go)
	r.text("go_seed000", "GoVer", goVer)
	t := &table{head: []string{"Benchmark", "old, here", "new, here", "vs base, here", "reference: old", "reference: new", "reference: vs base"}}
	var geoOld, geoNew []float64
	for _, fam := range []string{"DcrdRead", "StdlibRead", "DcrdReadPRNG"} {
		for _, sz := range contestants.Go.DcrdSizes {
			name := fam + "/" + sz
			var old, nw stat
			var oldWhy, newNote string
			switch fam {
			case "StdlibRead":
				old, nw = goP.get("GetrandomRead/"+sz), goR.get("StdlibRead/"+sz)
			case "DcrdRead":
				old, oldWhy = goD.get(name), dcrdWhy
				nw, newNote = goR.get("StdlibRead/"+sz), " (= crypto/rand.Read)"
			case "DcrdReadPRNG":
				old, oldWhy, newNote = goD.get(name), dcrdWhy, "unchanged code: = old"
			}
			newCell, vs := newNote, ""
			if fam != "DcrdReadPRNG" {
				newCell = timeCell(nw, "") + newNote
				vs = vsBase(old, nw)
				if old.ok() && nw.ok() {
					geoOld, geoNew = append(geoOld, old.Center), append(geoNew, nw.Center)
				}
			}
			ref, _ := seed000Ref(name)
			t.row(name, timeCell(old, oldWhy), newCell, vs, ns(ref.Old)+" "+ref.OldPM, ns(ref.New)+" "+ref.NewPM, ref.VsBase)
		}
	}
	for _, fn := range contestants.Go.Funcs {
		ref, _ := seed000Ref(fn)
		t.row(fn, timeCell(goD.get(fn), dcrdWhy), "unchanged code: = old", "", ns(ref.Old)+" "+ref.OldPM, ns(ref.New)+" "+ref.NewPM, ref.VsBase)
	}
	geo := ""
	if len(geoOld) > 0 {
		o, n := geomean(geoOld), geomean(geoNew)
		geo = fmt.Sprintf("%s → %s, %+.2f%% (%d rows)", ns(o), ns(n), 100*(n/o-1), len(geoOld))
	}
	t.row("geomean", geo, "", "", "", "", refs.Dcrd.Geomean+" (24 rows)")
	r.p("%s\n", t)
	r.p("Reference: %s.\n\n", refs.Dcrd.Machine)
}

// vsBase is benchstat's "vs base" (new/old − 1) where the intervals separate.
func vsBase(old, nw stat) string {
	if !old.ok() || !nw.ok() {
		return ""
	}
	if !separated(old, nw) {
		return "~"
	}
	return fmt.Sprintf("%+.2f%%", 100*(nw.Center/old.Center-1))
}

func geomean(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += math.Log(x)
	}
	return math.Exp(s / float64(len(v)))
}

// goSweep is the Read-by-size table and chart of one Go test binary's
// results (the cgo build or the pure-Go one).
func (r *report) goSweep(set *goSet, heading, chartFile, randpLabel string) {
	impls := contestants.Go.Sweep
	r.text("go_sweep", "Heading", heading, "Set", set, "Impls", impls, "RandpLabel", randpLabel, "Sizes", sweepSizes(), "Chart", chartFile)
}

// sweepStat is the Read of n bytes of the implementation impl in a Go
// test binary's sweep.
func sweepStat(set *goSet, impl string, n float64) stat {
	return set.get("ReadSweep/" + impl + "/" + sizeName(n))
}

// goPureTables are the pure-Go build's rows, when it ran the pure-Go path.
func (r *report) goPureTables() {
	set, why := r.res.purego()
	r.text("go_pure", "Why", why, "Impl", r.res.puregoImplementation(), "Set", set, "Go", contestants.Go)
	if set == nil {
		return
	}
	r.goSweep(set, h("GoPure")+": Read by call size", "go-read-by-size-purego.svg", "randp.Read (pure Go)")
}
