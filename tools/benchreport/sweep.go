package main

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// sweepTable prints the table of one parameter sweep of benches/sweep.rs
// (contestants.toml's [[sweep]]): groups <sweep>_fill_1MiB,
// <sweep>_fill_256B and <sweep>_u64, one benchmark per parameter value.
func sweepTable(crit critSet, sweep string) (string, error) {
	i := slices.IndexFunc(contestants.Sweeps, func(s sweepSpec) bool { return s.Name == sweep })
	if i < 0 {
		return "", fmt.Errorf("unknown sweep %q (num_blocks or reseed_countdown)", sweep)
	}
	spec := contestants.Sweeps[i]
	fill := crit[sweep+"_fill_1MiB"]
	small := crit[sweep+"_fill_256B"]
	words := crit[sweep+"_u64"]
	if len(fill) == 0 {
		return "", fmt.Errorf("no results for sweep %s (run: cargo bench --features internals --bench sweep -- %s)", sweep, sweep)
	}
	var values []int
	for k := range fill {
		v, err := strconv.Atoi(k)
		if err != nil {
			return "", fmt.Errorf("sweep %s: parameter %q: %w", sweep, k, err)
		}
		values = append(values, v)
	}
	slices.Sort(values)
	t := &table{head: []string{spec.Param, spec.Unit, "fill 1 MiB, GB/s", "fill 256 B, ns per call", "u64, ns per call"}}
	for _, v := range values {
		k := strconv.Itoa(v)
		cells := []string{k, kib(v * spec.Bytes), "—", "—", "—"}
		if r, ok := fill[k]; ok {
			cells[2] = fmt.Sprintf("%.2f", r.GBps())
		}
		if r, ok := small[k]; ok {
			cells[3] = fmt.Sprintf("%.1f", r.Time.Center)
		}
		if r, ok := words[k]; ok {
			cells[4] = fmt.Sprintf("%.2f", r.PerElement().Center)
		}
		t.row(cells...)
	}
	return t.String(), nil
}

// sweepSpec is one sweep of benches/sweep.rs: data/contestants.toml says
// what each field means.
type sweepSpec struct {
	Name  string `toml:"name,required"`
	Title string `toml:"title,required"`
	Param string `toml:"param,required"`
	Unit  string `toml:"unit,required"`
	Bytes int    `toml:"bytes,required"`
}

// kib writes n bytes as "4 KiB", "1 MiB" or "48 B".
func kib(n int) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	default:
		return strings.TrimSpace(fmt.Sprintf("%d B", n))
	}
}

// sweepSection is one sweep's table in the report, or why it has none.
func (r *report) sweepSection(s sweepSpec) string {
	t, err := sweepTable(r.res.crit, s.Name)
	if err != nil {
		return fmt.Sprintf("**%s**: not run in this report (%v).\n\n", s.Title, err)
	}
	return fmt.Sprintf("**%s**\n\n%s\n", s.Title, t)
}
