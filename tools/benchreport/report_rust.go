package main

import "fmt"

// pct is the throughput of b as a share of a's (times per operation).
func pct(a, b stat) string {
	if !a.ok() || !b.ok() {
		return "not measured"
	}
	return fmt.Sprintf("%.0f%%", 100*a.Center/b.Center)
}

// sweepSection is one sweep's table in the report, or why it has none.
func (r *report) sweepSection(s sweepSpec) string {
	t, err := sweepTable(r.res.crit, s.Name)
	if err != nil {
		return fmt.Sprintf("**%s**: not run in this report (%v).\n\n", s.Title, err)
	}
	return fmt.Sprintf("**%s**\n\n%s\n", s.Title, t)
}
