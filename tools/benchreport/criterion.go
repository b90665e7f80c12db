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

// loadCriterion reads a merged file (mergeCriterion) or a CRITERION_HOME
// tree: each benchmark as rust:group/function, one sample per pass (the
// median criterion found in that process).
func loadCriterion(path string) (store, error) {
	st, err := os.Stat(path)
	if err != nil {
		return store{}, err
	}
	var raw []byte
	if st.IsDir() {
		raw, err = mergeCriterion(path)
	} else {
		raw, err = os.ReadFile(path)
	}
	if err != nil {
		return store{}, err
	}
	var all []critRaw
	if err := json.Unmarshal(raw, &all); err != nil {
		return store{}, fmt.Errorf("%s: %w", path, err)
	}
	s := newStore()
	for _, r := range all {
		ref, c, err := parseCritRaw(r)
		if err != nil {
			return store{}, fmt.Errorf("%s: %w", path, err)
		}
		s.samples.add(ref, r.Pass, c.Time.Center)
		s.crit[ref] = c
	}
	return s, nil
}

// parseCritRaw is the reference and estimate of one benchmark.
func parseCritRaw(r critRaw) (string, critResult, error) {
	var id struct {
		GroupID    string `json:"group_id"`
		FunctionID string `json:"function_id"`
		ValueStr   string `json:"value_str"`
		Throughput struct{ Bytes, Elements float64 }
	}
	if err := json.Unmarshal(r.Benchmark, &id); err != nil {
		return "", critResult{}, err
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
		return "", critResult{}, err
	}
	fn := id.FunctionID
	if id.ValueStr != "" && fn != "" {
		fn += "/"
	}
	m := est.Median
	return "rust:" + id.GroupID + "/" + fn + id.ValueStr, critResult{Bytes: id.Throughput.Bytes, Elements: id.Throughput.Elements,
		Time: stat{Center: m.PointEstimate, Lo: m.ConfidenceInterval.Lower, Hi: m.ConfidenceInterval.Upper}}, nil
}
