package main

import "strings"

// hasFlags reports whether the run's CPU has every flag of a backend, from
// the flags randp's dispatch reads (recorded as backend_flags; see
// data/run.toml's backend_flags).
func (r *report) hasFlags(flags []string) bool {
	have := " " + r.res.run["backend_flags"] + " "
	for _, f := range flags {
		if !strings.Contains(have, " "+f+" ") {
			return false
		}
	}
	return true
}
