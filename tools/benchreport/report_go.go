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

// goMem is "B/op, allocs/op" of the benchmark name of the Go test binary
// of source src (results.go's sources), or "".
func (r *report) goMem(src, name string) string {
	b, a, ok := r.goSet(src).mem(name)
	if !ok {
		return ""
	}
	return fmt.Sprintf("%.0f B, %.0f allocs", b, a)
}

// seed000Table is dcrd's benchstat table (old against new) as measured
// here, beside its published numbers: data/contestants.toml's go.benchstat
// rows at each of dcrd's sizes, then dcrd's functions, whose code did not
// change.
func (r *report) seed000Table() string {
	t := &table{head: []string{"Benchmark", "old, here", "new, here", "vs base, here", "reference: old", "reference: new", "reference: vs base"}}
	rows := []benchstatRow{}
	for _, row := range contestants.Go.Benchstat {
		for _, sz := range contestants.Go.DcrdSizes {
			at := func(s string) string { return strings.ReplaceAll(s, "{size}", sz) }
			rows = append(rows, benchstatRow{at(row.Name), at(row.Old), at(row.New), row.Note})
		}
	}
	for _, fn := range contestants.Go.Funcs {
		rows = append(rows, benchstatRow{Name: fn, Old: "dcrd:" + fn})
	}
	var geoOld, geoNew []float64
	for _, row := range rows {
		old, nw := r.stat(row.Old), r.stat(row.New)
		newCell, vs := "unchanged code: = old", ""
		if row.New != "" {
			newCell, vs = timeCell(nw, "")+row.Note, vsBase(old, nw)
			if old.ok() && nw.ok() {
				geoOld, geoNew = append(geoOld, old.Center), append(geoNew, nw.Center)
			}
		}
		ref := seed000Ref(row.Name)
		t.row(row.Name, timeCell(old, r.why(row.Old)), newCell, vs, ns(ref.Old)+" "+ref.OldPM, ns(ref.New)+" "+ref.NewPM, ref.VsBase)
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
