package main

import (
	"encoding/json"
	"fmt"
	"os"
)

// critRaw is one benchmark as criterion wrote it in one pass (0: no
// pass): new/benchmark.json and new/estimates.json, kept verbatim in the
// merged file (benches/merge-results.sh criterion).
type critRaw struct {
	Pass      int             `json:"pass"`
	Benchmark json.RawMessage `json:"benchmark"`
	Estimates json.RawMessage `json:"estimates"`
}

// loadCriterion reads a merged file (critRaw): each benchmark as
// rust:group/function, one sample per pass (the median criterion found in
// that process).
func loadCriterion(path string) (store, error) {
	raw, err := os.ReadFile(path)
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
