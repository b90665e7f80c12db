package main

import (
	_ "embed"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"text/template"

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

var refs = mustParse("references.toml", referencesTOML, parseReferences)

// parseReferences decodes the references and checks them against the
// schema: the tags', and a bounded row's lt_ns or lt_mps.
func parseReferences(text string) (r references, err error) {
	if err := decodeTOML(text, &r); err != nil {
		return r, err
	}
	for i, run := range r.Planet36 {
		if len(run.LtNs)+len(run.LtMps) == 0 {
			return r, fmt.Errorf("planet36[%d]: no lt_ns or lt_mps", i)
		}
	}
	if len(r.Unpredictable.Runs) != 2 {
		return r, fmt.Errorf("unpredictable: %d runs, not two", len(r.Unpredictable.Runs))
	}
	return r, nil
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

// decodeTOML decodes a data file into v and checks it against the schema
// v's type gives: a key v does not name is an error, and so is a field
// that fails its tag's options (checkField).
func decodeTOML(text string, v any) error {
	md, err := toml.Decode(text, v)
	if err != nil {
		return err
	}
	if keys := md.Undecoded(); len(keys) > 0 {
		return fmt.Errorf("unknown keys %v", keys)
	}
	return checkSchema(reflect.ValueOf(v), "")
}

// checkSchema checks the required and oneof fields of every struct within
// v, a value decoded at key path at.
func checkSchema(v reflect.Value, at string) error {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			return checkSchema(v.Elem(), at)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			name, opts, _ := strings.Cut(v.Type().Field(i).Tag.Get("toml"), ",")
			f := v.Field(i)
			if err := checkField(f, opts); err != nil {
				return fmt.Errorf("%s%s: %w", at, name, err)
			}
			if err := checkSchema(f, at+name+"."); err != nil {
				return err
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			if err := checkSchema(v.Index(i), fmt.Sprintf("%s%d.", at, i)); err != nil {
				return err
			}
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			if err := checkSchema(v.MapIndex(k), fmt.Sprintf("%s%v.", at, k)); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkField checks a field against its tag's options: required (not
// empty), oneof=a|b (one of those values) and, when not empty, ref (a
// benchmark, checkRef), label (a label's text/template, which parses with
// labelFuncs), heading (a name of data/headings.toml) and bound (a
// target's bound).
func checkField(f reflect.Value, opts string) error {
	s := fmt.Sprint(f)
	empty := f.IsZero() || ((f.Kind() == reflect.Slice || f.Kind() == reflect.Map) && f.Len() == 0)
	for _, opt := range strings.Split(opts, ",") {
		var err error
		oneof, isOneof := strings.CutPrefix(opt, "oneof=")
		switch {
		case opt == "required" && empty:
			err = errors.New("missing")
		case isOneof && !slices.Contains(strings.Split(oneof, "|"), s):
			err = fmt.Errorf("%q is not one of %s", s, oneof)
		case empty:
		case opt == "ref":
			err = checkRef(s)
		case opt == "label":
			_, err = template.New("").Funcs(labelFuncs(nil)).Parse(s)
		case opt == "heading" && headings[s] == "":
			err = fmt.Errorf("unknown heading %q", s)
		case opt == "bound":
			_, _, err = bound(s)
		}
		if err != nil {
			return err
		}
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
