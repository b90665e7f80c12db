package main

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// critResult is one criterion benchmark: the median time per iteration over
// the passes, each pass's sample being criterion's median of that pass, with
// the order-statistics interval of the median (as for C and Go); a benchmark
// run in one process only (the parameter sweeps) keeps criterion's own
// bootstrap interval. Bytes and Elements say what one iteration processes.
type critResult struct {
	Group, Function string
	Time            stat            // ns per iteration
	ByPass          map[int]float64 // each pass's sample by pass; nil for a one-process benchmark
	Bytes           float64         // bytes per iteration, 0 if not a byte throughput
	Elements        float64         // elements per iteration, 0 if not an element throughput
}

// GBps is the median byte throughput in GB/s (10^9 bytes per second).
func (c critResult) GBps() float64 { return c.Bytes / c.Time.Center }

// PerElement is the time per element, or per iteration without an element count.
func (c critResult) PerElement() stat {
	if c.Elements > 0 {
		return c.Time.scaled(1 / c.Elements)
	}
	return c.Time
}

// critSet holds results by group, then function id.
type critSet map[string]map[string]critResult

func (s critSet) get(group, function string) critResult {
	return s[group][function]
}

// pairs gives, for each pass that ran both functions a and b of group, their
// two samples (a's first): the two were measured in one process.
func (s critSet) pairs(group, a, b string) [][2]float64 {
	return pairByPass(s.get(group, a).ByPass, s.get(group, b).ByPass)
}

// critRaw is one benchmark as criterion wrote it: new/benchmark.json and
// new/estimates.json, kept verbatim in the merged file.
type critRaw struct {
	Pass      int             `json:"pass,omitempty"`
	Benchmark json.RawMessage `json:"benchmark"`
	Estimates json.RawMessage `json:"estimates"`
}

// mergeCriterion gathers every new/benchmark.json with its
// new/estimates.json under dir (criterion's CRITERION_HOME layout, one
// pass-NN folder per pass, or none) into one JSON array, the raw record
// committed beside the report; each entry carries its pass (0: no pass).
func mergeCriterion(dir string) ([]byte, error) {
	var all []critRaw
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || d.Name() != "benchmark.json" || filepath.Base(filepath.Dir(path)) != "new" {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		e, err := os.ReadFile(filepath.Join(filepath.Dir(path), "estimates.json"))
		if err != nil {
			return err
		}
		pass := 0
		if rel, err := filepath.Rel(dir, path); err == nil {
			first, _, _ := strings.Cut(filepath.ToSlash(rel), "/")
			fmt.Sscanf(first, "pass-%d", &pass)
		}
		all = append(all, critRaw{pass, b, e})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("reading criterion results: %w", err)
	}
	slices.SortFunc(all, func(a, b critRaw) int {
		return cmp.Or(a.Pass-b.Pass, strings.Compare(string(a.Benchmark), string(b.Benchmark)))
	})
	return json.MarshalIndent(all, "", " ")
}

// loadCriterion reads a merged file (mergeCriterion) or a CRITERION_HOME tree.
func loadCriterion(path string) (critSet, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	var raw []byte
	if st.IsDir() {
		if raw, err = mergeCriterion(path); err != nil {
			return nil, err
		}
	} else if raw, err = os.ReadFile(path); err != nil {
		return nil, err
	}
	var all []critRaw
	if err := json.Unmarshal(raw, &all); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	set, samples := critSet{}, sampleSet{}
	for _, r := range all {
		c, err := parseCritRaw(r)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if set[c.Group] == nil {
			set[c.Group] = map[string]critResult{}
		}
		k := c.Group + "\x00" + c.Function // both, though either may hold a slash
		samples.add(k, r.Pass, c.Time.Center)
		if r.Pass > 0 {
			c.ByPass, _ = samples.byPass(k)
		}
		if r.Pass > 0 || len(samples[k]) > 1 {
			c.Time = samples.get(k)
		}
		set[c.Group][c.Function] = c
	}
	return set, nil
}

func parseCritRaw(r critRaw) (critResult, error) {
	var id struct {
		GroupID    string `json:"group_id"`
		FunctionID string `json:"function_id"`
		ValueStr   string `json:"value_str"`
		Throughput struct{ Bytes, Elements float64 }
	}
	if err := json.Unmarshal(r.Benchmark, &id); err != nil {
		return critResult{}, err
	}
	var est struct {
		Median struct {
			PointEstimate      float64 `json:"point_estimate"`
			ConfidenceInterval struct {
				Lower float64 `json:"lower_bound"`
				Upper float64 `json:"upper_bound"`
			} `json:"confidence_interval"`
		} `json:"median"`
	}
	if err := json.Unmarshal(r.Estimates, &est); err != nil {
		return critResult{}, err
	}
	fn := id.FunctionID
	if id.ValueStr != "" && fn != "" {
		fn += "/"
	}
	m := est.Median
	return critResult{Group: id.GroupID, Function: fn + id.ValueStr, Bytes: id.Throughput.Bytes, Elements: id.Throughput.Elements,
		Time: stat{Center: m.PointEstimate, Lo: m.ConfidenceInterval.Lower, Hi: m.ConfidenceInterval.Upper}}, nil
}
