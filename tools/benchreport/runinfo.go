package main

import (
	_ "embed"
	"fmt"
	"maps"
	"os"
	"os/exec"
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

//go:embed data/run.toml
var runTOML string

// runSpec is data/run.toml: what the run record holds and how each of
// its keys is found; the file says what each field means.
var runSpec = mustParse("run.toml", runTOML, func(text string) (s struct {
	Keys         []string          `toml:"keys,required"`
	CPUFlags     []string          `toml:"cpu_flags,required"`
	BackendFlags []string          `toml:"backend_flags,required"`
	Flags        string            `toml:"flags,required"`
	Commands     map[string]string `toml:"commands,required"`
}, err error) {
	return s, decodeTOML(text, &s)
})

// recordRun is the record of a run starting now, from the repository at
// root, the machine and the values make passes.
func recordRun(root, goVersion, describe string, passes int) runInfo {
	r := runInfo{"date": time.Now().UTC().Format("2006-01-02 15:04 UTC"), "go": goVersion, "describe": describe,
		"passes": strconv.Itoa(passes)}
	for k, cmd := range runSpec.Commands {
		r[k] = shell(root, cmd)
	}
	if vendor, family, model, ok := cpuModel(r["cpu_id"]); ok {
		r["uarch"] = microarchitecture(vendor, family, model)
	}
	have := strings.Fields(shell(root, runSpec.Flags))
	pick := func(list []string) string {
		return strings.Join(slices.DeleteFunc(slices.Clone(list), func(f string) bool { return !slices.Contains(have, f) }), " ")
	}
	r["cpu_flags"], r["backend_flags"] = pick(runSpec.CPUFlags), pick(runSpec.BackendFlags)
	return r
}

// shell is the first line, trimmed, that a shell command run in dir
// prints, or "" when it fails.
func shell(dir, command string) string {
	cmd := exec.Command("sh", "-c", command)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	line, _, _ := strings.Cut(string(out), "\n")
	return strings.TrimSpace(line)
}

// cpuModel reads the vendor, family and model of a run record's cpu_id
// ("AuthenticAMD family 25 model 17 stepping 1, ...").
func cpuModel(cpuID string) (vendor string, family, model int, ok bool) {
	_, err := fmt.Sscanf(cpuID, "%s family %d model %d", &vendor, &family, &model)
	return vendor, family, model, err == nil
}

//go:embed data/microarchitectures.toml
var microarchitecturesTOML string

// core is one entry of data/microarchitectures.toml.
type core struct {
	Vendor string   `toml:"vendor,required"`
	Family int      `toml:"family"`
	Models [][2]int `toml:"models,required"`
	Name   string   `toml:"name,required"`
}

var cores = mustParse("microarchitectures.toml", microarchitecturesTOML, func(text string) ([]core, error) {
	var f struct {
		Core []core `toml:"core"`
	}
	err := decodeTOML(text, &f)
	return f.Core, err
})

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

// write writes the record as run.txt: "key: value" lines in data/run.toml's
// order of keys, then any others.
func (r runInfo) write(path string) error {
	var b strings.Builder
	keys := slices.Clone(runSpec.Keys)
	for _, k := range slices.Sorted(maps.Keys(r)) {
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
	b, err := os.ReadFile(path)
	r := runInfo{}
	for _, line := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(line, ": "); ok {
			r[k] = v
		}
	}
	return r, err
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
		var t int64
		var v float64
		if _, err := fmt.Sscan(line, &t, &v); err != nil {
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
