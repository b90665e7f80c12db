package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
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
	passes := passEnd.Split(string(raw), -1)
	if strings.TrimSpace(passes[len(passes)-1]) == "" {
		passes = passes[:len(passes)-1]
	}
	for i, out := range passes {
		if err := set.scan(path, out, i+1); err != nil {
			return nil, err
		}
	}
	if len(set.order) == 0 {
		return nil, fmt.Errorf("%s: no benchmark results", path)
	}
	return set, nil
}

// passEnd is the line that ends a pass's output: PASS or FAIL, the last a
// go test binary prints.
var passEnd = regexp.MustCompile(`(?m)^(?:PASS|FAIL)\n`)

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
		base, parts := res.Name.Parts()
		procs := ""
		if n := len(parts); n > 0 && parts[n-1][0] == '-' {
			procs, parts = string(parts[n-1]), parts[:n-1]
		}
		name := string(base) + string(bytes.Join(parts, nil))
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

// implementation is what the binary's "randp-implementation" line said, or "".
func (s *goSet) implementation() string {
	if s == nil {
		return ""
	}
	return s.config["randp-implementation"]
}
