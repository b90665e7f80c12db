package main

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// TestGoldenReport renders the committed results exactly as `make
// bench-report` does and compares the bytes with the committed
// BENCHMARKS.md and charts, which are the golden files: a change to the
// renderer that changes the report fails here until the report is
// regenerated (make bench-report) and the commit says why it changed.
func TestGoldenReport(t *testing.T) {
	const root = "../.."
	md, charts, err := renderReport(root, "benches/results", "BENCHMARKS.md", "benches/charts", false, false)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, filepath.Join(root, "BENCHMARKS.md"), md)
	files, err := filepath.Glob(filepath.Join(root, "benches/charts/*.svg"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != len(charts) {
		t.Errorf("%d charts rendered, %d committed", len(charts), len(files))
	}
	for name, svg := range charts {
		golden(t, filepath.Join(root, "benches/charts", name), svg)
	}
}

// golden fails the test where got differs from the file, naming the first
// differing line.
func golden(t *testing.T, path, got string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if want := string(b); got != want {
		line, i := 1, 0
		for i < len(got) && i < len(want) && got[i] == want[i] {
			if got[i] == '\n' {
				line++
			}
			i++
		}
		t.Errorf("%s: rendered report differs from the committed file from line %d (run make bench-report)", path, line)
	}
}

// TestReportForUsers: the committed results' report names no issue number
// and no path outside the repository (a user reads it; a peer's local
// folder gives way to its upstream commit).
func TestReportForUsers(t *testing.T) {
	md, _, err := renderReport("../..", "benches/results", "BENCHMARKS.md", "benches/charts", false, false)
	if err != nil {
		t.Fatal(err)
	}
	if m := regexp.MustCompile(`[Ii]ssue [0-9]+|\.\./[a-z]+|\(00[0-9]\)|[Ss]eed 00[0-9]`).FindAllString(md, -1); len(m) > 0 {
		t.Errorf("the report names issues or outside paths: %q", m)
	}
	if got := peerSource("../peers/x, a snapshot of https://example.org/x@1"); got != "a snapshot of https://example.org/x@1" {
		t.Errorf("peerSource kept the local folder: %q", got)
	}
}
