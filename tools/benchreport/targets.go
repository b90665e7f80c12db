package main

import (
	_ "embed"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// The project's speed targets (data/targets.toml): the rows of the report's
// "Speed targets" section, each judged against this run.

//go:embed data/targets.toml
var targetsTOML string

type targetGroup struct {
	Title   string   `toml:"title"`
	Targets []target `toml:"target"`
}

// target is one row of data/targets.toml; the file's header says what each
// field means.
type target struct {
	ID         string   `toml:"id"`
	What       string   `toml:"what"`
	Measure    string   `toml:"measure"`
	Group      string   `toml:"group"`
	A          string   `toml:"a"`
	B          string   `toml:"b"`
	Sizes      []string `toml:"sizes"`
	Target     string   `toml:"target"`
	TargetVAES string   `toml:"target_vaes"`
	Peer       string   `toml:"peer"`
	Profile    string   `toml:"profile"`
}

// measures are the measures a target may name, with the fields each needs
// besides what and target.
var measures = map[string]string{
	"go": "ab", "purego": "ab", "go_paired": "ab", "go_minus": "ab", "rust_word": "gab", "rust_paired": "gab",
	"openssl": "ga", "c_ns": "a", "c_paired": "ab", "c_fill": "", "aesni_fill": "s",
}

var targetGroups = mustParse("targets.toml", targetsTOML, parseTargets)

// The bounds other sections explain misses against, from the targets
// with those ids (parseTargets checks that they are there).
var (
	rustU32Target = targetBound("rust_u32")
	rustLtTarget  = targetBound("rust_lt_u32")
	wordTarget    = targetBound("dlopen_u64")
	goReadTargets = targetByID("go_read").Sizes
)

// targetByID is the target with that id.
func targetByID(id string) target {
	for _, g := range targetGroups {
		for _, t := range g.Targets {
			if t.ID == id {
				return t
			}
		}
	}
	return target{}
}

// targetBound is the number of the bound of the target with that id.
func targetBound(id string) float64 {
	v, _, _ := bound(targetByID(id).Target)
	return v
}

// parseTargets decodes the targets and checks them against the schema.
func parseTargets(text string) ([]targetGroup, error) {
	var f struct {
		Group []targetGroup `toml:"group"`
	}
	if err := decodeTOML(text, &f); err != nil {
		return nil, err
	}
	ids := map[string]bool{}
	for _, g := range f.Group {
		if g.Title == "" || len(g.Targets) == 0 {
			return nil, fmt.Errorf("a group without a title or targets")
		}
		for _, t := range g.Targets {
			need, ok := measures[t.Measure]
			if !ok {
				return nil, fmt.Errorf("%q: unknown measure %q", t.What, t.Measure)
			}
			have := map[byte]bool{'g': t.Group != "", 'a': t.A != "", 'b': t.B != "", 's': len(t.Sizes) > 0}
			for i := range len(need) {
				if !have[need[i]] {
					return nil, fmt.Errorf("%q: measure %s needs %s", t.What, t.Measure, map[byte]string{'g': "group", 'a': "a", 'b': "b", 's': "sizes"}[need[i]])
				}
			}
			for _, b := range []string{t.Target, t.TargetVAES} {
				if _, _, err := bound(b); b != "" && err != nil {
					return nil, fmt.Errorf("%q: %v", t.What, err)
				}
			}
			if t.What == "" || t.Target == "" {
				return nil, fmt.Errorf("a target without what or target (%q)", t.What)
			}
			ids[t.ID] = true
		}
	}
	for _, id := range []string{"rust_u32", "rust_lt_u32", "dlopen_u64", "go_read"} {
		if !ids[id] {
			return nil, fmt.Errorf("no target with id %q", id)
		}
	}
	return f.Group, nil
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
	if atMost {
		return le(v)
	}
	return ge(v)
}

func (r *report) bars() {
	res := r.res
	vaes := strings.Contains(" "+res.run["cpu_flags"]+" ", " vaes ")
	r.text("bars", "VAES", vaes)
	for _, g := range targetGroups {
		r.barTable(g.Title, r.groupBars(g, vaes))
	}
}

// groupBars is one group's rows in this run.
func (r *report) groupBars(g targetGroup, vaes bool) []bar {
	var bars []bar
	for _, t := range g.Targets {
		if vaes && t.TargetVAES != "" {
			t.Target = t.TargetVAES
		}
		bars = append(bars, r.measure(t, vaes)...)
	}
	return bars
}

// measure is a target's rows in this run.
func (r *report) measure(t target, vaes bool) []bar {
	res := r.res
	cr, c, goR := res.crit, res.c, res.goRandp
	ok := meets(t.Target)
	peerWhy := res.peers[t.Peer]
	var b bar
	switch t.Measure {
	case "go":
		if len(t.Sizes) > 0 {
			return r.goSizes(t)
		}
		b = goBar(t.What, goR, t.A, t.B, t.Target, ok)
	case "purego":
		set, why := res.purego()
		if set == nil {
			return []bar{{t.What, notMeasured(why), t.Target, "—"}}
		}
		b = goBar(t.What, set, t.A, t.B, t.Target, ok)
	case "go_paired":
		b = pairedBar(t.What, goR.pairs(t.A, t.B), goR.get(t.A), goR.get(t.B), t.Target, ok)
	case "go_minus":
		a, z := goR.get(t.A), goR.get(t.B)
		if !a.ok() || !z.ok() {
			return []bar{{t.What, "not measured", t.Target, "—"}}
		}
		d := a.Center - z.Center
		return []bar{{t.What, fmt.Sprintf("%+.1f ns (%s − %s)", d, ns(a.Center), ns(z.Center)), t.Target, yesNo(ok(d))}}
	case "rust_word":
		b = r.wordBar(t.What, t.Group, t.A, t.B, t.Target, ok)
	case "rust_paired":
		b = pairedBar(t.What, cr.pairs(t.Group, t.A, t.B), cr.get(t.Group, t.A).Time, cr.get(t.Group, t.B).Time, t.Target, ok)
	case "openssl":
		b = ratioBar(t.What, res.ceil.OpenSSL(), cr.get(t.Group, t.A).Time, t.Target, ok)
	case "c_ns":
		b = r.nsBar(t.What, t.A, keyOf(t.A), t.Target, ok)
	case "c_paired":
		b = pairedBar(t.What, c.pairs(t.A, t.B), c.get(t.A), c.get(t.B), t.Target, ok)
	case "c_fill":
		return r.fillBars(t, ok)
	case "aesni_fill":
		if !vaes {
			return nil
		}
		return r.aesniBars(t, ok)
	}
	if peerWhy != "" {
		b.measured = notMeasured(peerWhy)
	}
	if b.met == "**no**" && r.missExplained(t) {
		b.linkProfile(profiles[t.Profile])
	}
	return []bar{b}
}

// profiles are the "Misses explained" sections a target's profile names.
var profiles = map[string]string{"fill": h("WhyFill"), "rust": h("WhyRust"), "read": h("WhyRead"), "v2": h("WhyV2"), "word": h("WhyWord")}

// missExplained reports whether "Misses explained" profiles the target's
// miss in this run.
func (r *report) missExplained(t target) bool {
	switch t.Profile {
	case "rust":
		_, u32, lt := r.rustWordMiss()
		return map[string]bool{"rust_u32": u32, "rust_lt_u32": lt}[t.ID]
	case "v2":
		return r.v2Explained()
	case "word":
		_, missed := r.wordMiss()
		return missed
	}
	return false
}

// goSizes is a Go target at each of its sizes.
func (r *report) goSizes(t target) []bar {
	missed := map[string]bool{}
	for _, sz := range r.goReadMissed() {
		missed[sz] = true
	}
	var bars []bar
	for _, sz := range t.Sizes {
		at := func(s string) string { return strings.ReplaceAll(s, "{size}", sz) }
		b := goBar(strings.ReplaceAll(t.What, "{size}", fmtBytes(parseSize(sz))), r.res.goRandp, at(t.A), at(t.B), t.Target, meets(t.Target))
		if t.Profile == "read" && missed[sz] && b.met == "**no**" {
			b.linkProfile(h("WhyRead"))
		}
		bars = append(bars, b)
	}
	return bars
}

// fillBars is the C fill target at every size from 16 B to 1 MiB.
func (r *report) fillBars(t target, ok func(float64) bool) []bar {
	c := r.res.c
	p36 := r.res.peers[t.Peer]
	floors, _, _ := r.fillFloors()
	explained := map[float64]bool{}
	for _, f := range floors {
		explained[f.Size] = true
	}
	var bars []bar
	for n := 16.0; n <= 1<<20; n *= 2 {
		name := c.fillTable(n)
		calls := " calls"
		if strings.HasPrefix(name, turnsPrefix) {
			calls = " calls in turns"
		}
		v, sep, paired := r.fillRatio(n)
		of := "medians"
		if paired {
			of = "median of the processes' ratios"
		}
		b := ratioVerdict(strings.ReplaceAll(t.What, "{size}", fmtBytes(n)+calls), v, sep, of, t.Target, ok)
		if fast, of := r.perProcess(name+"randp", name+"planet36"); of > 0 {
			b.measured += fmt.Sprintf("; randp faster in %d of %d processes", fast, of)
		}
		if p36 != "" {
			b.measured = notMeasured(p36)
		} else if explained[n] {
			b.linkProfile(h("WhyFill"))
		}
		bars = append(bars, b)
	}
	return bars
}

// aesniBars are the fill rows for AES-NI-only CPUs, measured on a VAES CPU
// with randp on its `aesni` backend (benches/backends.rs): the code an
// AES-NI-only CPU runs, on this CPU's AES units.
func (r *report) aesniBars(t target, ok func(float64) bool) []bar {
	var bars []bar
	for _, sz := range t.Sizes {
		n := parseSize(sz)
		what := strings.ReplaceAll(t.What, "{size}", fmtBytes(n))
		s := r.res.crit.get("backend_fill_"+sz, "aesni").Time
		if p36 := r.res.peers[t.Peer]; p36 != "" {
			bars = append(bars, bar{what, notMeasured(p36), t.Target, "—"})
			continue
		}
		if !s.ok() {
			bars = append(bars, bar{what, "not measured", t.Target, "—"})
			continue
		}
		b := ratioBar(what, r.res.c.get("fill_"+sz+"/planet36"), s, t.Target, ok)
		b.met += " (this CPU's AES units, not an AES-NI-only CPU's: [backends](" + anchor(h("Backends")) + "))"
		bars = append(bars, b)
	}
	return bars
}
