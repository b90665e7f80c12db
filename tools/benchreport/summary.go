package main

import (
	_ "embed"
	"fmt"
	"text/template"
)

// The first screen's rows (data/summary.toml).

//go:embed data/summary.toml
var summaryTOML string

type summarySpec struct {
	Title string `toml:"title,required"`
	Rows  []struct {
		You     string `toml:"you,required"`
		Work    string `toml:"work,required"`
		Rival   string `toml:"rival"`
		Randp   string `toml:"randp"`
		Peer    string `toml:"peer"`
		Heading string `toml:"heading"`
		Unless  string `toml:"unless,oneof=|glibc_vdso"`
	} `toml:"rows,required"`
}

var summarySpecs = mustParse("summary.toml", summaryTOML, parseSummary)

// parseSummary decodes the first screen's rows and checks them against the
// schema: the tags', known sources and headings, labels that parse.
func parseSummary(text string) ([]summarySpec, error) {
	var f struct {
		Group []summarySpec `toml:"group"`
	}
	if err := decodeTOML(text, &f); err != nil {
		return nil, err
	}
	for _, g := range f.Group {
		for _, row := range g.Rows {
			for _, ref := range []string{row.Rival, row.Randp} {
				if err := checkRef(ref); err != nil {
					return nil, fmt.Errorf("%q: %v", row.You, err)
				}
			}
			if headings[row.Heading] == "" {
				return nil, fmt.Errorf("%q: unknown heading %q", row.You, row.Heading)
			}
			if _, err := template.New("").Funcs(labelFuncs(nil)).Parse(row.You); err != nil {
				return nil, err
			}
		}
	}
	return f.Group, nil
}

// summaryGroups is the first screen's rows, by language.
func (r *report) summaryGroups() []summaryGroup {
	var groups []summaryGroup
	for _, g := range summarySpecs {
		var rows []summaryRow
		for _, s := range g.Rows {
			if s.Unless == "glibc_vdso" && r.glibcHasVDSO() {
				continue
			}
			why := or(r.res.peers[s.Peer], or(r.why(s.Rival), r.why(s.Randp)))
			rows = append(rows, summaryRow{r.label(s.You, nil), s.Work, r.stat(s.Rival), r.stat(s.Randp), why, headings[s.Heading]})
		}
		groups = append(groups, summaryGroup{g.Title, rows})
	}
	return groups
}
