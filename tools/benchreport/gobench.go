package main

import (
	"bytes"
	"fmt"
	"os"
	"regexp"
	"strings"

	"golang.org/x/perf/benchfmt"
)

// goSet holds one go test binary's results: ns/op samples (one per pass)
// by benchmark name without the -GOMAXPROCS suffix, and that suffix.
type goSet struct {
	sampleSet
	bytesOp sampleSet // B/op, one per pass (-benchmem)
	allocs  sampleSet // allocs/op, one per pass
	order   []string
	procs   string
	config  map[string]string
}

// mem is the median B/op and allocs/op of a benchmark, when recorded.
func (s *goSet) mem(name string) (bytesOp, allocs float64, ok bool) {
	if s == nil || len(s.bytesOp[name]) == 0 || len(s.allocs[name]) == 0 {
		return 0, 0, false
	}
	return s.bytesOp.get(name).Center, s.allocs.get(name).Center, true
}

// runs is the number of samples of the first benchmark.
func (s *goSet) runs() int {
	if s == nil || len(s.order) == 0 {
		return 0
	}
	return len(s.sampleSet[s.order[0]])
}

// loadGoBench parses `go test -bench` output with x/perf's benchfmt. The
// passes' outputs follow one another, each ending with the binary's PASS
// line, which numbers the passes from 1.
func loadGoBench(path string) (*goSet, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	set := &goSet{sampleSet: sampleSet{}, config: map[string]string{}, bytesOp: sampleSet{}, allocs: sampleSet{}}
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
		if _, seen := set.sampleSet[name]; !seen {
			set.order = append(set.order, name)
		}
		set.add(name, pass, v)
		if b, ok := res.Value("B/op"); ok {
			set.bytesOp.add(name, pass, b)
		}
		if a, ok := res.Value("allocs/op"); ok {
			set.allocs.add(name, pass, a)
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
