package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

// cSet is the C benchmarks' results (Google Benchmark JSON from
// benches/c/bench_c): for each benchmark, the time of one operation in ns
// per repetition, and the contestants the program could not run, with why.
//
// An operation is one call of the benchmark's size on one thread; with
// several threads its time is the wall time divided by the calls of all
// threads (so perfect scaling halves it), from the aggregate rate.
type cSet struct {
	samples map[string][]float64 // by name without "/real_time"
	missing map[string]string    // contestant key -> reason
	context map[string]any
}

func (s *cSet) get(name string) stat {
	if s == nil {
		return stat{}
	}
	return summarize(s.samples[name])
}

// why says why a contestant has no rows ("" when it ran).
func (s *cSet) why(key string) string {
	if s == nil {
		return "C benchmarks not run"
	}
	return s.missing[key]
}

func loadCBench(path string) (*cSet, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var doc struct {
		Context    map[string]any `json:"context"`
		Benchmarks []struct {
			Name           string  `json:"name"`
			RunName        string  `json:"run_name"`
			RunType        string  `json:"run_type"`
			Threads        int     `json:"threads"`
			Iterations     float64 `json:"iterations"`
			RealTime       float64 `json:"real_time"`
			TimeUnit       string  `json:"time_unit"`
			BytesPerSecond float64 `json:"bytes_per_second"`
			ItemsPerSecond float64 `json:"items_per_second"`
			ErrorOccurred  bool    `json:"error_occurred"`
		} `json:"benchmarks"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	s := &cSet{samples: map[string][]float64{}, missing: map[string]string{}, context: doc.Context}
	for k, v := range doc.Context {
		if key, ok := strings.CutPrefix(k, "missing:"); ok {
			s.missing[key] = fmt.Sprint(v)
		}
	}
	for _, b := range doc.Benchmarks {
		if b.RunType != "iteration" || b.ErrorOccurred {
			continue
		}
		name := strings.Replace(b.RunName, "/real_time", "", 1)
		size := opBytes(name)
		var v float64
		switch {
		case b.BytesPerSecond > 0 && size > 0:
			v = 1e9 * size / b.BytesPerSecond
		case b.ItemsPerSecond > 0:
			v = 1e9 / b.ItemsPerSecond
		default:
			v = b.RealTime * unitNs(b.TimeUnit)
		}
		s.samples[name] = append(s.samples[name], v)
	}
	if len(s.samples) == 0 {
		return nil, fmt.Errorf("%s: no benchmark results", path)
	}
	return s, nil
}

// opBytes is the bytes one call of a fill benchmark writes, from its table
// name ("fill_1MiB/...", "read_4B/...", "threads_fill_1MiB/..."), or 0.
func opBytes(name string) float64 {
	tbl, _, _ := strings.Cut(name, "/")
	for _, p := range []string{"threads_fill_", "fill_", "read_"} {
		if size, ok := strings.CutPrefix(tbl, p); ok {
			return parseSize(size)
		}
	}
	return 0
}

// parseSize reads "4B", "256B", "4KiB", "1MiB" (and dcrd's "4b").
func parseSize(s string) float64 {
	var n float64
	var unit string
	if _, err := fmt.Sscanf(s, "%f%s", &n, &unit); err != nil {
		return 0
	}
	switch unit {
	case "B", "b":
		return n
	case "KiB":
		return n * 1024
	case "MiB":
		return n * (1 << 20)
	}
	return 0
}

func unitNs(u string) float64 {
	switch u {
	case "us":
		return 1e3
	case "ms":
		return 1e6
	case "s":
		return 1e9
	}
	return 1
}
