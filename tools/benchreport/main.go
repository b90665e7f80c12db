// Command benchreport turns the raw outputs of `make bench` into
// BENCHMARKS.md and the read-size chart: criterion's estimates (Rust),
// Google Benchmark JSON (C), `go test -bench` output (Go, one file per test
// binary), the hardware references (openssl speed, aes-ceiling), the load
// average sampled during the run and the run's record (machine, toolchains,
// commit). Columns labelled "reference" quote the documents the project
// started from; every other number comes from the files it reads.
//
// What the report says beside the numbers is data, not code: data/*.toml
// holds the speed targets (targets.toml), the first screen's rows
// (summary.toml), the contestants' names, the tables' row orders and the
// README functions they quote (contestants.toml), the charts' series
// (charts.toml), the reference documents' numbers (references.toml), the
// section headings (headings.toml) and the x86 cores a run names
// (microarchitectures.toml), each checked against its schema when the
// program starts; templates/*.tmpl holds the prose, the tables and the
// order of the sections (report.tmpl), executed with the values the code
// computes. Both are embedded.
// TestGoldenReport renders the committed results and compares the bytes
// with the committed BENCHMARKS.md and charts.
//
// A results folder holds one run or, as benches/results does, one run per
// CPU in a folder named vendor-family-model: the report shows the newest
// run's tables and every CPU's first-screen verdicts side by side.
//
// The run record (run.txt) is written by benches/record-run.sh as the run
// starts, and benches/merge-results.sh gathers each pass's C and criterion
// outputs into one file of each kind. Other modes: -cpu-dir prints the
// folder a run record's CPU belongs in; -sweep prints one parameter-sweep
// table.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

func main() {
	var (
		root       = flag.String("root", "../..", "repository root")
		results    = flag.String("results", "benches/results", "folder of raw outputs to render, relative to -root")
		out        = flag.String("out", "BENCHMARKS.md", "report to write, relative to -root")
		chartDir   = flag.String("chart-dir", "benches/charts", "folder for the charts (SVG), relative to -root")
		allowDirty = flag.Bool("allow-dirty", false, "write the report although the run started from a dirty tree")
		smoke      = flag.Bool("smoke", false, "render whatever outputs exist (make bench-smoke): missing ones are not errors")
		critPath   = flag.String("criterion", "", "with -sweep: criterion's merged file (benches/merge-results.sh; default: the newest run's in -results)")
		sweep      = flag.String("sweep", "", "print the table of one sweep (num_blocks or reseed_countdown) and exit")
		cpuDirOf   = flag.String("cpu-dir", "", "print the folder name (vendor-family-model) of the CPU this run record names and exit")
	)
	flag.Parse()
	at := func(p string) string { return under(*root, p) }
	switch {
	case *cpuDirOf != "":
		fmt.Println(must(cpuDir(must(loadRunInfo(at(*cpuDirOf))))))
	case *sweep != "":
		var crit store
		if *critPath != "" {
			crit = must(loadCriterion(at(*critPath)))
		} else {
			crit = must(loadRuns(*root, *results, false))[0].res.store
		}
		s := sweepTable(crit, *sweep)
		check(s.Err)
		fmt.Print(new(report).exec("sweep_table", s))
	default:
		md, charts, err := renderReport(*root, *results, *out, *chartDir, *smoke, *allowDirty)
		check(err)
		check(os.MkdirAll(at(*chartDir), 0o755))
		// The folder holds this report's charts only: none left from another run.
		if old, err := filepath.Glob(filepath.Join(at(*chartDir), "*.svg")); err == nil {
			for _, f := range old {
				os.Remove(f)
			}
		}
		for name, svg := range charts {
			check(os.WriteFile(filepath.Join(at(*chartDir), name), []byte(svg), 0o644))
		}
		check(os.WriteFile(at(*out), []byte(md), 0o644))
		fmt.Fprintf(os.Stderr, "benchreport: wrote %s and %d charts in %s\n", at(*out), len(charts), at(*chartDir))
	}
}

// renderReport reads the results folder and returns the report and its charts
// (file name -> SVG); out and chartDir, relative to root, place the links.
// A chart that cannot be drawn is an error outside smoke mode.
func renderReport(root, results, out, chartDir string, smoke, allowDirty bool) (string, map[string]string, error) {
	runs, err := loadRuns(root, results, smoke)
	if err != nil {
		return "", nil, err
	}
	for _, run := range runs {
		if err := checkClean(run.res.run, allowDirty); err != nil {
			return "", nil, fmt.Errorf("%s: %w", run.dir, err)
		}
	}
	chartRel, err := filepath.Rel(filepath.Dir(under(root, out)), under(root, chartDir))
	if err != nil {
		return "", nil, err
	}
	r := &report{res: runs[0].res, chartDir: filepath.ToSlash(chartRel), resultsDir: runs[0].dir, resultsRoot: results,
		others: runs[1:], charts: map[string]string{}}
	md := r.markdown()
	if len(r.chartErrs) > 0 && !smoke {
		return "", nil, fmt.Errorf("charts: %s", strings.Join(r.chartErrs, "; "))
	}
	return md, r.charts, nil
}

// under is path p relative to root, or p when it is absolute.
func under(root, p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(root, p)
}

// check stops the program with err, if any: main's steps have no way on.
func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchreport:", err)
		os.Exit(1)
	}
}

// must is v, once check has passed err.
func must[T any](v T, err error) T {
	check(err)
	return v
}

// checkClean refuses a run that started from a dirty tree (or whose record
// does not say), unless allowed: the report names a commit, and its numbers
// must be that commit's.
func checkClean(run runInfo, allowDirty bool) error {
	if allowDirty || run["dirty"] == "no" {
		return nil
	}
	return fmt.Errorf("the run started from a dirty tree or did not record its state (commit %q, dirty %q); "+
		"refusing to write the report (pass -allow-dirty, or BENCH_ALLOW_DIRTY=1 to make, to write it anyway)", run["commit"], run["dirty"])
}
