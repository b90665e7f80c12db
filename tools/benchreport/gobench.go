package main

import (
	"bytes"
	"cmp"
	"fmt"
	"os"
	"regexp"
	"strings"

	"golang.org/x/perf/benchfmt"
)

// goRun is what one go test binary's output says beside its results: the
// -GOMAXPROCS suffix of its benchmarks' names, its configuration lines
// ("randp-implementation: purego") and the passes of its first benchmark.
type goRun struct {
	procs  string
	config map[string]string
	runs   int
}

// loadGoBench parses `go test -bench` output with x/perf's benchfmt: each
// benchmark as src:name without the -GOMAXPROCS suffix, its ns/op samples
// under that reference and its B/op and allocs/op (-benchmem) under the
// reference with " B/op" and " allocs/op" added. The passes' outputs
// follow one another, each ending with the binary's PASS line, which
// numbers the passes from 1.
func loadGoBench(path, src string) (store, goRun, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return store{}, goRun{}, err
	}
	s, g, first := newStore(), goRun{config: map[string]string{}}, ""
	passes := passEnd.Split(string(raw), -1)
	if strings.TrimSpace(passes[len(passes)-1]) == "" {
		passes = passes[:len(passes)-1]
	}
	for i, out := range passes {
		rd := benchfmt.NewReader(strings.NewReader(out), path)
		for rd.Scan() {
			res, ok := rd.Result().(*benchfmt.Result)
			if !ok {
				continue
			}
			for _, c := range res.Config {
				if c.File {
					g.config[c.Key] = string(c.Value)
				}
			}
			base, parts := res.Name.Parts()
			procs := ""
			if n := len(parts); n > 0 && parts[n-1][0] == '-' {
				procs, parts = string(parts[n-1]), parts[:n-1]
			}
			ref := src + ":" + string(base) + string(bytes.Join(parts, nil))
			v, ok := res.Value("sec/op")
			if ok {
				v *= 1e9
			} else if v, ok = res.Value("ns/op"); !ok {
				continue
			}
			first = cmp.Or(first, ref)
			s.samples.add(ref, i+1, v)
			for _, unit := range []string{"B/op", "allocs/op"} {
				if m, ok := res.Value(unit); ok {
					s.samples.add(ref+" "+unit, i+1, m)
				}
			}
			g.procs = procs
		}
		if err := rd.Err(); err != nil {
			return store{}, goRun{}, fmt.Errorf("%s: %w", path, err)
		}
	}
	if first == "" {
		return store{}, goRun{}, fmt.Errorf("%s: no benchmark results", path)
	}
	g.runs = len(s.samples[first])
	return s, g, nil
}

// passEnd is the line that ends a pass's output: PASS or FAIL, the last a
// go test binary prints.
var passEnd = regexp.MustCompile(`(?m)^(?:PASS|FAIL)\n`)
