package main

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"golang.org/x/perf/benchfmt"
)

// goResult is one Go benchmark over all its -count runs.
type goResult struct {
	Name    string    // full name without the -GOMAXPROCS suffix
	NsPerOp []float64 // one per run
	Procs   string    // the -GOMAXPROCS suffix, e.g. "-2"
}

// Median ns/op over the runs.
func (g goResult) Median() float64 { return median(g.NsPerOp) }

// goSet holds results by name, with the order of first appearance and the
// file's configuration lines (goos, cpu, ...).
type goSet struct {
	byName map[string]*goResult
	order  []string
	config map[string]string
}

func (s *goSet) get(name string) (goResult, bool) {
	r, ok := s.byName[name]
	if !ok {
		return goResult{}, false
	}
	return *r, true
}

// loadGoBench parses `go test -bench` output with x/perf's benchfmt.
func loadGoBench(path string) (*goSet, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	set := &goSet{byName: map[string]*goResult{}, config: map[string]string{}}
	rd := benchfmt.NewReader(f, path)
	for rd.Scan() {
		res, ok := rd.Result().(*benchfmt.Result)
		if !ok {
			continue
		}
		for _, c := range res.Config {
			if c.File {
				set.config[c.Key] = string(c.Value)
			}
		}
		name, procs := splitProcs(res.Name.String())
		ns, ok := res.Value("sec/op")
		if ok {
			ns *= 1e9
		} else if ns, ok = res.Value("ns/op"); !ok {
			continue
		}
		g := set.byName[name]
		if g == nil {
			g = &goResult{Name: name, Procs: procs}
			set.byName[name] = g
			set.order = append(set.order, name)
		}
		g.NsPerOp = append(g.NsPerOp, ns)
	}
	if err := rd.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(set.order) == 0 {
		return nil, fmt.Errorf("%s: no benchmark results", path)
	}
	return set, nil
}

// splitProcs splits "Name/sub-2" into "Name/sub" and "-2".
func splitProcs(full string) (string, string) {
	i := strings.LastIndexByte(full, '-')
	if i < 0 || i == len(full)-1 || strings.IndexByte(full[i:], '/') >= 0 {
		return full, ""
	}
	for _, c := range full[i+1:] {
		if c < '0' || c > '9' {
			return full, ""
		}
	}
	return full[:i], full[i:]
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}
