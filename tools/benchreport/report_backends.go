package main

import "strings"

// backendsTable prints randp's free functions on every keystream backend
// this CPU runs (benches/backends.rs, each backend in a process of its own),
// beside planet36/randp's C fills of the same run: what a CPU with fewer AES
// instructions would get, measured on this one.
func (r *report) backendsTable() {
	cr := r.res.crit
	r.p("## %s\n\n", hBackends)
	if len(cr["backend_u64"]) == 0 {
		r.p("Not measured in this run (benches/backends.rs).\n\n")
		return
	}
	r.text("backends")
	t := &table{head: []string{"Backend", "Fill 256 B", "vs planet36/randp", "Fill 4 KiB", "vs planet36/randp", "Fill 1 MiB", "vs planet36/randp", "u64"}}
	c := r.res.c
	for _, b := range []string{"vaes512", "vaes256", "aesni", "portable"} {
		if _, ok := cr["backend_u64"][b]; !ok {
			why := "not measured in this run"
			if !r.runs(b) {
				why = "not run: this CPU cannot"
			}
			t.row("`"+b+"`", why, "", "", "", "", "", "")
			continue
		}
		label := "`" + b + "`"
		if b == r.res.run["backend"] {
			label += " (this CPU's)"
		}
		small, mid, big := cr.get("backend_fill_256B", b).Time, cr.get("backend_fill_4KiB", b).Time, cr.get("backend_fill_1MiB", b).Time
		t.row(label,
			timeCell(small, ""), compare(small, c.get("fill_256B/planet36")),
			timeCell(mid, ""), compare(mid, c.get("fill_4KiB/planet36")),
			gbps(big, 1<<20), compare(big, c.get("fill_1MiB/planet36")),
			timeCell(cr.get("backend_u64", b).PerElement(), ""))
	}
	r.p("%s\n", t)
	ce := &r.res.ceil
	aesni, three := ce.Kernel("14-round CTR xmm AES-NI x8"), ce.Kernel("3-aesenc CTR xmm AES-NI x8")
	if aesni.ok() && three.ok() {
		r.p("On 128-bit AES-NI this CPU runs the plainest 14-round loop (aes-ceiling's `14-round CTR xmm AES-NI x8`, the most the `aesni` ")
		r.p("backend's keystream can reach) at %.2f GB/s, and the same loop with planet36/randp's 3 rounds at %.2f GB/s, %.1f× as fast. ",
			(1<<20)/aesni.Center, (1<<20)/three.Center, aesni.Center/three.Center)
		if big := cr.get("backend_fill_1MiB", "aesni").Time; big.ok() {
			r.p("randp's `aesni` fills of 1 MiB reach %s of that 14-round loop.", pct(aesni, big))
		}
		r.p("\n\n")
	}
}

// runs reports whether the run's CPU can run backend b, from the flags
// randp's dispatch reads (recorded as backend_flags; see backendFlags).
func (r *report) runs(b string) bool {
	has := map[string]bool{}
	for _, f := range strings.Fields(r.res.run["backend_flags"]) {
		has[f] = true
	}
	switch b {
	case "vaes512":
		return has["avx512f"] && has["avx512bw"] && has["vaes"]
	case "vaes256":
		return has["avx2"] && has["vaes"]
	case "aesni":
		return has["aes"] && has["ssse3"]
	}
	return true
}
