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

// runs is the number of samples of the first benchmark.
func (s *goSet) runs() int {
	if s == nil || len(s.order) == 0 {
		return 0
	}
	return len(s.samples[s.order[0]])
}

// loadGoBench parses `go test -bench` output with x/perf's benchfmt.
func loadGoBench(path string) (*goSet, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	set := &goSet{file: filepath.Base(path), samples: map[string][]float64{}, config: map[string]string{},
		bytesOp: map[string][]float64{}, allocs: map[string][]float64{}}
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
		if b, ok := res.Value("B/op"); ok {
			set.bytesOp[name] = append(set.bytesOp[name], b)
		}
		if a, ok := res.Value("allocs/op"); ok {
			set.allocs[name] = append(set.allocs[name], a)
		}
		set.procs = procs
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

// implementation is what the binary's "randp-implementation" line said, or "".
func (s *goSet) implementation() string {
	if s == nil {
		return ""
	}
	return s.config["randp-implementation"]
}
