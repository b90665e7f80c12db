package main

import (
	"strings"
	"testing"
)

// TestSummarySchema: the first screen's rows load; an unknown source,
// heading or condition, or a label that does not parse, is an error; the
// glibc vDSO rows are left out where the run's glibc has the vDSO.
func TestSummarySchema(t *testing.T) {
	summaryTOML := dataText("summary.toml")
	if _, err := parseData[summaryFile](summaryTOML, nil); err != nil {
		t.Fatal(err)
	}
	for name, bad := range map[string]string{
		"unknown source":    strings.Replace(summaryTOML, `rival = "go:StdlibRead/4b"`, `rival = "java:StdlibRead/4b"`, 1),
		"unknown heading":   strings.Replace(summaryTOML, `heading = "GoSrc"`, `heading = "GoSource"`, 1),
		"unknown condition": strings.Replace(summaryTOML, `unless = "glibc_vdso"`, `unless = "glibc"`, 1),
		"bad label":         strings.Replace(summaryTOML, `{{goVersion}}`, `{{goVersion}`, 1),
		"unknown key":       strings.Replace(summaryTOML, `work = "4 B",`, `work = "4 B", size = 4,`, 1),
	} {
		if bad == summaryTOML {
			t.Fatalf("%s: the mutation did not apply", name)
		}
		if _, err := parseData[summaryFile](bad, nil); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	count := func(glibc string) int {
		r := &report{res: &results{store: newStore(), run: runInfo{"glibc": glibc}, peers: map[string]string{}}}
		n := 0
		for _, row := range r.summaryGroups()[1].Rows {
			if strings.HasPrefix(row.You, "glibc ≥ 2.41") {
				n++
			}
		}
		return n
	}
	if a, b := count("glibc 2.36"), count("glibc 2.41"); a != 2 || b != 0 {
		t.Errorf("glibc vDSO rows: %d with glibc 2.36, %d with 2.41; want 2 and 0", a, b)
	}
}
