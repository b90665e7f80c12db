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
	Name   string  `toml:"name"`
	Iters  int     `toml:"iters"`
	NsOp   float64 `toml:"ns_op"`
	MBs    float64 `toml:"mb_s"` // Read rows only
	BOp    int     `toml:"b_op"`
	Allocs int     `toml:"allocs"`
}

// seed000Row is one line of decred dcrd's benchstat table, as printed.
type seed000Row struct {
	Name   string  `toml:"name"`
	Old    float64 `toml:"old"` // ns
	OldPM  string  `toml:"old_pm"`
	New    float64 `toml:"new"`
	NewPM  string  `toml:"new_pm"`
	VsBase string  `toml:"vs_base"`
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

var refs = mustParse("references.toml", referencesTOML, func(text string) (r references, err error) {
	return r, parseReferences(text, &r)
})

// parseReferences decodes the references into ref and checks them against
// the schema: no key the types do not name, every document and field there.
func parseReferences(text string, ref *references) error {
	if err := decodeTOML(text, ref); err != nil {
		return err
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
	for _, row := range append(append(append([]seed003Row(nil), u.Read...), u.Runs[0]...), u.Runs[len(u.Runs)-1]...) {
		need(row.Name != "" && row.Iters > 0 && row.NsOp > 0, "unpredictable: a row's name, iters and ns_op")
	}
	need(ref.Dcrd.Machine != "" && ref.Dcrd.Geomean != "" && len(ref.Dcrd.Rows) > 0, "dcrd: machine, geomean, rows")
	for _, row := range ref.Dcrd.Rows {
		need(row.Name != "" && row.Old > 0 && row.New > 0 && row.OldPM != "" && row.NewPM != "" && row.VsBase != "", "dcrd: every field of "+row.Name)
	}
	need(ref.RdrandPatch.Machine != "" && ref.RdrandPatch.ImprovementPC > 0, "rdrand_patch: machine, improvement_pc")
	if len(missing) > 0 {
		return fmt.Errorf("missing %s", strings.Join(missing, "; "))
	}
	return nil
}

// mustParse is a data file's text parsed and checked by parse: a data file
// that fails its schema stops the program as it starts.
func mustParse[T any](file, text string, parse func(string) (T, error)) T {
	v, err := parse(text)
	if err != nil {
		panic("benchreport: data/" + file + ": " + err.Error())
	}
	return v
}

// decodeTOML decodes a data file into v and refuses a key v does not name.
func decodeTOML(text string, v any) error {
	md, err := toml.Decode(text, v)
	if err != nil {
		return err
	}
	if keys := md.Undecoded(); len(keys) > 0 {
		return fmt.Errorf("unknown keys %v", keys)
	}
	return nil
}

// findRef is the row of one of the article's runs with that name, or nil.
func findRef(rows []seed003Row, name string) *seed003Row {
	for i := range rows {
		if rows[i].Name == name {
			return &rows[i]
		}
	}
	return nil
}

// seed000Ref finds one of dcrd's rows.
func seed000Ref(name string) (seed000Row, bool) {
	for _, r := range refs.Dcrd.Rows {
		if r.Name == name {
			return r, true
		}
	}
	return seed000Row{}, false
}
