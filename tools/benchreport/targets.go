package main

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// The project's speed targets (data/targets.toml): the rows of the report's
// "Speed targets" section, each judged against this run.

type targetGroup struct {
	Title   string   `toml:"title,required"`
	Targets []target `toml:"target,required"`
}

// target is one row of data/targets.toml; the file's header says what each
// field means.
type target struct {
	ID         string   `toml:"id"`
	What       string   `toml:"what,required"`
	Measure    string   `toml:"measure,oneof=ratio|ns|minus|c_fill"`
	A          string   `toml:"a"`
	B          string   `toml:"b"`
	Sizes      []string `toml:"sizes"`
	Wins       bool     `toml:"wins"`
	Target     string   `toml:"target,required,bound"`
	TargetVAES string   `toml:"target_vaes,bound"`
	VAESOnly   bool     `toml:"vaes_only"`
	Note       string   `toml:"note,label"`
	Peer       string   `toml:"peer"`
	Profile    string   `toml:"profile,oneof=|fill|rust|read|v2|word"`
}

// measures are the measures a target may name, with the benchmarks each
// needs: a, or a and b.
var measures = map[string]string{"ratio": "ab", "ns": "a", "minus": "ab", "c_fill": ""}

// profiles are the "Misses explained" sections a target's profile names.
var profiles = map[string]string{"fill": h("WhyFill"), "rust": h("WhyRust"), "read": h("WhyRead"), "v2": h("WhyV2"), "word": h("WhyWord")}

// targetsFile is data/targets.toml.
type targetsFile struct {
	Group []targetGroup `toml:"group"`
}

var targetGroups = mustLoad("targets.toml", checkTargets).Group

// targetIDs are the ids of the targets whose bounds "Misses explained"
// quotes (targetBound; parseTargets checks that they are there).
var targetIDs = []string{"rust_u32", "dlopen_u64"}

// targetBound is the number of the bound of the target with that id.
func targetBound(id string) float64 {
	for _, g := range targetGroups {
		if i := slices.IndexFunc(g.Targets, func(t target) bool { return t.ID == id }); i >= 0 {
			v, _, _ := bound(g.Targets[i].Target)
			return v
		}
	}
	return 0
}

// checkTargets checks what the tags cannot: each measure's benchmarks,
// and the ids targetBound is asked for.
func checkTargets(f *targetsFile) error {
	ids := map[string]bool{}
	for _, g := range f.Group {
		for _, t := range g.Targets {
			for _, ref := range []string{t.A, t.B}[:len(measures[t.Measure])] {
				if err := checkRef(ref); err != nil {
					return fmt.Errorf("%q: %v", t.What, err)
				}
			}
			ids[t.ID] = true
		}
	}
	for _, id := range targetIDs {
		if !ids[id] {
			return fmt.Errorf("no target with id %q", id)
		}
	}
	return nil
}

var boundRE = regexp.MustCompile(`^(≤|≥) ([0-9.]+)(×| ns)`)

// bound reads a target's bound: "≤ 0.9×" is at most 0.9, "≥ 1.8× (VAES)"
// at least 1.8, "≤ 3 ns" at most 3 ns.
func bound(s string) (v float64, atMost bool, err error) {
	m := boundRE.FindStringSubmatch(s)
	if m == nil {
		return 0, false, fmt.Errorf("bound %q: want ≤ or ≥, a number, × or ns", s)
	}
	v, err = strconv.ParseFloat(m[2], 64)
	return v, m[1] == "≤", err
}

// meets is the test of a bound.
func meets(s string) func(float64) bool {
	v, atMost, _ := bound(s)
	return func(x float64) bool { return x == v || (x < v) == atMost }
}

// bar is one speed target's row, checked against this run's medians.
type bar struct{ What, Measured, Target, Met string }

// linkProfile points a missed target at the section of "Misses explained"
// headed h.
func (b *bar) linkProfile(h string) { b.Met += " ([profile](" + anchor(h) + "))" }

// barGroup is one table of the targets, as this run meets them.
type barGroup struct {
	Title string
	Bars  []bar
}

// targetTables is every group's rows in this run: a row per target, or
// per size of a target with sizes, with the bounds of a CPU with VAES
// where it has them. It records each miss "Misses explained" profiles
// (report.profiled), which a report's misses lists.
func (r *report) targetTables() []barGroup {
	r.profiled = map[string][]string{}
	vaes := r.cpuFlag("vaes")
	var groups []barGroup
	for _, g := range targetGroups {
		group := barGroup{Title: g.Title}
		for _, t := range g.Targets {
			if vaes && t.TargetVAES != "" {
				t.Target = t.TargetVAES
			}
			switch {
			case t.VAESOnly && !vaes:
			case t.Measure == "c_fill":
				group.Bars = append(group.Bars, r.fillBars(t)...)
			case len(t.Sizes) == 0:
				group.Bars = append(group.Bars, r.targetBar(t, ""))
			default:
				for _, sz := range t.Sizes {
					group.Bars = append(group.Bars, r.targetBar(t, sz))
				}
			}
		}
		groups = append(groups, group)
	}
	return groups
}

// targetBar is a target's row in this run, at one of its sizes when it
// has sizes ("{size}" in its texts and benchmarks takes it).
func (r *report) targetBar(t target, size string) bar {
	what, a, b := t.What, strings.ReplaceAll(t.A, "{size}", size), strings.ReplaceAll(t.B, "{size}", size)
	if size != "" {
		what = strings.ReplaceAll(what, "{size}", fmtBytes(parseSize(size)))
	}
	sa, sb, ok := r.stat(a), r.stat(b), meets(t.Target)
	row := bar{what, "not measured", t.Target, "—"}
	switch t.Measure {
	case "ns":
		if sa.ok() {
			row = bar{what, spread(sa), t.Target, yesNo(ok(sa.Center))}
		}
	case "minus":
		if d := sa.Center - sb.Center; sa.ok() && sb.ok() {
			row = bar{what, fmt.Sprintf("%+.1f ns (%s − %s)", d, ns(sa.Center), ns(sb.Center)), t.Target, yesNo(ok(d))}
		}
	default:
		v, sep, faster, of := r.ratio(a, b)
		row = ratioVerdict(what, v, sep, of > 0, t.Target, ok)
		if of > 0 && t.Wins {
			row.Measured += fmt.Sprintf("; randp faster in %d of %d processes", faster, of)
		}
		if t.Note != "" && v != 0 {
			row.Met += " (" + r.label(t.Note, map[string]any{"H": headings}) + ")"
		}
	}
	if why := cmp.Or(r.res.peers[t.Peer], r.why(a)); why != "" && (r.res.peers[t.Peer] != "" || row.Met == "—") {
		row.Measured = notMeasured(why)
	}
	if row.Met == "**no**" && t.Profile != "" && r.canProfile(t.Profile) {
		row.linkProfile(profiles[t.Profile])
		r.profiled[t.Profile] = append(r.profiled[t.Profile], size)
	}
	return row
}

// ratio is the time ratio of benchmarks a and b (source:name) and whether
// it is significant. When both ran in the same processes (one program's
// benchmarks, paired by pass), it is the median of each process's ratio,
// significant when that median's interval excludes 1, so that a process's
// memory layout and clock are the same for both sides; faster and of then
// count the processes in which a took less time. With fewer than two pairs
// it is the ratio of the two medians, significant when their intervals do
// not overlap, and of is 0.
func (r *report) ratio(a, b string) (v float64, sep bool, faster, of int) {
	pairs := r.pairs(a, b)
	if len(pairs) < 2 {
		v, sep = ratioOf(r.stat(a), r.stat(b))
		return v, sep, 0, 0
	}
	v, sep = pairedRatio(pairs)
	return v, sep, wins(pairs), len(pairs)
}

// wins counts the pairs whose first value is the smaller: the processes
// in which the first benchmark took less time.
func wins(pairs [][2]float64) int {
	n := 0
	for _, p := range pairs {
		if p[0] < p[1] {
			n++
		}
	}
	return n
}

// ratioVerdict is a bar for ratio v, significant or not (then the cell
// names what v is the ratio of: the medians, or the processes' ratios
// when paired); 0 is not measured.
func ratioVerdict(what string, v float64, sep, paired bool, target string, ok func(float64) bool) bar {
	if v == 0 {
		return bar{what, "not measured", target, "—"}
	}
	m := sig(v) + "×"
	if of := "medians"; !sep {
		if paired {
			of = "median of the processes' ratios"
		}
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

// fillBars is the C fill target at every size from 16 B to 1 MiB.
func (r *report) fillBars(t target) []bar {
	p36, floors := r.res.peers[t.Peer], r.fillFloors()
	var bars []bar
	for _, n := range sweepSizes() {
		f, calls := r.fill(n), " calls"
		if f.Turns {
			calls = " calls in turns"
		}
		b := ratioVerdict(strings.ReplaceAll(t.What, "{size}", fmtBytes(n)+calls), f.Ratio, f.Sep, f.Turns, t.Target, meets(t.Target))
		if f.Won != "" {
			b.Measured += "; randp faster in " + f.Won + " processes"
		}
		if p36 != "" {
			b.Measured = notMeasured(p36)
		} else if slices.ContainsFunc(floors, func(f fillFloor) bool { return f.Size == n }) {
			b.linkProfile(h("WhyFill"))
		}
		bars = append(bars, b)
	}
	return bars
}
