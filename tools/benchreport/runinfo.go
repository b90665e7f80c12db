package main

import (
	"bufio"
	"cmp"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

// runInfo is what ran and where, recorded when the run starts (run.txt):
// the report is rendered from it, so that a later render of the committed
// results names the same machine, toolchains and commit.
type runInfo map[string]string

// runSpec is data/run.toml: what the run record holds and how each of
// its keys is found; the file says what each field means.
var runSpec = mustLoad[struct {
	Keys         []string            `toml:"keys,required"`
	CPUFlags     []string            `toml:"cpu_flags,required"`
	BackendFlags []string            `toml:"backend_flags,required"`
	Commands     map[string][]string `toml:"commands,required"`
	Packages     map[string]string   `toml:"packages,required"`
}]("run.toml", nil)

// recordRun is the record of a run starting now, from the repository at
// root, the machine and the values make passes.
func recordRun(root, goVersion, describe string, passes int) runInfo {
	r := runInfo{
		"date":     time.Now().UTC().Format("2006-01-02 15:04 UTC"),
		"cpu":      cpuField("model name"),
		"go":       goVersion,
		"describe": describe,
		"dirty":    "no",
		"passes":   strconv.Itoa(passes),
		// randp's keystream backend on this CPU, as the release randp-cat reports it.
		"backend":             backend(root),
		"xsys":                goModVersion(filepath.Join(root, "benches", "go", "go.mod"), "golang.org/x/sys"),
		"cargo_bench_profile": cargoBenchProfile(filepath.Join(root, "Cargo.toml")),
	}
	for k, cmd := range runSpec.Commands {
		r[k] = firstLine(run(root, cmd[0], cmd[1:]...))
	}
	for k, pkg := range runSpec.Packages {
		r[k] = debVersion(pkg)
	}
	if strings.TrimSpace(run(root, "git", "status", "--porcelain", "--untracked-files=no")) != "" {
		r["dirty"] = "yes"
	}
	r["cpu_id"], r["uarch"] = cpuIdentity()
	have := strings.Fields(cpuField("flags"))
	pick := func(list []string) string {
		return strings.Join(slices.DeleteFunc(slices.Clone(list), func(f string) bool { return !slices.Contains(have, f) }), " ")
	}
	r["cpu_flags"], r["backend_flags"] = pick(runSpec.CPUFlags), pick(runSpec.BackendFlags)
	if b, err := os.ReadFile(filepath.Join(root, "Cargo.toml")); err == nil {
		if m := regexp.MustCompile(`(?m)^version\s*=\s*"([^"]+)"`).FindSubmatch(b); m != nil {
			r["randp"] = string(m[1])
		}
	}
	return r
}

// cpuIdentity is "vendor family F model M stepping S, microcode X" from
// /proc/cpuinfo (decimal, as the kernel prints them) and the
// microarchitecture those name, where known.
func cpuIdentity() (id, uarch string) {
	vendor := cpuField("vendor_id")
	fam, _ := strconv.Atoi(cpuField("cpu family"))
	model, _ := strconv.Atoi(cpuField("model"))
	id = fmt.Sprintf("%s family %d model %d stepping %s", cmp.Or(vendor, "?"), fam, model, cmp.Or(cpuField("stepping"), "?"))
	if mc := cpuField("microcode"); mc != "" {
		id += ", microcode " + mc
	}
	return id, microarchitecture(vendor, fam, model)
}

// core is one entry of data/microarchitectures.toml.
type core struct {
	Vendor string   `toml:"vendor,required"`
	Family int      `toml:"family"`
	Models [][2]int `toml:"models,required"`
	Name   string   `toml:"name,required"`
}

var cores = mustLoad[struct {
	Core []core `toml:"core"`
}]("microarchitectures.toml", nil).Core

// microarchitecture names the core of an x86 CPU by vendor, family and
// model; "" when not known.
func microarchitecture(vendor string, family, model int) string {
	for _, c := range cores {
		for _, m := range c.Models {
			if c.Vendor == vendor && c.Family == family && model >= m[0] && model <= m[1] {
				return c.Name
			}
		}
	}
	return ""
}

// debVersion is a Debian package's installed version, or "".
func debVersion(pkg string) string {
	v := strings.TrimSpace(run("", "dpkg-query", "-W", "-f=${Version}", pkg))
	if v == "" {
		return ""
	}
	return pkg + " " + v
}

// goModVersion is the version a go.mod requires of a module, or "".
func goModVersion(gomod, module string) string {
	b, err := os.ReadFile(gomod)
	if err != nil {
		return ""
	}
	if m := regexp.MustCompile(`(?m)^\s*(?:require\s+)?` + regexp.QuoteMeta(module) + `\s+(\S+)`).FindSubmatch(b); m != nil {
		return module + " " + string(m[1])
	}
	return ""
}

// cargoBenchProfile is what cargo bench builds with: Cargo.toml's
// [profile.bench] (which inherits [profile.release]) and RUSTFLAGS.
func cargoBenchProfile(cargoToml string) string {
	b, err := os.ReadFile(cargoToml)
	if err != nil {
		return ""
	}
	section := func(name string) string {
		var kv []string
		in := false
		for _, line := range strings.Split(string(b), "\n") {
			line = strings.TrimSpace(line)
			if strings.HasPrefix(line, "[") {
				in = line == "["+name+"]"
				continue
			}
			if in && line != "" && !strings.HasPrefix(line, "#") {
				kv = append(kv, strings.Join(strings.Fields(line), ""))
			}
		}
		return strings.Join(kv, ", ")
	}
	return fmt.Sprintf("[profile.bench] %s (inherits [profile.release] %s; opt-level 3); RUSTFLAGS=%q",
		cmp.Or(section("profile.bench"), "default"), cmp.Or(section("profile.release"), "default"), os.Getenv("RUSTFLAGS"))
}

func (r runInfo) write(path string) error {
	var b strings.Builder
	keys := slices.Clone(runSpec.Keys)
	for k := range r {
		if !slices.Contains(keys, k) {
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
