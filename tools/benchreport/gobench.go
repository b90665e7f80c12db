package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/perf/benchfmt"
)

// goSet holds one go test binary's results: ns/op samples (one per pass)
// by benchmark name without the -GOMAXPROCS suffix, and that suffix.
type goSet struct {
	file    string
	samples map[string][]float64
	passes  map[string][]int     // the pass of each sample, for pairs
	bytesOp map[string][]float64 // B/op, one per pass (-benchmem)
	allocs  map[string][]float64 // allocs/op, one per pass
	order   []string
	procs   string
	config  map[string]string
}

// mem is the median B/op and allocs/op of a benchmark, when recorded.
func (s *goSet) mem(name string) (bytesOp, allocs float64, ok bool) {
	if s == nil || len(s.bytesOp[name]) == 0 || len(s.allocs[name]) == 0 {
		return 0, 0, false
	}
	return summarize(s.bytesOp[name]).Center, summarize(s.allocs[name]).Center, true
}

func (s *goSet) get(name string) stat {
	if s == nil {
		return stat{}
	}
	return summarize(s.samples[name])
}

// pairs gives, for each pass that ran both benchmarks a and b, their two
// samples (a's first): the two ran in one process. It gives none when the
// output does not say which pass each sample came from.
func (s *goSet) pairs(a, b string) [][2]float64 {
	ma, okA := s.byPass(a)
	mb, okB := s.byPass(b)
	if !okA || !okB {
		return nil
	}
	return pairByPass(ma, mb)
}

// byPass is a benchmark's samples by pass; false when two samples claim one
// pass (output whose passes cannot be told apart).
func (s *goSet) byPass(name string) (map[int]float64, bool) {
	m := map[int]float64{}
	if s == nil {
		return m, true
	}
	for i, pass := range s.passes[name] {
		if _, dup := m[pass]; dup {
			return nil, false
		}
		m[pass] = s.samples[name][i]
	}
	return m, true
}

// runs is the number of samples of the first benchmark.
func (s *goSet) runs() int {
	if s == nil || len(s.order) == 0 {
		return 0
	}
	return len(s.samples[s.order[0]])
}

// loadGoBench parses `go test -bench` output with x/perf's benchfmt. The
// passes' outputs follow one another, each ending with the binary's PASS
// line, which numbers the passes from 1.
func loadGoBench(path string) (*goSet, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	set := &goSet{file: filepath.Base(path), samples: map[string][]float64{}, passes: map[string][]int{},
		config: map[string]string{}, bytesOp: map[string][]float64{}, allocs: map[string][]float64{}}
	for i, out := range splitPasses(string(raw)) {
		if err := set.scan(path, out, i+1); err != nil {
			return nil, err
		}
	}
	if len(set.order) == 0 {
		return nil, fmt.Errorf("%s: no benchmark results", path)
	}
	return set, nil
}

// splitPasses cuts the concatenated outputs of the passes after each line
// that is PASS or FAIL, the last a go test binary prints.
func splitPasses(all string) []string {
	var out []string
	start := 0
	for i := 0; i < len(all); {
		end := strings.IndexByte(all[i:], '\n')
		if end < 0 {
			break
		}
		line := all[i : i+end]
		i += end + 1
		if line == "PASS" || line == "FAIL" {
			out = append(out, all[start:i])
			start = i
		}
	}
	if strings.TrimSpace(all[start:]) != "" {
		out = append(out, all[start:])
	}
	return out
}

// scan adds the results of one pass's output.
func (set *goSet) scan(path, out string, pass int) error {
	rd := benchfmt.NewReader(strings.NewReader(out), path)
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
		v, ok := res.Value("sec/op")
		if ok {
			v *= 1e9
		} else if v, ok = res.Value("ns/op"); !ok {
			continue
		}
		if _, seen := set.samples[name]; !seen {
			set.order = append(set.order, name)
		}
		set.samples[name] = append(set.samples[name], v)
		set.passes[name] = append(set.passes[name], pass)
		if b, ok := res.Value("B/op"); ok {
			set.bytesOp[name] = append(set.bytesOp[name], b)
		}
		if a, ok := res.Value("allocs/op"); ok {
			set.allocs[name] = append(set.allocs[name], a)
		}
		set.procs = procs
	}
	if err := rd.Err(); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
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

// implementation is what the binary's "randp-implementation" line said, or "".
func (s *goSet) implementation() string {
	if s == nil {
		return ""
	}
	return s.config["randp-implementation"]
}
