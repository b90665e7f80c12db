package main

import (
	"fmt"
	"slices"
)

// The numbers quoted from the reference documents the project started from
// (data/references.toml), measured on their authors' machines, not here.
// The report prints them only in columns or tables labelled "reference", on
// the row of the contestant the document measured.

// seed002Run is one dated run of planet36/randp's benchmark README. Keys
// are the README's function names.
type seed002Run struct {
	Date   string             `toml:"date,required"`
	System string             `toml:"system,required"`
	FillMs map[string]float64 `toml:"fill_ms,required"` // fill 4 GiB, ms
	U32Ns  map[string]float64 `toml:"u32_ns,required"`  // ns per call
	// Bounded u32: ns per call (2026) or millions of calls per second (the others).
	LtNs  map[string]float64 `toml:"lt_ns"`
	LtMps map[string]float64 `toml:"lt_mps"`
}

// cell is the run's number for the README function key in a table of
// group ("fill": ms to fill 4 GiB; "u32", "lt_u32": ns per call, the
// bounded ones whichever way the run gave them), or "".
func (s seed002Run) cell(group, key string) string {
	if key == "" {
		return ""
	}
	if v, ok := map[string]map[string]float64{"fill": s.FillMs, "u32": s.U32Ns, "lt_u32": s.LtNs}[group][key]; ok {
		if group == "fill" {
			return fmtMs(v)
		}
		return ns(v)
	}
	if v, ok := s.LtMps[key]; ok && v > 0 && group == "lt_u32" {
		return ns(1e3 / v)
	}
	return ""
}

// seed003Row is one line of "How slow are decent random numbers?".
type seed003Row struct {
	Name   string  `toml:"name,required"`
	Iters  int     `toml:"iters,required"`
	NsOp   float64 `toml:"ns_op,required"`
	MBs    float64 `toml:"mb_s"` // Read rows only
	BOp    int     `toml:"b_op"`
	Allocs int     `toml:"allocs"`
}

// seed000Row is one line of decred dcrd's benchstat table, as printed.
type seed000Row struct {
	Name   string  `toml:"name,required"`
	Old    float64 `toml:"old,required"` // ns
	OldPM  string  `toml:"old_pm,required"`
	New    float64 `toml:"new,required"`
	NewPM  string  `toml:"new_pm,required"`
	VsBase string  `toml:"vs_base,required"`
}

// references is data/references.toml.
type references struct {
	Planet36      []seed002Run `toml:"planet36,required"`
	Unpredictable struct {
		Machine string         `toml:"machine,required"`
		Runs    [][]seed003Row `toml:"runs,required"`
		Read    []seed003Row   `toml:"read,required"`
	} `toml:"unpredictable"`
	Dcrd struct {
		Machine string       `toml:"machine,required"`
		Geomean string       `toml:"geomean,required"`
		Rows    []seed000Row `toml:"rows,required"`
	} `toml:"dcrd"`
	RdrandPatch struct {
		Machine       string  `toml:"machine,required"`
		ImprovementPC float64 `toml:"improvement_pc,required"`
	} `toml:"rdrand_patch"`
}

var refs = mustLoad("references.toml", checkReferences)

// checkReferences checks what the tags cannot: a bounded row's lt_ns or
// lt_mps, and the article's two runs.
func checkReferences(r *references) error {
	for i, run := range r.Planet36 {
		if len(run.LtNs)+len(run.LtMps) == 0 {
			return fmt.Errorf("planet36[%d]: no lt_ns or lt_mps", i)
		}
	}
	if len(r.Unpredictable.Runs) != 2 {
		return fmt.Errorf("unpredictable: %d runs, not two", len(r.Unpredictable.Runs))
	}
	return nil
}

// findRef is the row of one of the article's runs with that name, or nil.
func findRef(rows []seed003Row, name string) *seed003Row {
	if i := slices.IndexFunc(rows, func(r seed003Row) bool { return r.Name == name }); i >= 0 {
		return &rows[i]
	}
	return nil
}

// seed000Ref is the row of dcrd's benchstat table with that name, or none.
func seed000Ref(name string) seed000Row {
	if i := slices.IndexFunc(refs.Dcrd.Rows, func(r seed000Row) bool { return r.Name == name }); i >= 0 {
		return refs.Dcrd.Rows[i]
	}
	return seed000Row{}
}
