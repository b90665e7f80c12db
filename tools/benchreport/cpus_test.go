package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
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

// TestRecordRun: benches/record-run.sh, run in the repository, writes every
// key the report reads, once each and in this order, with the values it is
// given and the tree's state; loadRunInfo names the microarchitecture from
// cpu_id when the record does not, as it does for every committed run.
func TestRecordRun(t *testing.T) {
	cmd := exec.Command("benches/record-run.sh", "go1.26", "3", "a test run")
	cmd.Dir = "../.."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("record-run.sh: %v", err)
	}
	keys := []string{"date", "commit", "dirty", "cpu", "cpu_id", "cpu_flags", "backend_flags", "backend", "nproc",
		"kernel", "libc", "glibc", "rustc", "cargo_bench_profile", "go", "compiler", "cxx", "gbench", "libbsd",
		"openssl_pkg", "xsys", "passes", "describe", "randp"}
	var got []string
	for _, line := range strings.Split(strings.TrimSuffix(string(out), "\n"), "\n") {
		k, _, _ := strings.Cut(line, ": ")
		got = append(got, k)
	}
	if !slices.Equal(got, keys) {
		t.Errorf("the record's keys:\n%v\nwant\n%v", got, keys)
	}
	path := filepath.Join(t.TempDir(), "run.txt")
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := loadRunInfo(path)
	if err != nil {
		t.Fatal(err)
	}
	if r["go"] != "go1.26" || r["passes"] != "3" || r["describe"] != "a test run" || (r["dirty"] != "yes" && r["dirty"] != "no") {
		t.Errorf("go %q, passes %q, describe %q, dirty %q", r["go"], r["passes"], r["describe"], r["dirty"])
	}
	for _, k := range []string{"commit", "nproc", "cargo_bench_profile", "randp"} {
		if r[k] == "" {
			t.Errorf("the record has no %s in a git checkout of the repository", k)
		}
	}
	if _, family, _, ok := cpuOf(r); !ok || family == 0 {
		t.Errorf("cpu_id %q names no CPU family and model (the results folder and uarch follow from them)", r["cpu_id"])
	}

	zen3 := "cpu_id: AuthenticAMD family 25 model 1 stepping 1\n"
	for record, want := range map[string]string{zen3: "Zen 3", zen3 + "uarch: kept\n": "kept", "cpu_id: ?\n": ""} {
		if err := os.WriteFile(path, []byte(record), 0o644); err != nil {
			t.Fatal(err)
		}
		if r, err := loadRunInfo(path); err != nil || !strings.HasPrefix(r["uarch"], want) || (want == "" && r["uarch"] != "") {
			t.Errorf("uarch of %q: %q, %v; want %q…", record, r["uarch"], err, want)
		}
	}
	runs, err := filepath.Glob("../../benches/results/*/run.txt")
	if err != nil || len(runs) == 0 {
		t.Fatalf("no committed runs: %v", err)
	}
	for _, run := range runs {
		r, err := loadRunInfo(run)
		if err != nil {
			t.Fatal(err)
		}
		vendor, family, model, ok := cpuOf(r)
		if want := microarchitecture(vendor, family, model); !ok || r["uarch"] != want {
			t.Errorf("%s: uarch %q, but its cpu_id names %q", run, r["uarch"], want)
		}
	}
}
