package main

import (
	"io/fs"
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
// and no path outside the repository (a user reads it; the raw outputs
// name a peer by its upstream commit).
func TestReportForUsers(t *testing.T) {
	md, _, err := renderReport("../..", "benches/results", "BENCHMARKS.md", "benches/charts", false, false)
	if err != nil {
		t.Fatal(err)
	}
	outside := regexp.MustCompile(`\.\./[a-z]+|(?:^|[\s(])/(?:work|home|root|tmp)/`)
	if m := regexp.MustCompile(`[Ii]ssue [0-9]+|\(00[0-9]\)|[Ss]eed 00[0-9]|`+outside.String()).FindAllString(md, -1); len(m) > 0 {
		t.Errorf("the report names issues or outside paths: %q", m)
	}
	// The raw outputs the report links to.
	err = filepath.WalkDir("../../benches/results", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if m := outside.Find(b); m != nil {
			t.Errorf("%s names a path outside the repository: %q", path, m)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}
