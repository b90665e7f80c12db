package main

import "fmt"

func (r *report) rustTables() {
	cr := r.res.crit
	r.text("rust", "Rust", contestants.Rust)
	r.p("**Two threads at once against one** (each sample runs its threads in `std::thread::scope`; throughput of all threads)\n\n")
	t := &table{head: []string{"Work", "1 thread", "2 threads", "2 threads / 1 thread"}}
	for _, w := range []struct{ group, label string }{
		{"threads_fill_1MiB", "randp::fill_bytes, 1 MiB calls"}, {"threads_u64", "randp::u64"},
	} {
		one, two := cr.get(w.group, "randp_1_thread"), cr.get(w.group, "randp_2_thread")
		if !one.Time.ok() || !two.Time.ok() {
			t.row(w.label, "not measured", "", "")
			continue
		}
		// Per unit of work: a time per byte or per element across all threads.
		per := func(c critResult) stat { return c.Time.scaled(1 / (c.Bytes + c.Elements)) }
		if one.Bytes > 0 {
			t.row(w.label, gbps(per(one), 1), gbps(per(two), 1), scaling(per(one), per(two)))
		} else {
			t.row(w.label, spread(per(one))+" per value", spread(per(two))+" per value", scaling(per(one), per(two)))
		}
	}
	r.p("%s\n", t)
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
	for _, s := range []struct{ name, title string }{{"num_blocks", "num-blocks"}, {"reseed_countdown", "reseed-countdown"}} {
		t, err := sweepTable(r.res.crit, s.name)
		if err != nil {
			r.p("**%s**: not run in this report (%v).\n\n", s.title, err)
			continue
		}
		r.p("**%s**\n\n%s\n", s.title, t)
	}
}
