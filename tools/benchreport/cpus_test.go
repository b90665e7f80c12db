package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunsPerCPU: a results folder of one run per CPU renders the newest
// run's tables and every CPU's verdicts side by side; a run in another
// CPU's folder is refused; a folder with run.txt at its top is one run.
func TestRunsPerCPU(t *testing.T) {
	root := t.TempDir()
	newer := fullResults(t, 10, "not measured: this tree's Go module has no pure-Go path")
	older := fullResults(t, 10, "not measured: this tree's Go module has no pure-Go path")
	b, err := os.ReadFile(filepath.Join(older, "run.txt"))
	if err != nil {
		t.Fatal(err)
	}
	run := strings.Replace(string(b), "AuthenticAMD family 26 model 2", "GenuineIntel family 6 model 167", 1)
	run = strings.Replace(run, "date: 2026-12-01 10:00 UTC", "date: 2026-11-01 10:00 UTC", 1)
	writeFile(t, filepath.Join(older, "run.txt"), run)
	if err := os.Rename(newer, filepath.Join(root, "amd-26-2")); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(older, filepath.Join(root, "intel-6-167")); err != nil {
		t.Fatal(err)
	}
	runs, err := loadRuns(root, ".", false)
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 2 || runs[0].dir != "amd-26-2" || runs[1].dir != "intel-6-167" {
		t.Fatalf("runs = %v, want amd-26-2 (newest) then intel-6-167", []string{runs[0].dir, runs[len(runs)-1].dir})
	}
	md := (&report{res: runs[0].res, resultsDir: runs[0].dir, resultsRoot: ".", others: runs[1:], charts: map[string]string{}}).markdown()
	every := md[strings.Index(md, "### "+h("EveryCPU")):strings.Index(md, "## "+h("Losses"))]
	for _, want := range []string{
		"| If you use today | for | AMD EPYC, Zen 5 (family 26 model 2) | AMD EPYC, Zen 5 (family 6 model 167) |",
		"raw outputs in [amd-26-2](amd-26-2)", "raw outputs in [intel-6-167](intel-6-167)",
		"| rand `ThreadRng` (`rand::rng()`) | u32 |",
	} {
		if !strings.Contains(every, want) {
			t.Errorf("the verdicts on every CPU lack %q:\n%s", want, every)
		}
	}
	if strings.Count(md, "## "+h("Rust")) != 1 {
		t.Errorf("the full tables appear %d times, want once (the newest run's)", strings.Count(md, "## "+h("Rust")))
	}

	// A run filed under another CPU's folder.
	if err := os.Rename(filepath.Join(root, "intel-6-167"), filepath.Join(root, "amd-25-17")); err != nil {
		t.Fatal(err)
	}
	if _, err := loadRuns(root, ".", false); err == nil || !strings.Contains(err.Error(), `belongs in "intel-6-167"`) {
		t.Errorf("a misfiled run: err = %v, want it refused", err)
	}
	// One run at the top: no side-by-side section.
	runs, err = loadRuns(root, "amd-26-2", false)
	if err != nil || len(runs) != 1 {
		t.Fatalf("one run: %d runs, %v", len(runs), err)
	}
	md = (&report{res: runs[0].res, charts: map[string]string{}}).markdown()
	if strings.Contains(md, h("EveryCPU")) {
		t.Error("a single run renders the every-CPU section")
	}
}

func TestCPUDir(t *testing.T) {
	for id, want := range map[string]string{
		"AuthenticAMD family 25 model 17 stepping 1, microcode 0x1": "amd-25-17",
		"GenuineIntel family 6 model 167 stepping 1":                "intel-6-167",
		"": "",
	} {
		got, err := cpuDir(runInfo{"cpu_id": id})
		if got != want || (err != nil) != (want == "") {
			t.Errorf("cpuDir(%q) = %q, %v; want %q", id, got, err, want)
		}
	}
}

// TestRecordRun: a command's value is the first line it prints, "" when it
// fails; the record has every key data/run.toml lists but uarch (which
// follows from cpu_id, unknown for some CPUs), and is written in its order.
func TestRecordRun(t *testing.T) {
	if got := firstLine(run(".", "sh", "-c", "echo ' a '; echo b")); got != "a" {
		t.Errorf("run: %q, want the first line, trimmed", got)
	}
	if got := run(".", "sh", "-c", "echo a; false"); got != "" {
		t.Errorf("run of a failing command: %q", got)
	}
	r := recordRun("../..", "go1.26", "test", 3)
	for _, k := range runSpec.Keys {
		if _, ok := r[k]; !ok && k != "uarch" {
			t.Errorf("the record lacks %s", k)
		}
	}
	if r["dirty"] != "yes" && r["dirty"] != "no" {
		t.Errorf("dirty = %q", r["dirty"])
	}
	path := filepath.Join(t.TempDir(), "run.txt")
	if err := (runInfo{"passes": "3", "date": "d", "zzz": "z"}).write(path); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "date: d\npasses: 3\nzzz: z\n" {
		t.Errorf("written record:\n%s", b)
	}
}
