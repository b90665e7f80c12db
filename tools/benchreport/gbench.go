package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"time"
)

// cRun is what the C program (benches/c/bench_c, Google Benchmark JSON)
// says beside its results: the contestants it could not run, with why;
// the library's build type, as the first pass that says reports it; and
// where each pass's fill destinations started past a 64-byte boundary
// (benches/c's DstOffset), for the passes that say.
type cRun struct {
	missing   map[string]string // contestant key -> reason; nil when the C program did not run
	build     string
	dstOffset map[int]int
}

// why says why a contestant has no rows ("" when it ran).
func (c cRun) why(key string) string {
	if c.missing == nil {
		return "C benchmarks not run"
	}
	return c.missing[key]
}

// gbenchRun is one Google Benchmark JSON output.
type gbenchRun struct {
	Context    map[string]any `json:"context"`
	Benchmarks []struct {
		RunName        string  `json:"run_name"`
		RunType        string  `json:"run_type"`
		RealTime       float64 `json:"real_time"`
		TimeUnit       string  `json:"time_unit"`
		BytesPerSecond float64 `json:"bytes_per_second"`
		ItemsPerSecond float64 `json:"items_per_second"`
		ErrorOccurred  bool    `json:"error_occurred"`
		// The counters of the fill_turns_ rows: ns per call of randp and
		// of the rival it took turns with.
		RandpNs float64 `json:"randp_ns"`
		RivalNs float64 `json:"rival_ns"`
	} `json:"benchmarks"`
}

// gbenchPass is one pass's Google Benchmark output in a merged file
// (benches/merge-results.sh c).
type gbenchPass struct {
	Pass int       `json:"pass"`
	Run  gbenchRun `json:"run"`
}

// loadCBench reads a merged file (gbenchPass) or one Google Benchmark
// JSON output (every sample then counts as pass 0): each benchmark as
// c:name without "/real_time", its time of one operation in ns.
//
// An operation is one call of the benchmark's size on one thread; with
// several threads its time is the wall time divided by the calls of all
// threads (so perfect scaling halves it), from the aggregate rate.
func loadCBench(path string) (store, cRun, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return store{}, cRun{}, err
	}
	var merged struct {
		Passes []gbenchPass `json:"passes"`
		gbenchRun
	}
	if err := json.Unmarshal(raw, &merged); err != nil {
		return store{}, cRun{}, fmt.Errorf("%s: %w", path, err)
	}
	if merged.Passes == nil {
		merged.Passes = []gbenchPass{{Run: merged.gbenchRun}}
	}
	s, c := newStore(), cRun{missing: map[string]string{}, dstOffset: map[int]int{}}
	for _, p := range merged.Passes {
		doc := p.Run
		add := func(name string, v float64) { s.samples.add("c:"+name, p.Pass, v) }
		if c.build == "" {
			c.build, _ = doc.Context["library_build_type"].(string)
		}
		if v, ok := doc.Context["dst_offset"]; ok {
			var off int
			if _, err := fmt.Sscan(fmt.Sprint(v), &off); err == nil {
				c.dstOffset[p.Pass] = off
			}
		}
		for k, v := range doc.Context {
			if key, ok := strings.CutPrefix(k, "missing:"); ok {
				c.missing[key] = fmt.Sprint(v)
			}
		}
		for _, b := range doc.Benchmarks {
			if b.RunType != "iteration" || b.ErrorOccurred {
				continue
			}
			name := strings.Replace(b.RunName, "/real_time", "", 1)
			if tbl, pair, ok := strings.Cut(name, "/"); ok && strings.HasPrefix(tbl, turnsPrefix) {
				// One row, two samples: "fill_turns_2KiB/randp_planet36" gives
				// fill_turns_2KiB/randp and fill_turns_2KiB/planet36.
				if rival, ok := strings.CutPrefix(pair, "randp_"); ok && b.RandpNs > 0 && b.RivalNs > 0 {
					add(tbl+"/randp", b.RandpNs)
					add(tbl+"/"+rival, b.RivalNs)
				}
				continue
			}
			unit, err := time.ParseDuration("1" + b.TimeUnit) // "ns", "us", "ms", "s"
			if err != nil {
				unit = 1
			}
			switch size := opBytes(name); {
			case b.BytesPerSecond > 0 && size > 0:
				add(name, 1e9*size/b.BytesPerSecond)
			case b.ItemsPerSecond > 0:
				add(name, 1e9/b.ItemsPerSecond)
			default:
				add(name, b.RealTime*float64(unit))
			}
		}
	}
	if len(s.samples) == 0 {
		return store{}, cRun{}, fmt.Errorf("%s: no benchmark results", path)
	}
	return s, c, nil
}

// turnsPrefix starts the tables in which randp and a rival fill in turns
// (benches/c's FillTurns), each turn timed on its own.
const turnsPrefix = "fill_turns_"

// fillTable is the table of the C fills of `n` bytes that set randp beside
// planet36/randp: the one in turns when the run has it (both then measured
// in the same moments), else the rows measured one after the other.
func (r *report) fillTable(n float64) string {
	if r.stat("c:" + turnsPrefix + sizeName(n) + "/randp").ok() {
		return turnsPrefix + sizeName(n) + "/"
	}
	return "fill_" + sizeName(n) + "/"
}

// inTurns reports whether the run measured the fill tables that set randp
// beside planet36/randp in turns (templates/c.tmpl's turns says how).
func (r *report) inTurns() bool { return strings.HasPrefix(r.fillTable(2048), turnsPrefix) }

// opBytes is the bytes one call of a fill benchmark writes, from its table
// name ("fill_1MiB/...", "read_4B/...", "threads_fill_1MiB/..."), or 0.
func opBytes(name string) float64 {
	tbl, _, _ := strings.Cut(name, "/")
	for _, p := range []string{"threads_fill_", "fill_"} {
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
