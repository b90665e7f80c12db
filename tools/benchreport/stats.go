package main

import (
	"fmt"
	"math"

	"golang.org/x/perf/benchmath"
)

// confidence is the level of every interval in the report.
const confidence = 0.95

// stat is one contestant's time per operation in ns: the median and a
// confidence interval around it [Lo, Hi]. N is the number of samples behind
// it (0 when the interval comes from criterion's bootstrap).
type stat struct {
	Center, Lo, Hi float64
	N              int
}

// ok reports whether the stat holds a measurement.
func (s stat) ok() bool { return s.Center > 0 && !math.IsNaN(s.Center) }

// summarize is benchstat's summary of a sample: the median with a
// distribution-free confidence interval from order statistics. Fewer than 6
// samples give an infinite interval, so no ratio is claimed from them.
func summarize(values []float64) stat {
	if len(values) == 0 {
		return stat{}
	}
	// NewSample sorts the slice it is given: a copy, so that the caller's
	// slice keeps its order.
	values = append([]float64(nil), values...)
	s := benchmath.AssumeNothing.Summary(benchmath.NewSample(values, &benchmath.DefaultThresholds), confidence)
	return stat{Center: s.Center, Lo: s.Lo, Hi: s.Hi, N: len(values)}
}

// scaled is s with every bound multiplied by k (e.g. ns per byte to ns per call).
func (s stat) scaled(k float64) stat {
	return stat{Center: s.Center * k, Lo: s.Lo * k, Hi: s.Hi * k, N: s.N}
}

// separated reports whether the two intervals do not overlap: the only
// case in which the report states a ratio.
func separated(a, b stat) bool {
	if !a.ok() || !b.ok() {
		return false
	}
	return a.Hi < b.Lo || b.Hi < a.Lo
}

// noDifference is what the report prints instead of a ratio when the
// intervals overlap.
const noDifference = "~ (no significant difference)"

// compare says how randp compares with a rival, both as times per
// operation (lower is better): "3.1× faster", "1.2× slower", or
// noDifference when their intervals overlap; "" when either is missing.
func compare(randp, rival stat) string {
	if !randp.ok() || !rival.ok() {
		return ""
	}
	if !separated(randp, rival) {
		return noDifference
	}
	return faster(randp.Center, rival.Center)
}

// ratioOf is a/b of the medians, and whether the intervals separate.
func ratioOf(a, b stat) (float64, bool) {
	if !a.ok() || !b.ok() {
		return 0, false
	}
	return a.Center / b.Center, separated(a, b)
}

// per is a/b of the medians as "0.30×", or "" when either is not measured.
func per(a, b stat) string {
	if !a.ok() || !b.ok() {
		return ""
	}
	return sig(a.Center/b.Center) + "×"
}

// plus is the sum of two medians, as a stat without an interval.
func plus(a, b stat) stat {
	c := a.Center + b.Center
	return stat{Center: c, Lo: c, Hi: c}
}

// per32 is the median time of s, which draws bits random bits, per 32
// bits; "" when s is not measured.
func per32(s stat, bits float64) string {
	if !s.ok() {
		return ""
	}
	return ns(s.Center * 32 / bits)
}

// pct is the throughput of b as a share of a's (times per operation).
func pct(a, b stat) string {
	if !a.ok() || !b.ok() {
		return "not measured"
	}
	return fmt.Sprintf("%.0f%%", 100*a.Center/b.Center)
}

// sampleSet is samples by benchmark reference (store): a value from each
// pass (process) that ran the benchmark, with that pass, in the order read.
type sampleSet map[string][]sample

type sample struct {
	pass int
	v    float64
}

func (s sampleSet) add(name string, pass int, v float64) { s[name] = append(s[name], sample{pass, v}) }

// values is a benchmark's values in the order read.
func (s sampleSet) values(name string) []float64 {
	var v []float64
	for _, x := range s[name] {
		v = append(v, x.v)
	}
	return v
}

// get is a benchmark's median and interval; nothing when not measured.
func (s sampleSet) get(name string) stat { return summarize(s.values(name)) }

// byPass is a benchmark's values by pass; false when two values claim one
// pass (output whose passes cannot be told apart).
func (s sampleSet) byPass(name string) (map[int]float64, bool) {
	m := map[int]float64{}
	for _, x := range s[name] {
		if _, dup := m[x.pass]; dup {
			return nil, false
		}
		m[x.pass] = x.v
	}
	return m, true
}
