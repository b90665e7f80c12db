package main

import (
	"bufio"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
)

// runInfo is what ran and where, recorded when the run starts (run.txt,
// which benches/record-run.sh writes): the report is rendered from it, so
// that a later render of the committed results names the same machine,
// toolchains and commit.
type runInfo map[string]string

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

// loadRunInfo reads a run record; one without uarch gets the
// microarchitecture its cpu_id names, where known.
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
	if vendor, family, model, ok := cpuOf(r); ok && r["uarch"] == "" {
		r["uarch"] = microarchitecture(vendor, family, model)
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
