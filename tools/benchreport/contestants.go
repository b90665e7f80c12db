package main

import (
	"cmp"
	"fmt"
	"strings"
	"text/template"
)

// The contestants' names and the tables' row orders (data/contestants.toml).

type cContestant struct {
	Label string            `toml:"label,required,label"`
	Short string            `toml:"short"`
	Head  string            `toml:"head,label"`
	Ref   map[string]string `toml:"ref"`
}

type contestantData struct {
	C      map[string]cContestant `toml:"c,required"`
	Groups map[string]struct {
		Fn      string `toml:"fn,required"`
		Per     string `toml:"per"`
		Heading string `toml:"heading,required,heading"`
	} `toml:"c_groups,required"`
	Rows map[string][]string `toml:"c_rows,required"`
	Rust struct {
		FillGroups []rustGroup `toml:"fill_groups,required"`
		WordGroups []rustGroup `toml:"word_groups,required"`
		Fill       [][2]string `toml:"fill,required"`
		Words      [][2]string `toml:"words,required"`
	} `toml:"rust"`
	Peers    []string    `toml:"peers,required"`
	Sweeps   []sweepSpec `toml:"sweep,required"`
	Backends []struct {
		Name  string   `toml:"name,required"`
		Flags []string `toml:"flags"`
	} `toml:"backend,required"`
	Go struct {
		Sources   []goRow        `toml:"sources,required"`
		Read2MiB  []goRow        `toml:"read_2mib,required"`
		V2        []goRow        `toml:"v2,required"`
		ReadSizes []goRow        `toml:"read_sizes,required"`
		Purego    []goRow        `toml:"purego,required"`
		Funcs     []string       `toml:"funcs,required"`
		Benchstat []benchstatRow `toml:"benchstat,required"`
		DcrdSizes []string       `toml:"dcrd_sizes,required"`
		Parallel  []goRow        `toml:"parallel,required"`
		Sweep     []goRow        `toml:"sweep,required"`
	} `toml:"go"`
}

// rustGroup is one Rust table: data/contestants.toml says what each field
// means.
type rustGroup struct {
	Group string  `toml:"group,required"`
	Title string  `toml:"title,required"`
	Size  float64 `toml:"size"`
	Base  string  `toml:"base"`
	Label string  `toml:"label"`
}

// goRow is a row (or column) of a Go table: data/contestants.toml says what
// each field means.
type goRow struct {
	Name       string `toml:"name,required"`
	Set        string `toml:"set,oneof=|go_peers|dcrd"`
	Peer       string `toml:"peer"`
	Ref        string `toml:"ref"`
	Label      string `toml:"label"`
	Rival      string `toml:"rival"`
	RivalLabel string `toml:"rival_label"`
	Verdict    string `toml:"verdict,oneof=|none|plain"`
	AES        bool   `toml:"aes"`
}

// benchstatRow is a row of dcrd's benchstat table as measured here:
// data/contestants.toml says what each field means.
type benchstatRow struct {
	Name string `toml:"name,required"`
	Old  string `toml:"old,required,ref"`
	New  string `toml:"new,ref"`
	Note string `toml:"note"`
}

var contestants = mustLoad("contestants.toml", checkContestants)

// checkContestants checks what the tags cannot: every row order names
// described contestants, a Rust group has a size or a base and a label.
func checkContestants(c *contestantData) error {
	for _, rows := range []string{"fill_by_size", "fill_4gib", "u32", "u64", "lt_u32"} {
		if len(c.Rows[rows]) == 0 {
			return fmt.Errorf("no c_rows.%s", rows)
		}
		for _, k := range c.Rows[rows] {
			if c.C[k].Label == "" {
				return fmt.Errorf("c_rows.%s names %q, which has no [c.%s] label", rows, k, k)
			}
		}
	}
	for _, g := range append(c.Rust.FillGroups, c.Rust.WordGroups...) {
		if (g.Size == 0) == (g.Base == "" || g.Label == "") {
			return fmt.Errorf("rust group %q: a size, or a base and a label", g.Group)
		}
	}
	return nil
}

// labelFuncs are the functions a label may call, for the run of r.
func labelFuncs(r *report) template.FuncMap {
	return template.FuncMap{"anchor": anchor, "glibc": r.glibcLabel, "glibcVersion": r.glibcVersion, "libbsdVersion": r.libbsdVersion, "goVersion": r.goVersion}
}

// cLabel names a C contestant in a table of the given group ("fill", "u32",
// "u64", "lt_u32"): the call its users make for that work.
func (r *report) cLabel(group, key string) string {
	if _, ok := contestants.C[key]; !ok {
		return key
	}
	g := contestants.Groups[group]
	return r.label(contestants.C[key].Label, map[string]string{"Fn": g.Fn, "Per": g.Per})
}

// label executes a label's template.
func (r *report) label(text string, data any) string {
	return execute(template.Must(template.New(text).Funcs(labelFuncs(r)).Parse(text)), text, data)
}

// cShortOr is a C contestant's short name, or its key.
func cShortOr(k string) string { return cmp.Or(contestants.C[k].Short, k) }

// goVersion is the run's Go version ("1.26.8").
func (r *report) goVersion() string { return strings.TrimPrefix(r.res.run["go"], "go") }
