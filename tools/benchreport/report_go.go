package main

import (
	"fmt"
	"math"
	"strings"
)

// goMem is the median "B/op, allocs/op" of the benchmark name of the Go
// test binary of source src (results.go's sources), or "".
func (r *report) goMem(src, name string) string {
	b, a := src+":"+name+" B/op", src+":"+name+" allocs/op"
	if len(r.res.samples[b]) == 0 || len(r.res.samples[a]) == 0 {
		return ""
	}
	return fmt.Sprintf("%.0f B, %.0f allocs", r.stat(b).Center, r.stat(a).Center)
}

// benchstatRows are the rows of dcrd's benchstat table as measured here
// (templates/go.tmpl's go_benchstat): data/contestants.toml's go.benchstat
// rows at each of dcrd's sizes, then dcrd's functions, whose code did not
// change; and the geomean of the rows with both columns, or "".
func (r *report) benchstatRows() (rows []benchstatRow, geo string) {
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
		if old, nw := r.stat(row.Old), r.stat(row.New); old.ok() && nw.ok() {
			geoOld, geoNew = append(geoOld, old.Center), append(geoNew, nw.Center)
		}
	}
	if len(geoOld) > 0 {
		o, n := geomean(geoOld), geomean(geoNew)
		geo = fmt.Sprintf("%s → %s, %+.2f%% (%d rows)", ns(o), ns(n), 100*(n/o-1), len(geoOld))
	}
	return rows, geo
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
