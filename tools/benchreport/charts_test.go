package main

import (
	"strings"
	"testing"
)

// TestChartsSchema: the embedded charts load; a series whose label does
// not parse or whose benchmark has an unknown source, a rate without sizes
// and an unknown key are errors.
func TestChartsSchema(t *testing.T) {
	chartsTOML := dataText("charts.toml")
	if _, err := parseData(chartsTOML, checkCharts); err != nil {
		t.Fatal(err)
	}
	rejectsMutations(t, chartsTOML, checkCharts, map[string]string{
		"bad label":      strings.Replace(chartsTOML, `label = "glibc {{glibcVersion}} arc4random"`, `label = "glibc {{glibcVersion} arc4random"`, 1),
		"unknown source": strings.Replace(chartsTOML, `ref = "c:u32/randp"`, `ref = "java:u32/randp"`, 1),
		"no benchmark":   strings.Replace(chartsTOML, `ref = "c:u32/randp"`, `ref = ""`, 1),
		"rate, no sizes": strings.Replace(chartsTOML, `sizes = ["4B", "8B", `, `# sizes = ["4B", "8B", `, 1),
		"unknown key":    strings.Replace(chartsTOML, `rate = true`, `rate = true`+"\ncolor = 1", 1),
	})
}
