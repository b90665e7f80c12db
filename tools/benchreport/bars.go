package main

import (
	"fmt"
	"strings"
)

// bar is one speed target, checked against this run's medians.
type bar struct {
	what     string
	measured string
	target   string
	met      string
}

// linkProfile points a missed target at the section of "Misses explained"
// headed h.
func (b *bar) linkProfile(h string) { b.met += " ([profile](" + anchor(h) + "))" }

// ratioBar is the time ratio a/b of two contestants against a target (a
// throughput ratio is the inverse time ratio: pass the contestants swapped).
func ratioBar(what string, a, b stat, target string, ok func(float64) bool) bar {
	v, sep := ratioOf(a, b)
	return ratioVerdict(what, v, sep, "medians", target, ok)
}

// ratioVerdict is a bar for ratio v, significant or not (then the cell
// names what v is the ratio of: `of`); 0 is not measured.
func ratioVerdict(what string, v float64, sep bool, of, target string, ok func(float64) bool) bar {
	if v == 0 {
		return bar{what, "not measured", target, "—"}
	}
	m := sig(v) + "×"
	if !sep {
		m = fmt.Sprintf("%s (%s %s×)", noDifference, of, sig(v))
	}
	return bar{what, m, target, yesNo(ok(v))}
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "**no**"
}

func le(max float64) func(float64) bool { return func(v float64) bool { return v <= max } }
func ge(min float64) func(float64) bool { return func(v float64) bool { return v >= min } }

func (r *report) barTable(title string, bars []bar) {
	r.p("**%s**\n\n", title)
	t := &table{head: []string{"Target", "Measured", "Required", "Met on this CPU"}}
	for _, b := range bars {
		t.row(b.what, b.measured, b.target, b.met)
	}
	r.p("%s\n", t)
}

// fillRatio is randp's throughput against planet36/randp for C fills of
// `n` bytes (planet36/randp's time over randp's) and whether it is
// significant. From rows in turns it is paired: the median of each
// process's ratio, significant when that median's interval excludes 1
// (both sides of a process met the same moments, so the pairs carry the
// comparison); from rows measured one after the other, the ratio of the
// two medians, significant when their intervals do not overlap.
func (r *report) fillRatio(n float64) (v float64, sep, paired bool) {
	c := r.res.c
	table := c.fillTable(n)
	if !strings.HasPrefix(table, turnsPrefix) {
		v, sep = ratioOf(c.get(table+"planet36"), c.get(table+"randp"))
		return v, sep, false
	}
	v, sep = pairedRatio(c.pairs(table+"planet36", table+"randp"))
	return v, sep, true
}

// pairedRatio is the median over the processes of each one's ratio
// p[0]/p[1], significant when that median's interval excludes 1.
func pairedRatio(pairs [][2]float64) (float64, bool) {
	var ratios []float64
	for _, p := range pairs {
		if p[1] > 0 {
			ratios = append(ratios, p[0]/p[1])
		}
	}
	s := summarize(ratios)
	return s.Center, s.ok() && (s.Lo > 1 || s.Hi < 1)
}

// timeRatio is randp's time against a rival's and whether it is
// significant. When both ran in the same processes (pairs: randp's sample
// and the rival's from each process), it is paired as fillRatio's rows in
// turns are: the median of each process's ratio, so that a process's memory
// layout and clock are the same for both sides; faster and of then count
// the processes in which randp took less time. With fewer than two pairs
// it is the ratio of the two medians, and of is 0.
func timeRatio(pairs [][2]float64, randp, rival stat) (v float64, sep bool, faster, of int) {
	if len(pairs) < 2 {
		v, sep = ratioOf(randp, rival)
		return v, sep, 0, 0
	}
	for _, p := range pairs {
		if p[0] < p[1] {
			faster++
		}
	}
	v, sep = pairedRatio(pairs)
	return v, sep, faster, len(pairs)
}

// timeBar is a timeRatio result's row against a target.
func timeBar(what string, v float64, sep bool, faster, of int, target string, ok func(float64) bool) bar {
	if of == 0 {
		return ratioVerdict(what, v, sep, "medians", target, ok)
	}
	b := ratioVerdict(what, v, sep, "median of the processes' ratios", target, ok)
	b.measured += fmt.Sprintf("; randp faster in %d of %d processes", faster, of)
	return b
}

// wordRatio is timeRatio for the Rust word group `group`: randp's function
// randpFn against the rival's rivalFn, run one after the other in every
// pass's process.
func (r *report) wordRatio(group, randpFn, rivalFn string) (v float64, sep bool, faster, of int) {
	cr := r.res.crit
	return timeRatio(cr.pairs(group, randpFn, rivalFn), cr.get(group, randpFn).Time, cr.get(group, rivalFn).Time)
}

// wordBar is wordRatio's row against a target.
func (r *report) wordBar(what, group, randpFn, rivalFn, target string, ok func(float64) bool) bar {
	v, sep, faster, of := r.wordRatio(group, randpFn, rivalFn)
	return timeBar(what, v, sep, faster, of, target, ok)
}

// goRatio is timeRatio for two benchmarks of one go test binary, which ran
// in every pass's process.
func goRatio(s *goSet, randp, rival string) (v float64, sep bool, faster, of int) {
	return timeRatio(s.pairs(randp, rival), s.get(randp), s.get(rival))
}

// goBar is goRatio's row against a target.
func goBar(what string, s *goSet, randp, rival, target string, ok func(float64) bool) bar {
	v, sep, faster, of := goRatio(s, randp, rival)
	return timeBar(what, v, sep, faster, of, target, ok)
}

// pairedBar is a row for the ratio of a's time to b's, two benchmarks that
// ran in the same processes (pairs, a's sample first): the median of the
// processes' ratios, or, with fewer than two pairs, the ratio of the
// medians a and b. It counts no winner: a and b are not randp and a rival
// in that order (the rival's time over randp's, or one randp path against
// another).
func pairedBar(what string, pairs [][2]float64, a, b stat, target string, ok func(float64) bool) bar {
	if len(pairs) < 2 {
		return ratioBar(what, a, b, target, ok)
	}
	v, sep := pairedRatio(pairs)
	return ratioVerdict(what, v, sep, "median of the processes' ratios", target, ok)
}

// nsBar is an absolute time target for one C benchmark.
func (r *report) nsBar(what, name, key, target string, ok func(float64) bool) bar {
	s := r.res.c.get(name)
	if !s.ok() {
		return bar{what, notMeasured(r.res.c.why(key)), target, "—"}
	}
	return bar{what, spread(s), target, yesNo(ok(s.Center))}
}
