package main

import (
	"embed"
	"fmt"
	"strings"
	"text/template"
)

// The report's explanatory text and its tables of fixed rows live in
// templates/*.tmpl: a file per part of the report (c.tmpl, go.tmpl,
// rust.tmpl, first_screen.tmpl) holding a define per paragraph group or
// table, or a file per section. They are executed with the values the Go
// code measures and the functions below, which read the run: the prose
// and the rows change without touching the code.

//go:embed templates/*.tmpl
var templateFS embed.FS

var templates = template.Must(template.New("").Option("missingkey=zero").Funcs(template.FuncMap{
	// Formatting.
	"ns": ns, "sig": sig, "spread": spread, "cell": timeCell, "gbps": gbps, "fill4GiB": fill4GiB, "pct": pct,
	"per": per, "per32": per32, "fmtBytes": fmtBytes, "size": parseSize, "sizeName": sizeName,
	"anchor": anchor, "link": link, "dirtyNote": dirtyNote, "notMeasured": notMeasured, "quoted": quoted,
	"frameKind": frameKind, "printf": fmt.Sprintf,
	// Values and verdicts.
	"ok": stat.ok, "plus": plus, "add": func(a, b float64) float64 { return a + b },
	"sub": func(a, b float64) float64 { return a - b }, "mul": func(a, b float64) float64 { return a * b },
	"div": func(a, b float64) float64 { return a / b }, "hasPrefix": strings.HasPrefix, "contains": strings.Contains,
	"compare": compare, "scaling": scaling, "get": (*goSet).get, "sweepStat": sweepStat,
	// Names and references.
	"cShort": cShortOr, "peerSource": peerSource, "refCells": refCells, "findRef": findRef,
	"dcrdRef": func(name string) seed000Row { row, _ := seed000Ref(name); return row },
}).Funcs(reportFuncs(nil)).ParseFS(templateFS, "templates/*.tmpl"))

// reportFuncs are the template functions that read the run of r:
// stat "source:name" (a benchmark, as data/summary.toml names them), cwhy
// (why a C contestant has no rows), vs (compare, recording a loss),
// hasFlags (whether the CPU has a backend's flags), cThreads and
// rustThreads (a row of one thread against two), goStat and goMem (a Go
// row's benchmark, from the test binary that ran it), cHead and cLabel (a
// C contestant's column head and row label), chart (a chart of
// data/charts.toml, drawn from the run), processes (randp's wins of a
// C table's processes against planet36/randp) and peerWhy (why a peer is
// missing, or "").
func reportFuncs(r *report) template.FuncMap {
	return template.FuncMap{"stat": r.stat, "cwhy": r.cWhy, "vs": r.vs, "hasFlags": r.hasFlags,
		"cThreads": r.cThreads, "rustThreads": r.rustThreads, "goStat": r.goStat, "goMem": r.goMem,
		"cHead": r.cHead, "chart": r.chart, "cLabel": r.cLabel, "processes": r.processes,
		"peerWhy": func(peer string) string { return r.res.peers[peer] }}
}

// text writes template name (a define of templates/*.tmpl, or
// templates/<name>.tmpl), given the run's common values (.CPU, .Run,
// .Results, .Load, .NoDifference, .H: the section headings) and kv, pairs
// of further names and values.
func (r *report) text(name string, kv ...any) {
	data := map[string]any{
		"Run": r.res.run, "Results": r.resultsDir, "NoDifference": noDifference, "H": headings,
	}
	if r.res.run != nil {
		data["CPU"] = r.cpuName()
		data["Load"] = r.res.load.describe()
	}
	for i := 0; i+1 < len(kv); i += 2 {
		data[kv[i].(string)] = kv[i+1]
	}
	if templates.Lookup(name) == nil {
		name += ".tmpl"
	}
	if r.tmpl == nil {
		r.tmpl = template.Must(templates.Clone()).Funcs(reportFuncs(r))
	}
	if err := r.tmpl.ExecuteTemplate(&r.b, name, data); err != nil {
		panic(fmt.Sprintf("benchreport: template %s: %v", name, err))
	}
}
