// Command benchreport turns the results of `make bench` into BENCHMARKS.md:
// criterion's estimates for the Rust benches, `go test -bench` output for
// the Go benches, the seed documents' numbers quoted beside them, benchstat
// sections and an SVG chart. With -sweep it prints one parameter-sweep table
// (`make num-blocks`, `make reseed-countdown`) instead.
//
// It only formats measurements; every number it writes comes from the files
// it is given or, for the columns labelled as such, from the seed documents.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
)

func main() {
	var (
		root      = flag.String("root", "../..", "repository root")
		critDir   = flag.String("criterion", "build/bench/criterion", "criterion output directory (CRITERION_HOME), relative to -root")
		goOut     = flag.String("go", "build/bench/go.txt", "go test -bench output, relative to -root")
		out       = flag.String("out", "BENCHMARKS.md", "report to write, relative to -root")
		svg       = flag.String("svg", "benches/read-size.svg", "chart to write, relative to -root (linked from the report)")
		sweep     = flag.String("sweep", "", "print the table of one sweep (num_blocks or reseed_countdown) and exit")
		benchtime = flag.String("describe", "", "how the run was made (benchtime, count), for the report header")
	)
	flag.Parse()
	at := func(p string) string {
		if filepath.IsAbs(p) {
			return p
		}
		return filepath.Join(*root, p)
	}

	crit, err := loadCriterion(at(*critDir))
	if err != nil {
		fatal(err)
	}
	if *sweep != "" {
		table, err := sweepTable(crit, *sweep)
		if err != nil {
			fatal(err)
		}
		fmt.Print(table)
		return
	}

	gores, err := loadGoBench(at(*goOut))
	if err != nil {
		fatal(err)
	}
	r := &report{
		root:     *root,
		crit:     crit,
		gores:    gores,
		goFile:   at(*goOut),
		svgPath:  *svg,
		describe: *benchtime,
	}
	chart, err := readSizeChart(gores)
	if err != nil {
		fatal(err)
	}
	if err := os.WriteFile(at(*svg), []byte(chart), 0o644); err != nil {
		fatal(err)
	}
	md, err := r.markdown()
	if err != nil {
		fatal(err)
	}
	if err := os.WriteFile(at(*out), []byte(md), 0o644); err != nil {
		fatal(err)
	}
	fmt.Fprintf(os.Stderr, "benchreport: wrote %s and %s\n", at(*out), at(*svg))
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "benchreport:", err)
	os.Exit(1)
}
