package main

import "cmp"

// The first screen's rows (data/summary.toml).

type summarySpec struct {
	Title string `toml:"title,required"`
	Rows  []struct {
		You     string `toml:"you,required,label"`
		Work    string `toml:"work,required"`
		Rival   string `toml:"rival,required,ref"`
		Randp   string `toml:"randp,required,ref"`
		Peer    string `toml:"peer"`
		Heading string `toml:"heading,required,heading"`
		Unless  string `toml:"unless,oneof=|glibc_vdso"`
	} `toml:"rows,required"`
}

// summaryFile is data/summary.toml.
type summaryFile struct {
	Group []summarySpec `toml:"group"`
}

var summarySpecs = mustLoad[summaryFile]("summary.toml", nil).Group

// summaryGroups is the first screen's rows, by language.
func (r *report) summaryGroups() []summaryGroup {
	var groups []summaryGroup
	for _, g := range summarySpecs {
		var rows []summaryRow
		for _, s := range g.Rows {
			if s.Unless == "glibc_vdso" && r.glibcHasVDSO() {
				continue
			}
			why := cmp.Or(r.res.peers[s.Peer], r.why(s.Rival), r.why(s.Randp))
			rows = append(rows, summaryRow{r.label(s.You, nil), s.Work, r.stat(s.Rival), r.stat(s.Randp), why, headings[s.Heading]})
		}
		groups = append(groups, summaryGroup{g.Title, rows})
	}
	return groups
}
