package main

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
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

// cpuOf is the vendor, family and model a run record's cpu_id names
// ("AuthenticAMD family 25 model 17 stepping 1"); false when it names none.
func cpuOf(run runInfo) (vendor string, family, model int, ok bool) {
	m := regexp.MustCompile(`^(\S+) family (\d+) model (\d+)`).FindStringSubmatch(run["cpu_id"])
	if m == nil {
		return "", 0, 0, false
	}
	family, _ = strconv.Atoi(m[2])
	model, _ = strconv.Atoi(m[3])
	return m[1], family, model, true
}

// cpuDir names a run's folder from its CPU: vendor-family-model, e.g.
// "amd-25-17" for "AuthenticAMD family 25 model 17 stepping 1".
func cpuDir(run runInfo) (string, error) {
	vendor, family, model, ok := cpuOf(run)
	if !ok {
		return "", fmt.Errorf("the run record names no CPU family and model (cpu_id %q)", run["cpu_id"])
	}
	short := map[string]string{"GenuineIntel": "intel", "AuthenticAMD": "amd"}[vendor]
	return fmt.Sprintf("%s-%d-%d", cmp.Or(short, strings.ToLower(vendor)), family, model), nil
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

// cpuRuns describes every run of the results folder, the newest first.
func (r *report) cpuRuns() []map[string]string {
	var list []map[string]string
	for _, o := range append([]cpuRun{{r.resultsDir, r.res}}, r.others...) {
		run := o.res.run
		list = append(list, map[string]string{"CPU": r.exec("short_cpu", run), "Backend": cmp.Or(run["backend"], "?"),
			"Commit": cmp.Or(run["commit"], "?") + dirtyNote(run["dirty"]), "Date": cmp.Or(run["date"], "date not recorded"), "Dir": o.dir})
	}
	return list
}

// everyGroup is one group of the first screen's verdicts on every CPU.
type everyGroup struct {
	Title string
	Rows  []everyRow
}

// everyRow is a first-screen row's verdict on each CPU, the newest run's
// first.
type everyRow struct {
	You, Work string
	Verdicts  []string
}

// everyCPU is the first screen's verdicts on every CPU of the results
// folder, side by side, the newest run's rows first, then the rows only
// older runs have: a row that a run did not have reads "—". Nothing when
// the folder holds one run.
func (r *report) everyCPU() []everyGroup {
	if len(r.others) == 0 {
		return nil
	}
	all := [][]summaryGroup{r.summaryGroups()}
	for _, o := range r.others {
		all = append(all, (&report{res: o.res}).summaryGroups())
	}
	var out []everyGroup
	for gi, g := range all[0] {
		var rows []everyRow
		at := map[[2]string]int{} // a row's index in rows, by its You and Work
		for run, groups := range all {
			for _, row := range groups[gi].Rows {
				key := [2]string{row.You, row.Work}
				i, ok := at[key]
				if !ok {
					i, at[key] = len(rows), len(rows)
					rows = append(rows, everyRow{row.You, row.Work, slices.Repeat([]string{"—"}, len(all))})
				}
				rows[i].Verdicts[run] = row.Verdict()
			}
		}
		out = append(out, everyGroup{g.Title, rows})
	}
	return out
}
