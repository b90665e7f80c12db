package main

import (
	"strings"
	"testing"
)

// TestContestantsSchema: the embedded contestants load; an unknown key, a
// row order naming an undescribed contestant, a label that does not parse
// and a Go row of an unknown test binary are errors. A label's template
// takes the run's versions.
func TestContestantsSchema(t *testing.T) {
	contestantsTOML := dataText("contestants.toml")
	if _, err := parseData(contestantsTOML, checkContestants); err != nil {
		t.Fatal(err)
	}
	rejectsMutations(t, contestantsTOML, checkContestants, map[string]string{
		"unknown key":   strings.Replace(contestantsTOML, "[c.rdrand64]\n", "[c.rdrand64]\ncolor = \"red\"\n", 1),
		"undescribed":   strings.Replace(contestantsTOML, `lt_u32 = ["randp", "planet36",`, `lt_u32 = ["randp", "planet37",`, 1),
		"bad label":     strings.Replace(contestantsTOML, `label = "{{glibc .Fn}}{{.Per}}"`, `label = "{{glibc .Fn}"`, 1),
		"unknown set":   strings.Replace(contestantsTOML, `{ name = "GetrandomRead", set = "go_peers",`, `{ name = "GetrandomRead", set = "peers",`, 1),
		"no go.v2 rows": strings.Replace(contestantsTOML, "v2 = [", "v3 = [", 1),
	})
	r := &report{res: &results{run: runInfo{"glibc": "glibc 2.41", "libbsd": "libbsd0 0.12.2-1"}}}
	for group, want := range map[string]string{
		"u64":    "libbsd 0.12.2-1 `arc4random_buf` (userspace ChaCha20), 8 B per call",
		"lt_u32": "libbsd 0.12.2-1 `arc4random_uniform` (userspace ChaCha20)",
	} {
		if got := r.cLabel(group, "arc4random_libbsd"); got != want {
			t.Errorf("cLabel(%s) = %q, want %q", group, got, want)
		}
	}
	if got := r.cLabel("fill", "arc4random_glibc"); got != "glibc 2.41 `arc4random_buf` (the getrandom vDSO)" {
		t.Errorf("cLabel(fill, glibc) = %q", got)
	}
}
