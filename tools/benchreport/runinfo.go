package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
)

// runInfo is what ran and where, recorded when the run starts (run.txt):
// the report is rendered from it, so that a later render of the committed
// results names the same machine, toolchains and commit.
type runInfo map[string]string

// runKeys are run.txt's keys in the order the report prints them.
var runKeys = []string{"date", "commit", "dirty", "cpu", "cpu_flags", "backend", "nproc", "kernel", "libc", "rustc", "go", "compiler", "describe"}

func recordRun(root, goVersion, describe string) runInfo {
	r := runInfo{
		"date":     time.Now().UTC().Format("2006-01-02 15:04 UTC"),
		"cpu":      cpuField("model name"),
		"nproc":    firstLine(run("", "nproc")),
		"kernel":   firstLine(run("", "uname", "-srm")),
		"libc":     firstLine(run("", "ldd", "--version")),
		"rustc":    firstLine(run("", "rustc", "--version")),
		"go":       goVersion,
		"compiler": firstLine(run("", "cc", "--version")),
		"describe": describe,
		"commit":   firstLine(run(root, "git", "rev-parse", "--short=12", "HEAD")),
		"dirty":    "no",
		// randp's keystream backend on this CPU, as the release randp-cat reports it.
		"backend": backend(root),
	}
	if strings.TrimSpace(run(root, "git", "status", "--porcelain", "--untracked-files=no")) != "" {
		r["dirty"] = "yes"
	}
	have := " " + cpuField("flags") + " "
	var flags []string
	for _, f := range []string{"aes", "vaes", "vpclmulqdq", "avx2", "avx512f", "sha_ni", "rdrand", "rdseed", "hypervisor"} {
		if strings.Contains(have, " "+f+" ") {
			flags = append(flags, f)
		}
	}
	r["cpu_flags"] = strings.Join(flags, " ")
	if b, err := os.ReadFile(filepath.Join(root, "Cargo.toml")); err == nil {
		if m := regexp.MustCompile(`(?m)^version\s*=\s*"([^"]+)"`).FindSubmatch(b); m != nil {
			r["randp"] = string(m[1])
		}
	}
	return r
}

func (r runInfo) write(path string) error {
	var b strings.Builder
	keys := append([]string(nil), runKeys...)
	for k := range r {
		if !contains(keys, k) {
			keys = append(keys, k)
		}
	}
	for _, k := range keys {
		if v, ok := r[k]; ok {
			fmt.Fprintf(&b, "%s: %s\n", k, v)
		}
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}

func loadRunInfo(path string) (runInfo, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := runInfo{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), ": "); ok {
			r[k] = v
		}
	}
	return r, sc.Err()
}

// loadSamples is the 1-minute load average sampled during the run
// (benches/load-sampler.sh: "<unix time> <1> <5> <15>" per line).
type loadSamples struct {
	oneMin   []float64
	from, to int64
}

func loadLoadavg(path string) (loadSamples, error) {
	var s loadSamples
	b, err := os.ReadFile(path)
	if err != nil {
		return s, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		t, err1 := strconv.ParseInt(f[0], 10, 64)
		v, err2 := strconv.ParseFloat(f[1], 64)
		if err1 != nil || err2 != nil {
			continue
		}
		if s.from == 0 {
			s.from = t
		}
		s.to = t
		s.oneMin = append(s.oneMin, v)
	}
	return s, nil
}

// describe is "min / median / max over N samples in M minutes".
func (s loadSamples) describe() string {
	if len(s.oneMin) == 0 {
		return "not recorded"
	}
	v := append([]float64(nil), s.oneMin...)
	sort.Float64s(v)
	return fmt.Sprintf("%.2f / %.2f / %.2f (min / median / max of %d samples, every 10 s over %.0f min)",
		v[0], v[len(v)/2], v[len(v)-1], len(v), float64(s.to-s.from)/60)
}

func cpuField(key string) string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(k) == key {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// backend is randp's keystream backend on this CPU, as the release randp-cat
// built for the run reports it, or "?" if it cannot be asked.
func backend(root string) string {
	abs, err := filepath.Abs(filepath.Join(root, "target", "release", "randp-cat"))
	if err != nil {
		return "?"
	}
	return strings.Fields(firstLine(run(root, abs, "--backend")) + " ?")[0]
}

func run(dir, name string, args ...string) string {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		return ""
	}
	return string(out)
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return strings.TrimSpace(line)
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
