package main

import (
	"fmt"
	"slices"
	"strings"
	"text/template"
	"unicode"
)

// report assembles BENCHMARKS.md and its charts from one run's results.
type report struct {
	res         *results
	chartDir    string            // the charts' folder, relative to the report
	resultsDir  string            // the raw outputs' folder, relative to the report
	resultsRoot string            // the folder of every CPU's run (resultsDir's parent), when there are several
	others      []cpuRun          // the runs of the other CPUs, newest first
	charts      map[string]string // file name -> SVG
	chartErrs   []string
	losses      []loss              // every comparison in which randp is significantly slower, the first of each What
	profiled    map[string][]string // the misses of targets with profiles that "Misses explained" profiles, by profile (targetTables)
	tmpl        *template.Template  // templates, with reportFuncs bound to this report
}

// loss is one comparison of the report in which randp is slower.
type loss struct {
	What, Verdict, Heading string
}

// vs compares randp with a rival (times, lower is better) as compare does,
// and records the comparison when randp is slower, for the first screen,
// unless one of the same What is recorded already.
func (r *report) vs(heading, what string, randp, rival stat) string {
	v := compare(randp, rival)
	if strings.HasSuffix(v, "slower") && !slices.ContainsFunc(r.losses, func(l loss) bool { return l.What == what }) {
		r.losses = append(r.losses, loss{what, fmt.Sprintf("%s (%s against %s)", v, ns(randp.Center), ns(rival.Center)), heading})
	}
	return v
}

// anchor is GitHub's anchor for a heading.
func anchor(h string) string {
	var b strings.Builder
	for _, c := range strings.ToLower(h) {
		switch {
		case c == ' ':
			b.WriteByte('-')
		case c == '-' || c == '_' || (c < unicode.MaxASCII && (unicode.IsLetter(c) || unicode.IsDigit(c))):
			b.WriteRune(c)
		}
	}
	return "#" + b.String()
}

func link(text, heading string) string { return "[" + text + "](" + anchor(heading) + ")" }

// notMeasured is the cell of a contestant without a measurement.
func notMeasured(why string) string {
	if why == "" {
		return "not measured"
	}
	return "not measured: " + why
}

// timeCell is a time with its interval, or why there is none.
func timeCell(s stat, why string) string {
	if !s.ok() {
		return notMeasured(why)
	}
	return spread(s)
}

// markdown renders the report: the sections after the first screen
// first, which collect every loss, then the first screen, which lists
// them, above those sections.
func (r *report) markdown() string {
	data := r.data()
	data["Body"] = r.exec("body", data)
	data["Losses"] = r.losses
	return r.exec("report", data)
}

func dirtyNote(dirty string) string {
	if dirty == "yes" {
		return " **with uncommitted changes**"
	}
	return ""
}

// glibcVersion is the run's glibc version ("2.36"), or "".
func (r *report) glibcVersion() string {
	return strings.TrimPrefix(r.res.run["glibc"], "glibc ")
}

// glibcHasVDSO reports whether the run's glibc gets random bytes from the
// vDSO (2.41 and later); false when unknown.
func (r *report) glibcHasVDSO() bool {
	var a, b int
	_, err := fmt.Sscanf(r.glibcVersion(), "%d.%d", &a, &b)
	return err == nil && (a > 2 || (a == 2 && b >= 41))
}

// glibcLabel names a glibc function with the version measured and what it
// does there (templates/labels.tmpl's glibc). It executes the templates as
// parsed, which need not be bound to a run: labels are checked as the data
// files load, before init parses the templates.
func (r *report) glibcLabel(fn string) string {
	return execute(templates, "glibc", map[string]any{"Fn": fn, "Version": r.glibcVersion(), "VDSO": r.glibcHasVDSO()})
}

// ---- the first screen ----

type summaryRow struct {
	You, Work   string
	Rival, Mine stat
	Why         string // why the rival is not measured
	Heading     string
}

// summaryGroup is one language's rows of the first screen.
type summaryGroup struct {
	Title string
	Rows  []summaryRow
}

// Verdict is how randp compares with the rival of the row: a ratio in
// bold, noDifference, or why one side is not measured.
func (row summaryRow) Verdict() string {
	switch v := compare(row.Mine, row.Rival); v {
	case "":
		return notMeasured(row.Why)
	case noDifference:
		return v
	default:
		return "**" + v + "**"
	}
}

// fillVerdict is the C fill sizes 16 B .. 1 MiB at which randp has one
// verdict against planet36/randp, each with the processes randp won.
type fillVerdict struct{ Label, Sizes string }

// fillVerdicts groups the C fill sizes by randp's verdict against
// planet36/randp: slower, no significant difference, faster.
func (r *report) fillVerdicts() []fillVerdict {
	if r.res.peers["planet36-randp"] != "" {
		return nil
	}
	groups := map[string][]string{}
	for _, n := range sweepSizes() {
		f, v := r.fill(n), "faster"
		switch {
		case f.Ratio == 0:
			continue
		case !f.Sep:
			v = "no significant difference"
		case f.Ratio < 1:
			v = "**slower**"
		}
		cell := fmtBytes(n)
		if f.Won != "" {
			cell += " (" + f.Won + ")"
		}
		groups[v] = append(groups[v], cell)
	}
	var out []fillVerdict
	for _, v := range []string{"**slower**", "no significant difference", "faster"} {
		if len(groups[v]) > 0 {
			out = append(out, fillVerdict{v, strings.Join(groups[v], ", ")})
		}
	}
	return out
}

// syscallSummary is the seccomp test's verdict, from its output.
func syscallSummary(out string) string {
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "getrandomRead:") || strings.HasPrefix(l, "control") {
			lines = append(lines, strings.TrimSpace(l))
		}
	}
	if len(lines) == 0 || !strings.Contains(out, "--- PASS") {
		return "**not verified in this run** (benches/go's seccomp test did not pass or did not run)."
	}
	return "verified in this run by benches/go's seccomp test: " + strings.Join(lines, "; ") + "."
}

// hasFlags reports whether the run's CPU has every flag of a backend, from
// the flags randp's dispatch reads (the record's backend_flags).
func (r *report) hasFlags(flags []string) bool {
	have := strings.Fields(r.res.run["backend_flags"])
	return !slices.ContainsFunc(flags, func(f string) bool { return !slices.Contains(have, f) })
}

// cpuFlag reports whether the run's CPU has a flag the record keeps
// (the record's cpu_flags, benches/record-run.sh's list).
func (r *report) cpuFlag(flag string) bool {
	return slices.Contains(strings.Fields(r.res.run["cpu_flags"]), flag)
}
