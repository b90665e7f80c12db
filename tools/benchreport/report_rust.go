package main

import "fmt"

func (r *report) rustTables() {
	cr := r.res.crit
	r.text("rust")
	for _, g := range []struct {
		group, title string
		size         float64
	}{{"fill_1MiB", "Fill 1 MiB per call", 1 << 20}, {"fill_256B", "Fill 256 B per call", 256}} {
		r.p("**%s**\n\n", g.title)
		base := cr.get(g.group, "randp_bytes").Time
		t := &table{head: []string{"Function", "Time per call", "Throughput", "randp is"}}
		for _, row := range contestants.Rust.Fill {
			s := cr.get(g.group, row[0]).Time
			cmp := ""
			if row[0] != "randp_bytes" {
				cmp = r.vs(hRust, "Rust "+g.group+": "+row[1], base, s)
			}
			t.row(row[1], timeCell(s, ""), gbps(s, g.size), cmp)
		}
		r.p("%s\n", t)
	}
	for _, g := range []struct{ group, title, base string }{
		{"u32", "One u32 per call", "randp_u32"}, {"u64", "One u64 per call", "randp_u64"},
		{"lt_u32", "A u32 below a bound cycling through 1 ..= 0x100000", "randp_lt_u32"},
		{"lt_u64", "A u64 below a bound cycling through 1 ..= 0x100000 · 2^32", "randp_lt_u64"},
	} {
		r.p("**%s**\n\n", g.title)
		base := cr.get(g.group, g.base).PerElement()
		t := &table{head: []string{"Function", "Time per call", "randp is"}}
		for _, row := range append([][2]string{{g.base, "**randp** `" + g.base[len("randp_"):] + "`"}}, contestants.Rust.Words...) {
			c, ok := cr[g.group][row[0]]
			if !ok {
				continue
			}
			cmp := ""
			if row[0] != g.base && row[0] != "copyzero_u32" {
				cmp = r.vs(hRust, "Rust "+g.group+": "+row[1], base, c.PerElement())
			}
			t.row(row[1], timeCell(c.PerElement(), ""), cmp)
		}
		r.p("%s\n", t)
	}
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
	ce := &r.res.ceil
	cr := r.res.crit
	r.text("ceiling")
	t := &table{head: []string{"What", "Throughput, 1 MiB"}}
	t.row("**randp** `fill_bytes` (Rust)", gbps(cr.get("fill_1MiB", "randp_bytes").Time, 1<<20))
	t.row("**randp** `randp_bytes` (C ABI)", gbps(r.res.c.get("fill_1MiB/randp"), 1<<20))
	t.row("**randp** keystream engine alone ("+or(r.res.run["backend"], "backend in use")+")", gbps(cr.get("fill_1MiB", "randp_keystream").Time, 1<<20))
	t.row("aes crate AES-256-CTR keystream", gbps(cr.get("fill_1MiB", "aes256ctr_keystream").Time, 1<<20))
	t.row("`openssl speed -elapsed -evp aes-256-ctr`", gbps(ce.OpenSSL(), 1<<20))
	for _, k := range ce.Order {
		t.row("aes-ceiling "+k, gbps(ce.Kernel(k), 1<<20))
	}
	if ce.Missing != "" {
		t.row("aes-ceiling", ce.Missing)
	}
	r.p("%s\n", t)
	if name, w := ce.widest(); w.ok() {
		fill := cr.get("fill_1MiB", "randp_bytes").Time
		ks := cr.get("fill_1MiB", "randp_keystream").Time
		r.p("Against the widest 14-round loop (%s): randp's `fill_bytes` reaches %s of its throughput, the engine alone %s.\n\n",
			name, pct(w, fill), pct(w, ks))
	}
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
