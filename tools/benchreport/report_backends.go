package main

import "strings"

// backendsTable prints randp's free functions on every keystream backend
// this CPU runs (benches/backends.rs, each backend in a process of its own,
// the backends of data/contestants.toml), beside planet36/randp's C fills of
// the same run: what a CPU with fewer AES instructions would get, measured
// on this one.
func (r *report) backendsTable() {
	r.text("backends", "Measured", len(r.res.crit["backend_u64"]) > 0, "Backends", contestants.Backends, "Ceil", &r.res.ceil)
}

// hasFlags reports whether the run's CPU has every flag of a backend, from
// the flags randp's dispatch reads (recorded as backend_flags; see
// backendFlags).
func (r *report) hasFlags(flags []string) bool {
	have := " " + r.res.run["backend_flags"] + " "
	for _, f := range flags {
		if !strings.Contains(have, " "+f+" ") {
			return false
		}
	}
	return true
}
