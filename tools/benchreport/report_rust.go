package main

import "fmt"

func (r *report) rustTables() {
	r.text("rust", "Rust", contestants.Rust)
}

func (r *report) ceilingTable() {
	name, widest := r.res.ceil.widest()
	r.text("ceiling", "Ceil", &r.res.ceil, "Widest", name, "W", widest)
}

// pct is the throughput of b as a share of a's (times per operation).
func pct(a, b stat) string {
	if !a.ok() || !b.ok() {
		return "not measured"
	}
	return fmt.Sprintf("%.0f%%", 100*a.Center/b.Center)
}

func (r *report) sweeps() {
	r.text("sweeps")
	for _, s := range contestants.Sweeps {
		t, err := sweepTable(r.res.crit, s.Name)
		if err != nil {
			r.p("**%s**: not run in this report (%v).\n\n", s.Title, err)
			continue
		}
		r.p("**%s**\n\n%s\n", s.Title, t)
	}
}
