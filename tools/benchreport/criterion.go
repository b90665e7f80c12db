package main

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// critResult is one criterion benchmark: the median time per iteration and
// what one iteration processes.
type critResult struct {
	Group, Function string
	MedianNs        float64 // median of the samples' time per iteration
	Bytes           float64 // bytes per iteration, 0 if not a byte throughput
	Elements        float64 // elements per iteration, 0 if not an element throughput
}

// GBps is the byte throughput in GB/s (10^9 bytes per second).
func (c critResult) GBps() float64 { return c.Bytes / c.MedianNs }

// NsPerElement is the time per element, or per iteration without an element count.
func (c critResult) NsPerElement() float64 {
	if c.Elements > 0 {
		return c.MedianNs / c.Elements
	}
	return c.MedianNs
}

// critSet holds results by group, then function id.
type critSet map[string]map[string]critResult

func (s critSet) get(group, function string) (critResult, bool) {
	r, ok := s[group][function]
	return r, ok
}

// loadCriterion reads every new/benchmark.json with its new/estimates.json
// under dir (criterion's CRITERION_HOME layout).
func loadCriterion(dir string) (critSet, error) {
	set := critSet{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || d.Name() != "benchmark.json" || filepath.Base(filepath.Dir(path)) != "new" {
			return nil
		}
		var id struct {
			GroupID    string  `json:"group_id"`
			FunctionID *string `json:"function_id"`
			ValueStr   *string `json:"value_str"`
			Throughput *struct {
				Bytes    *float64
				Elements *float64
			} `json:"throughput"`
		}
		if err := readJSON(path, &id); err != nil {
			return err
		}
		var est struct {
			Median struct {
				PointEstimate float64 `json:"point_estimate"`
			} `json:"median"`
		}
		if err := readJSON(filepath.Join(filepath.Dir(path), "estimates.json"), &est); err != nil {
			return err
		}
		fn := ""
		if id.FunctionID != nil {
			fn = *id.FunctionID
		}
		if id.ValueStr != nil {
			if fn != "" {
				fn += "/"
			}
			fn += *id.ValueStr
		}
		r := critResult{Group: id.GroupID, Function: fn, MedianNs: est.Median.PointEstimate}
		if t := id.Throughput; t != nil {
			if t.Bytes != nil {
				r.Bytes = *t.Bytes
			}
			if t.Elements != nil {
				r.Elements = *t.Elements
			}
		}
		if set[r.Group] == nil {
			set[r.Group] = map[string]critResult{}
		}
		set[r.Group][r.Function] = r
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("reading criterion results: %w", err)
	}
	return set, nil
}

func readJSON(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}
