package main

import (
	"embed"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"text/template"
)

// The report's text and tables live in templates/*.tmpl: report.tmpl
// orders the sections, a file per part of the report (c.tmpl, go.tmpl,
// rust.tmpl, first_screen.tmpl) holds a define per paragraph group or
// table, and a file per section holds the rest. They are executed with
// the values data gives and the functions below, which read the run: the
// prose, the rows and their order change without touching the code.

//go:embed templates/*.tmpl
var templateFS embed.FS

// templates are templates/*.tmpl, parsed with every function; a report
// binds reportFuncs to its run in a clone. They are parsed in init, as
// the functions that execute them are among those they call.
var templates *template.Template

func init() {
	templates = template.Must(template.New("").Option("missingkey=zero").Funcs(template.FuncMap{
		// Formatting.
		"ns": ns, "sig": sig, "spread": spread, "cell": timeCell, "gbps": gbps, "fill4GiB": fill4GiB, "pct": pct,
		"per": per, "per32": per32, "fmtBytes": fmtBytes, "size": parseSize, "sizeName": sizeName,
		"anchor": anchor, "link": link, "dirtyNote": dirtyNote, "notMeasured": notMeasured,
		"frameKind": frameKind, "printf": fmt.Sprintf, "trimSuffix": strings.TrimSuffix,
		"before":      func(s, sep string) string { b, _, _ := strings.Cut(s, sep); return b },
		"familyModel": regexp.MustCompile(`family \d+ model \d+`).FindString,
		// Values and verdicts.
		"ok": stat.ok, "plus": plus, "add": func(a, b float64) float64 { return a + b },
		"sub": func(a, b float64) float64 { return a - b }, "mul": func(a, b float64) float64 { return a * b },
		"div": func(a, b float64) float64 { return a / b }, "hasPrefix": strings.HasPrefix, "contains": strings.Contains,
		"compare": compare, "scaling": scaling, "vsBase": vsBase,
		"floats": func(v ...float64) []float64 { return v }, "cFillSizes": cFillSizes, "sweepSizes": sweepSizes, "joinInts": joinInts,
		// set is a copy of a template's data with more names and values, for a
		// define that several places call with their own.
		"set": func(data map[string]any, kv ...any) map[string]any {
			m := maps.Clone(data)
			for i := 0; i+1 < len(kv); i += 2 {
				m[kv[i].(string)] = kv[i+1]
			}
			return m
		},
		// Names and references.
		"cShort": cShortOr, "refCells": refCells, "findRef": findRef,
		"hasRefs": func(group string) bool {
			return slices.ContainsFunc(contestants.Rows[group], func(k string) bool { return contestants.C[k].Ref[group] != "" })
		},
		"dcrdRef": seed000Ref,
	}).Funcs(reportFuncs(nil)).ParseFS(templateFS, "templates/*.tmpl"))
}

// reportFuncs are the template functions that read the run of r:
// stat "source:name" (a benchmark, as data/summary.toml names them), why
// (why it was not measured, where its source says), cwhy (why a C
// contestant has no rows), vs (compare, recording a loss), hasFlags
// (whether the CPU has a backend's flags), cThreads and rustThreads (a
// row of one thread against two), goMem (a Go benchmark's memory), cHead
// and cLabel (a C contestant's column head and row label), chart (a chart
// of data/charts.toml, drawn from the run), processes (randp's wins of a
// C table's processes against planet36/randp), sweep (a sweep's table,
// sweepTable) and peerWhy (why a peer is missing, or "").
func reportFuncs(r *report) template.FuncMap {
	return template.FuncMap{"stat": r.stat, "cwhy": r.cWhy, "vs": r.vs, "hasFlags": r.hasFlags,
		"cThreads": r.cThreads, "rustThreads": r.rustThreads, "goMem": r.goMem,
		"cHead": r.cHead, "cLabel": r.cLabel, "processes": r.processes, "chart": r.chart,
		"sweep": func(name string) sweep { return sweepTable(r.res.store, name) }, "why": r.why, "peerWhy": func(peer string) string { return r.res.peers[peer] }}
}

// data is what the templates read: the run's record and results, the
// data files and what the code finds in them.
func (r *report) data() map[string]any {
	res := r.res
	widest, w := res.widest()
	offsets, offsetRows := r.fillByOffset()
	benchstat, geomean := r.benchstatRows()
	targets := r.targetTables()
	return map[string]any{
		"Run": res.run, "Results": r.resultsDir, "NoDifference": noDifference, "H": headings, "CPU": r.exec("cpu", res.run),
		"Load": res.load.describe(), "C": contestants, "Go": contestants.Go, "Rust": contestants.Rust,
		"Backends": contestants.Backends, "Refs": refs, "Unp": refs.Unpredictable, "Summary": r.summaryGroups(),
		"Targets": targets, "VAES": r.cpuFlag("vaes"),
		"FillVerdicts": r.fillVerdicts(), "Turns": r.inTurns(), "Offsets": offsets, "OffsetRows": offsetRows,
		"M": r.misses(), "O": res.opcount, "Buffered": r.bufferedUint64(), "Direct": directFromText,
		"WordTarget": targetBound("dlopen_u64"), "U32Target": targetBound("rust_u32"), "Ceil": res.ceil, "Widest": widest, "W": w,
		"BackendsMeasured": len(res.under("rust:backend_u64/")) > 0, "GoRuns": res.goRuns["go"].runs,
		"Procs": strings.TrimPrefix(res.goRuns["go"].procs, "-"), "GoVer": strings.TrimPrefix(res.run["go"], "go"),
		"DcrdWhy": res.peers["dcrd-crypto-rand"], "Benchstat": benchstat, "BenchstatGeomean": geomean, "Purego": res.puregoWhy == "", "PuregoWhy": res.puregoWhy,
		"PuregoImpl": res.goRuns["purego"].config["randp-implementation"], "PuregoStatus": res.puregoStatus,
		"Impl":  res.goRuns["go"].config["randp-implementation"],
		"Peers": res.peers, "PeerFrom": res.peerFrom, "BuildType": res.c.build, "OpenSSL": res.ceil.OpenSSLVersion,
		"Hypervisor": r.cpuFlag("hypervisor"), "Syscall": syscallSummary(res.syscallCheck),
		"Root": r.resultsRoot, "CPURuns": r.cpuRuns(), "Every": r.everyCPU(),
	}
}

// exec executes the template name (a define of templates/*.tmpl, or
// templates/<name>.tmpl) with data.
func (r *report) exec(name string, data any) string {
	if r.tmpl == nil {
		r.tmpl = template.Must(templates.Clone()).Funcs(reportFuncs(r))
	}
	return execute(r.tmpl, name, data)
}

// execute executes the template name of t with data; an error is a bug of
// the templates or the data files, which stops the program.
func execute(t *template.Template, name string, data any) string {
	var b strings.Builder
	if err := t.ExecuteTemplate(&b, name, data); err != nil {
		panic(fmt.Sprintf("benchreport: template %q: %v", name, err))
	}
	return b.String()
}
