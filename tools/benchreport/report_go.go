package main

import (
	"fmt"
	"math"
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

// seed000Table is dcrd's benchstat table (old against new) as measured
// here, beside its published numbers.
func (r *report) seed000Table() string {
	res := r.res
	goR, goP, goD := res.goRandp, res.goPeers, res.goDcrd
	dcrdWhy := res.peers["dcrd-crypto-rand"]
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
	return t.String()
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

// sweepStat is the Read of n bytes of the implementation impl in a Go
// test binary's sweep.
func sweepStat(set *goSet, impl string, n float64) stat {
	return set.get("ReadSweep/" + impl + "/" + sizeName(n))
}
