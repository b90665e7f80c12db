package main

import (
	_ "embed"
	"fmt"
	"strings"

	"github.com/BurntSushi/toml"
)

// The numbers quoted from the reference documents the project started from
// (data/references.toml), measured on their authors' machines, not here.
// The report prints them only in columns or tables labelled "reference", on
// the row of the contestant the document measured.

//go:embed data/references.toml
var referencesTOML string

// seed002Run is one dated run of planet36/randp's benchmark README. Keys
// are the README's function names.
type seed002Run struct {
	Date   string             `toml:"date"`
	System string             `toml:"system"`
	FillMs map[string]float64 `toml:"fill_ms"` // fill 4 GiB, ms
	U32Ns  map[string]float64 `toml:"u32_ns"`  // ns per call
	// Bounded u32: ns per call (2026) or millions of calls per second (the others).
	LtNs  map[string]float64 `toml:"lt_ns"`
	LtMps map[string]float64 `toml:"lt_mps"`
}

// lt is the bounded-u32 time per call in ns, whichever way the run gave it.
func (s seed002Run) lt(key string) (float64, bool) {
	if v, ok := s.LtNs[key]; ok {
		return v, true
	}
	if v, ok := s.LtMps[key]; ok && v > 0 {
		return 1e3 / v, true
	}
	return 0, false
}

// seed003Row is one line of "How slow are decent random numbers?":
// name, iterations, ns/op, MB/s (Read rows only), B/op, allocs/op.
type seed003Row struct {
	Name        string
	Iters       int
	NsOp        float64
	MBs         float64
	BOp, Allocs int
}

// seed000Row is one line of decred dcrd's benchstat table, as printed:
// name, sec/op old and its ±, new and its ±, vs base.
type seed000Row struct {
	Name         string
	Old, New     float64 // ns
	OldPM, NewPM string  // "± 2%"
	VsBase       string
}

// references is data/references.toml.
type references struct {
	Planet36      []seed002Run `toml:"planet36"`
	Unpredictable struct {
		Machine string         `toml:"machine"`
		Runs    [][]seed003Row `toml:"runs"`
		Read    []seed003Row   `toml:"read"`
	} `toml:"unpredictable"`
	Dcrd struct {
		Machine string       `toml:"machine"`
		Geomean string       `toml:"geomean"`
		Rows    []seed000Row `toml:"rows"`
	} `toml:"dcrd"`
	RdrandPatch struct {
		Machine       string  `toml:"machine"`
		ImprovementPC float64 `toml:"improvement_pc"`
	} `toml:"rdrand_patch"`
}

var (
	seed002 []seed002Run
	seed003 struct {
		Machine string
		Runs    [2][]seed003Row
		Read    []seed003Row
	}
	seed000 struct {
		Machine, Geomean string
		Rows             []seed000Row
	}
	seed004 struct {
		Machine       string
		ImprovementPC float64
	}
)

func init() {
	ref, err := parseReferences(referencesTOML)
	if err != nil {
		panic("benchreport: data/references.toml: " + err.Error())
	}
	seed002 = ref.Planet36
	seed003.Machine, seed003.Read = ref.Unpredictable.Machine, ref.Unpredictable.Read
	copy(seed003.Runs[:], ref.Unpredictable.Runs)
	seed000.Machine, seed000.Geomean, seed000.Rows = ref.Dcrd.Machine, ref.Dcrd.Geomean, ref.Dcrd.Rows
	seed004.Machine, seed004.ImprovementPC = ref.RdrandPatch.Machine, ref.RdrandPatch.ImprovementPC
}

// parseReferences decodes the references and checks them against the
// schema: no key the types do not name, every document and field present.
func parseReferences(text string) (*references, error) {
	var ref references
	md, err := toml.Decode(text, &ref)
	if err != nil {
		return nil, err
	}
	if keys := md.Undecoded(); len(keys) > 0 {
		return nil, fmt.Errorf("unknown keys %v", keys)
	}
	var missing []string
	need := func(ok bool, what string) {
		if !ok {
			missing = append(missing, what)
		}
	}
	need(len(ref.Planet36) > 0, "planet36")
	for i, r := range ref.Planet36 {
		need(r.Date != "" && r.System != "" && len(r.FillMs) > 0 && len(r.U32Ns) > 0 && len(r.LtNs)+len(r.LtMps) > 0,
			fmt.Sprintf("planet36[%d]: date, system, fill_ms, u32_ns and lt_ns or lt_mps", i))
	}
	u := ref.Unpredictable
	need(u.Machine != "" && len(u.Runs) == 2 && len(u.Read) > 0, "unpredictable: machine, two runs, read")
	need(ref.Dcrd.Machine != "" && ref.Dcrd.Geomean != "" && len(ref.Dcrd.Rows) > 0, "dcrd: machine, geomean, rows")
	need(ref.RdrandPatch.Machine != "" && ref.RdrandPatch.ImprovementPC > 0, "rdrand_patch: machine, improvement_pc")
	if len(missing) > 0 {
		return nil, fmt.Errorf("missing %s", strings.Join(missing, "; "))
	}
	return &ref, nil
}

// UnmarshalTOML reads a row [name, iterations, ns/op, MB/s, B/op, allocs/op].
func (r *seed003Row) UnmarshalTOML(v any) error {
	f, err := rowFields(v, "sifffi")
	if err != nil {
		return err
	}
	*r = seed003Row{f[0].(string), int(f[1].(int64)), f[2].(float64), f[3].(float64), int(f[4].(float64)), int(f[5].(int64))}
	return nil
}

// UnmarshalTOML reads a row [name, old ns, old ±, new ns, new ±, vs base].
func (r *seed000Row) UnmarshalTOML(v any) error {
	f, err := rowFields(v, "sfsfss")
	if err != nil {
		return err
	}
	*r = seed000Row{Name: f[0].(string), Old: f[1].(float64), OldPM: f[2].(string), New: f[3].(float64), NewPM: f[4].(string), VsBase: f[5].(string)}
	return nil
}

// rowFields checks a TOML array against kinds, one letter per field: s a
// string, i an integer, f a number (an integer is taken as a float64).
func rowFields(v any, kinds string) ([]any, error) {
	row, ok := v.([]any)
	if !ok || len(row) != len(kinds) {
		return nil, fmt.Errorf("row %v: want an array of %d fields", v, len(kinds))
	}
	out := make([]any, len(row))
	for i, k := range kinds {
		switch x := row[i].(type) {
		case string:
			ok = k == 's'
			out[i] = x
		case int64:
			ok = k == 'i' || k == 'f'
			out[i] = x
			if k == 'f' {
				out[i] = float64(x)
			}
		case float64:
			ok = k == 'f'
			out[i] = x
		default:
			ok = false
		}
		if !ok {
			return nil, fmt.Errorf("row %v: field %d is %T, want %c", v, i+1, row[i], k)
		}
	}
	return out, nil
}

// seed003Ref finds a row of one of seed 003's runs.
func seed003Ref(rows []seed003Row, name string) (seed003Row, bool) {
	for _, r := range rows {
		if r.Name == name {
			return r, true
		}
	}
	return seed003Row{}, false
}

// seed000Ref finds one of seed 000's rows.
func seed000Ref(name string) (seed000Row, bool) {
	for _, r := range seed000.Rows {
		if r.Name == name {
			return r, true
		}
	}
	return seed000Row{}, false
}
