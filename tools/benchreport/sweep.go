package main

import (
	"fmt"
	"slices"
	"strconv"
)

// sweep is one parameter sweep's table (templates/rust.tmpl's
// sweep_table): its sweep of data/contestants.toml and a row of cells per
// parameter value, or why it has none.
type sweep struct {
	sweepSpec
	Rows [][]string
	Err  error
}

// sweepTable reads one parameter sweep of benches/sweep.rs
// (contestants.toml's [[sweep]]) from groups <sweep>_fill_1MiB,
// <sweep>_fill_256B and <sweep>_u64, one benchmark per parameter value.
func sweepTable(crit store, name string) sweep {
	i := slices.IndexFunc(contestants.Sweeps, func(s sweepSpec) bool { return s.Name == name })
	if i < 0 {
		return sweep{Err: fmt.Errorf("unknown sweep %q (num_blocks or reseed_countdown)", name)}
	}
	s := sweep{sweepSpec: contestants.Sweeps[i]}
	fill := "rust:" + name + "_fill_1MiB/"
	var values []int
	for _, k := range crit.under(fill) {
		v, err := strconv.Atoi(k)
		if err != nil {
			s.Err = fmt.Errorf("sweep %s: parameter %q: %w", name, k, err)
			return s
		}
		values = append(values, v)
	}
	if len(values) == 0 {
		s.Err = fmt.Errorf("no results for sweep %s (run: cargo bench -p randp-benches --features benches --bench sweep -- %s)", name, name)
		return s
	}
	slices.Sort(values)
	for _, v := range values {
		k := strconv.Itoa(v)
		cells := []string{k, fmtBytes(float64(v * s.Bytes)), "—", "—", "—"}
		if ref := fill + k; len(crit.samples[ref]) > 0 {
			cells[2] = fmt.Sprintf("%.2f", crit.crit[ref].Bytes/crit.stat(ref).Center)
		}
		if ref := "rust:" + name + "_fill_256B/" + k; len(crit.samples[ref]) > 0 {
			cells[3] = fmt.Sprintf("%.1f", crit.stat(ref).Center)
		}
		if ref := name + "_u64/" + k; len(crit.samples["rust:"+ref]) > 0 {
			cells[4] = fmt.Sprintf("%.2f", crit.stat("rust_element:"+ref).Center)
		}
		s.Rows = append(s.Rows, cells)
	}
	return s
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
