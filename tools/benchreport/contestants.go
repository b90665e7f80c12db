package main

import (
	_ "embed"
	"fmt"
	"strings"
	"text/template"
)

// The contestants' names and the tables' row orders (data/contestants.toml).

//go:embed data/contestants.toml
var contestantsTOML string

type cContestant struct {
	Label string            `toml:"label"`
	Short string            `toml:"short"`
	Head  string            `toml:"head"`
	Ref   map[string]string `toml:"ref"`
}

type contestantData struct {
	C      map[string]cContestant                       `toml:"c"`
	Groups map[string]struct{ Fn, Per, Heading string } `toml:"c_groups"`
	Rows   map[string][]string                          `toml:"c_rows"`
	Rust   struct {
		FillGroups []rustGroup `toml:"fill_groups"`
		WordGroups []rustGroup `toml:"word_groups"`
		Fill       [][2]string `toml:"fill"`
		Words      [][2]string `toml:"words"`
	} `toml:"rust"`
	Peers    []string    `toml:"peers"`
	Sweeps   []sweepSpec `toml:"sweep"`
	Backends []struct {
		Name  string   `toml:"name"`
		Flags []string `toml:"flags"`
	} `toml:"backend"`
	Go struct {
		Sources   []goRow  `toml:"sources"`
		Read2MiB  []goRow  `toml:"read_2mib"`
		V2        []goRow  `toml:"v2"`
		ReadSizes []goRow  `toml:"read_sizes"`
		Purego    []goRow  `toml:"purego"`
		Funcs     []string `toml:"funcs"`
		DcrdSizes []string `toml:"dcrd_sizes"`
		Parallel  []goRow  `toml:"parallel"`
		Sweep     []goRow  `toml:"sweep"`
	} `toml:"go"`
}

// rustGroup is one Rust table: data/contestants.toml says what each field
// means.
type rustGroup struct {
	Group string  `toml:"group"`
	Title string  `toml:"title"`
	Size  float64 `toml:"size"`
	Base  string  `toml:"base"`
	Label string  `toml:"label"`
}

// goRow is a row (or column) of a Go table: data/contestants.toml says what
// each field means.
type goRow struct {
	Name       string `toml:"name"`
	Set        string `toml:"set"`
	Peer       string `toml:"peer"`
	Ref        string `toml:"ref"`
	Label      string `toml:"label"`
	Rival      string `toml:"rival"`
	RivalLabel string `toml:"rival_label"`
	Verdict    string `toml:"verdict"`
	AES        bool   `toml:"aes"`
}

// set is the results of the test binary that ran the row, and why the
// row is not measured when its peer is missing.
func (g goRow) set(res *results) (*goSet, string) {
	return map[string]*goSet{"": res.goRandp, "peers": res.goPeers, "dcrd": res.goDcrd}[g.Set], res.peers[g.Peer]
}

var contestants = mustParse("contestants.toml", contestantsTOML, parseContestants)

// parseContestants decodes the contestants and checks them against the
// schema: every row order names described contestants, every label parses.
func parseContestants(text string) (*contestantData, error) {
	var c contestantData
	if err := decodeTOML(text, &c); err != nil {
		return nil, err
	}
	for _, rows := range []string{"fill_by_size", "fill_4gib", "u32", "u64", "lt_u32"} {
		if len(c.Rows[rows]) == 0 {
			return nil, fmt.Errorf("no c_rows.%s", rows)
		}
		for _, k := range c.Rows[rows] {
			if c.C[k].Label == "" {
				return nil, fmt.Errorf("c_rows.%s names %q, which has no [c.%s] label", rows, k, k)
			}
		}
	}
	for name, g := range c.Groups {
		if g.Fn == "" || headings[g.Heading] == "" {
			return nil, fmt.Errorf("c_groups.%s: no fn or an unknown heading %q", name, g.Heading)
		}
	}
	for k, ct := range c.C {
		for _, s := range []string{ct.Label, ct.Head} {
			if _, err := template.New(k).Funcs(labelFuncs(nil)).Parse(s); err != nil {
				return nil, err
			}
		}
	}
	if len(c.Rust.Fill) == 0 || len(c.Rust.Words) == 0 || len(c.Rust.FillGroups) == 0 || len(c.Rust.WordGroups) == 0 {
		return nil, fmt.Errorf("no rust.fill, rust.words, rust.fill_groups or rust.word_groups")
	}
	for _, g := range append(c.Rust.FillGroups, c.Rust.WordGroups...) {
		if g.Group == "" || g.Title == "" || (g.Size == 0) == (g.Base == "" || g.Label == "") {
			return nil, fmt.Errorf("rust group %q: a group, a title, and a size or a base and a label", g.Group)
		}
	}
	for _, s := range c.Sweeps {
		if s.Name == "" || s.Title == "" || s.Param == "" || s.Unit == "" || s.Bytes <= 0 {
			return nil, fmt.Errorf("sweep %q: a name, a title, a param, a unit and bytes", s.Name)
		}
	}
	if len(c.Sweeps) == 0 || len(c.Peers) == 0 || len(c.Backends) == 0 || len(c.Go.Funcs) == 0 || len(c.Go.DcrdSizes) == 0 {
		return nil, fmt.Errorf("no peers, backend, go.funcs or go.dcrd_sizes")
	}
	g := c.Go
	for name, rows := range map[string][]goRow{"sources": g.Sources, "read_2mib": g.Read2MiB, "v2": g.V2, "read_sizes": g.ReadSizes, "purego": g.Purego, "parallel": g.Parallel, "sweep": g.Sweep} {
		if len(rows) == 0 {
			return nil, fmt.Errorf("no go.%s rows", name)
		}
		for _, row := range rows {
			if row.Name == "" || (row.Set != "" && row.Set != "peers" && row.Set != "dcrd") ||
				(row.Verdict != "" && row.Verdict != "none" && row.Verdict != "plain") {
				return nil, fmt.Errorf("go.%s: a row without a name or with an unknown set %q or verdict %q", name, row.Set, row.Verdict)
			}
		}
	}
	return &c, nil
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
	var b strings.Builder
	if err := template.Must(template.New("").Funcs(labelFuncs(r)).Parse(text)).Execute(&b, data); err != nil {
		panic(fmt.Sprintf("benchreport: label %q: %v", text, err))
	}
	return b.String()
}

// cShortOr is a C contestant's short name, or its key.
func cShortOr(k string) string { return or(contestants.C[k].Short, k) }

// goVersion is the run's Go version ("1.26.8").
func (r *report) goVersion() string { return strings.TrimPrefix(r.res.run["go"], "go") }
