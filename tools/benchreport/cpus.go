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
	runs := []*results{r.res}
	var list []map[string]string
	others := make([][]summaryGroup, len(r.others))
	for i, o := range append([]cpuRun{{r.resultsDir, r.res}}, r.others...) {
		if i > 0 {
			runs = append(runs, o.res)
			others[i-1] = (&report{res: o.res}).summaryGroups()
		}
		run := o.res.run
		list = append(list, map[string]string{"CPU": shortCPU(run), "Backend": or(run["backend"], "?"),
			"Commit": or(run["commit"], "?") + dirtyNote(run["dirty"]), "Date": or(run["date"], "date not recorded"), "Dir": o.dir})
	}
	r.text("every_cpu", "Root", r.resultsRoot, "Runs", list)
	for gi, g := range groups {
		r.p("%s\n\n", g.Title)
		head := []string{"If you use today", "for"}
		for _, run := range runs {
			head = append(head, shortCPU(run.run))
		}
		t := &table{head: head}
		rows := append([]summaryRow(nil), g.Rows...)
		for _, og := range others {
			for _, row := range og[gi].Rows {
				if _, ok := findRow(rows, row); !ok {
					rows = append(rows, row)
				}
			}
		}
		for _, row := range rows {
			cells := []string{row.You, row.Work}
			for _, rs := range append([][]summaryGroup{groups}, others...) {
				if i, ok := findRow(rs[gi].Rows, row); ok {
					cells = append(cells, rs[gi].Rows[i].Verdict())
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
		if x.You == row.You && x.Work == row.Work {
			return i, true
		}
	}
	return 0, false
}
