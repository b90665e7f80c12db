package main

import (
	"maps"
	"slices"
	"strings"
)

// store is the one shape every input format loads into: each benchmark's
// samples by its reference, source:name (sources), one per pass that ran
// it. criterion's benchmarks also keep criterion's own estimate and what
// one iteration processes.
type store struct {
	samples sampleSet
	crit    map[string]critResult // by reference, rust:group/function
}

// critResult is criterion's estimate of one benchmark in one process: its
// median with criterion's bootstrap interval (ns per iteration) and what
// one iteration processes (0 when not that kind of throughput).
type critResult struct {
	Time            stat
	Bytes, Elements float64
}

func newStore() store { return store{samples: sampleSet{}, crit: map[string]critResult{}} }

// merge adds the benchmarks of o.
func (s store) merge(o store) {
	maps.Copy(s.samples, o.samples)
	maps.Copy(s.crit, o.crit)
}

// stat is the median and interval of the benchmark a reference names
// over its samples; a criterion benchmark run in one process only (the
// parameter sweeps) keeps criterion's own interval, and rust_element is
// a rust benchmark's time per element (per iteration without elements).
func (s store) stat(ref string) stat {
	if name, ok := strings.CutPrefix(ref, "rust_element:"); ok {
		st, e := s.stat("rust:"+name), s.crit["rust:"+name].Elements
		if e > 0 {
			return st.scaled(1 / e)
		}
		return st
	}
	if c, ok := s.crit[ref]; ok && len(s.samples[ref]) == 1 && s.samples[ref][0].pass == 0 {
		return c.Time
	}
	return s.samples.get(ref)
}

// process names the program that measured a benchmark: its source, and a
// criterion group's own (rust:group).
func process(ref string) string {
	src, name, _ := strings.Cut(strings.Replace(ref, "rust_element:", "rust:", 1), ":")
	if src == "rust" {
		group, _, _ := strings.Cut(name, "/")
		return src + ":" + group
	}
	return src
}

// pairs is the samples of benchmarks a and b, a's first, from each pass
// that ran both in one process (one Go test binary, the C program, one
// criterion group), in pass order; none for others, or when the passes of
// either cannot be told apart.
func (s store) pairs(a, b string) [][2]float64 {
	if process(a) != process(b) {
		return nil
	}
	ma, okA := s.samples.byPass(strings.Replace(a, "rust_element:", "rust:", 1))
	mb, okB := s.samples.byPass(strings.Replace(b, "rust_element:", "rust:", 1))
	if !okA || !okB {
		return nil
	}
	var out [][2]float64
	for _, pass := range slices.Sorted(maps.Keys(ma)) {
		if w, ok := mb[pass]; ok {
			out = append(out, [2]float64{ma[pass], w})
		}
	}
	return out
}

// under is the names after prefix of the benchmarks whose references
// start with it ("rust:num_blocks_u64/" gives each parameter value).
func (s store) under(prefix string) []string {
	var names []string
	for ref := range s.samples {
		if name, ok := strings.CutPrefix(ref, prefix); ok {
			names = append(names, name)
		}
	}
	return names
}
