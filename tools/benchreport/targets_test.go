package main

import (
	"strings"
	"testing"
)

// TestTargetsSchema: the embedded targets load with the bounds other
// sections use; an unknown key or measure, a measure without its
// benchmarks, an unreadable bound and a missing id are errors.
func TestTargetsSchema(t *testing.T) {
	targetsTOML := dataText("targets.toml")
	f, err := parseData(targetsTOML, checkTargets)
	if err != nil {
		t.Fatal(err)
	}
	if groups := f.Group; len(groups) != 3 || targetBound("rust_u32") != 0.9 || targetBound("dlopen_u64") != 3 {
		t.Errorf("%d groups, bounds %v %v", len(f.Group), targetBound("rust_u32"), targetBound("dlopen_u64"))
	}
	rejectsMutations(t, targetsTOML, checkTargets, map[string]string{
		"unknown key":     strings.Replace(targetsTOML, `measure = "minus"`, "measure = \"minus\"\n  color = 1", 1),
		"unknown measure": strings.Replace(targetsTOML, `measure = "minus"`, `measure = "plus"`, 1),
		"no benchmark":    strings.Replace(targetsTOML, `a = "go:RandpRand"`, ``, 1),
		"bad bound":       strings.Replace(targetsTOML, `target = "≤ 6 ns"`, `target = "under 6 ns"`, 1),
		"missing id":      strings.Replace(targetsTOML, `id = "dlopen_u64"`, ``, 1),
	})
	for s, want := range map[string]bool{"≤ 0.9×": true, "≥ 1.8× (VAES)": false} {
		if _, atMost, err := bound(s); err != nil || atMost != want {
			t.Errorf("bound(%q): at most %v, %v", s, atMost, err)
		}
	}
	if !meets("≥ 2×")(2) || meets("≥ 2×")(1.9) || !meets("≤ 3 ns")(3) || meets("≤ 3 ns")(3.1) {
		t.Error("meets misjudges a bound")
	}
}
