package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// A results folder holds one run (its run.txt at the top: build/bench, a
// smoke run) or one run per CPU, each in a folder named by cpuDir
// (benches/results/intel-6-167/ ...): make bench replaces its own CPU's
// run and keeps the others.

// cpuRun is one CPU's run of a results folder.
type cpuRun struct {
	dir string // relative to the repository root
	res *results
}

// cpuDir names a run's folder from its CPU: vendor-family-model, e.g.
// "amd-25-17" for "AuthenticAMD family 25 model 17 stepping 1".
func cpuDir(run runInfo) (string, error) {
	m := regexp.MustCompile(`^(\S+) family (\d+) model (\d+)`).FindStringSubmatch(run["cpu_id"])
	if m == nil {
		return "", fmt.Errorf("the run record names no CPU family and model (cpu_id %q)", run["cpu_id"])
	}
	vendor := map[string]string{"GenuineIntel": "intel", "AuthenticAMD": "amd"}[m[1]]
	if vendor == "" {
		vendor = strings.ToLower(m[1])
	}
	return vendor + "-" + m[2] + "-" + m[3], nil
}

// loadRuns reads a results folder: its one run, or every CPU's, newest
// first (by the date the run started).
func loadRuns(root, dir string, smoke bool) ([]cpuRun, error) {
	at := filepath.Join(root, dir)
	if _, err := os.Stat(filepath.Join(at, "run.txt")); err == nil || smoke {
		res, err := loadResults(at, smoke)
		return []cpuRun{{dir, res}}, err
	}
	subs, err := filepath.Glob(filepath.Join(at, "*", "run.txt"))
	if err != nil {
		return nil, err
	}
	if len(subs) == 0 {
		return nil, fmt.Errorf("%s holds no run.txt, at its top or in a CPU's folder", at)
	}
	var runs []cpuRun
	for _, s := range subs {
		name := filepath.Base(filepath.Dir(s))
		res, err := loadResults(filepath.Dir(s), false)
		if err != nil {
			return nil, err
		}
		if want, err := cpuDir(res.run); err != nil || want != name {
			return nil, fmt.Errorf("%s holds a run of CPU %q, which belongs in %q (%v)", filepath.Dir(s), res.run["cpu_id"], want, err)
		}
		runs = append(runs, cpuRun{filepath.ToSlash(filepath.Join(dir, name)), res})
	}
	sort.SliceStable(runs, func(i, j int) bool { return runs[i].res.run["date"] > runs[j].res.run["date"] })
	return runs, nil
}

// shortCPU names a run's CPU in a column head: model name, the
// microarchitecture when known, family and model.
func shortCPU(run runInfo) string {
	s := or(run["cpu"], "CPU not recorded")
	if u := run["uarch"]; u != "" {
		s += ", " + strings.SplitN(strings.SplitN(u, ":", 2)[0], " (", 2)[0]
	}
	if m := regexp.MustCompile(`family \d+ model \d+`).FindString(run["cpu_id"]); m != "" {
		s += " (" + m + ")"
	}
	return s
}

// everyCPU is the first screen's verdicts on every CPU of the results
// folder, side by side, the newest run's first: a row that a run did not
// have reads "—".
func (r *report) everyCPU(groups []summaryGroup) {
	if len(r.others) == 0 {
		return
	}
	r.p("### %s\n\n", hEveryCPU)
	r.p("The verdicts above beside those of the runs kept for other CPUs (one run per CPU, its raw outputs in its own folder of %s); ", r.resultsRoot)
	r.p("the tables below this section are the newest run's. A CPU's verdicts hold for that CPU only.\n\n")
	runs := []*results{r.res}
	dirs := []string{r.resultsDir}
	others := make([][]summaryGroup, len(r.others))
	for i, o := range r.others {
		runs = append(runs, o.res)
		dirs = append(dirs, o.dir)
		others[i] = (&report{res: o.res}).summaryGroups()
	}
	for i, run := range runs {
		r.p("- %s: randp's `%s` kernel, commit %s%s, %s; raw outputs in [%s](%s)\n", shortCPU(run.run), or(run.run["backend"], "?"),
			or(run.run["commit"], "?"), dirtyNote(run.run["dirty"]), or(run.run["date"], "date not recorded"), dirs[i], dirs[i])
	}
	r.p("\n")
	for gi, g := range groups {
		r.p("%s\n\n", g.title)
		head := []string{"If you use today", "for"}
		for _, run := range runs {
			head = append(head, shortCPU(run.run))
		}
		t := &table{head: head}
		rows := append([]summaryRow(nil), g.rows...)
		for _, og := range others {
			for _, row := range og[gi].rows {
				if _, ok := findRow(rows, row); !ok {
					rows = append(rows, row)
				}
			}
		}
		for _, row := range rows {
			cells := []string{row.you, row.work}
			for _, rs := range append([][]summaryGroup{groups}, others...) {
				if i, ok := findRow(rs[gi].rows, row); ok {
					cells = append(cells, or(boldRatio(rs[gi].rows[i].verdict()), "—"))
				} else {
					cells = append(cells, "—")
				}
			}
			t.row(cells...)
		}
		r.p("%s\n", t)
	}
}

// findRow is the index of the row doing the same work as row.
func findRow(rows []summaryRow, row summaryRow) (int, bool) {
	for i, x := range rows {
		if x.you == row.you && x.work == row.work {
			return i, true
		}
	}
	return 0, false
}
