package main

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// results is one run's raw outputs, as a folder holds them (build/bench,
// or benches/results where they are committed beside the report): every
// benchmark in one store, and what each program said beside its numbers.
type results struct {
	store
	run  runInfo
	load loadSamples
	c    cRun
	// The Go test binaries by source (sources): go (go/, randp beside the
	// standard library, as the module builds by default: cgo), purego (the
	// same built with -tags randp_purego, when it was, whatever it ran),
	// go_peers (benches/go: getrandom per Read, unpredictable) and dcrd
	// (decred dcrd's own benchmarks). The store holds purego's results
	// only when puregoWhy is "".
	goRuns       map[string]goRun
	puregoStatus string // how the pure-Go binary was built, or why it was not
	puregoWhy    string // why the report shows no pure-Go numbers, or ""
	ceil         ceilings
	peers        map[string]string // peer -> "" when available, else why not
	peerFrom     map[string]string // peer -> where its source came from
	syscallCheck string            // the seccomp test's output for the "before Go 1.24" reader
	opcount      opcounts          // scripts/go-opcount.sh: Go instruction counts and frames (none in older runs)
}

// loadResults reads the folder. Outside smoke mode every output must be
// there (a peer's may be missing, with its reason in peers.txt; the pure-Go
// binary's, with its reason in go-purego-status.txt).
func loadResults(dir string, smoke bool) (*results, error) {
	r := &results{store: newStore(), peers: map[string]string{}, peerFrom: map[string]string{}, goRuns: map[string]goRun{}}
	var errs []string
	need := func(err error) {
		if err != nil {
			errs = append(errs, err.Error())
		}
	}
	at := func(name string) string { return filepath.Join(dir, name) }
	text := func(name string) string {
		b, err := os.ReadFile(at(name))
		need(err)
		return string(b)
	}
	add := func(s store, err error) {
		if need(err); err == nil {
			r.merge(s)
		}
	}
	goBench := func(src, name string) store {
		s, g, err := loadGoBench(at(name), src)
		if need(err); err == nil {
			r.goRuns[src] = g
		}
		return s
	}
	var err error
	r.run, err = loadRunInfo(at("run.txt"))
	need(err)
	r.load, _ = loadLoadavg(at("loadavg.txt"))
	add(loadCriterion(at("criterion.json")))
	var c store
	c, r.c, err = loadCBench(at("c.json"))
	add(c, err)
	r.merge(goBench("go", "go-randp.txt"))
	r.merge(goBench("go_peers", "go-peers.txt"))
	need(r.loadPeers(at("peers.txt")))
	if r.peers["dcrd-crypto-rand"] == "" {
		r.merge(goBench("dcrd", "go-dcrd.txt"))
	}
	var purego store
	if r.puregoStatus = strings.TrimSpace(text("go-purego-status.txt")); strings.HasPrefix(r.puregoStatus, "built") {
		purego = goBench("purego", "go-randp-purego.txt")
	}
	if g, ran := r.goRuns["purego"]; !ran {
		r.puregoWhy = cmp.Or(strings.TrimPrefix(r.puregoStatus, "not measured: "), "the pure-Go benchmarks did not run")
	} else if r.puregoWhy = puregoWhy(g); r.puregoWhy == "" {
		r.merge(purego)
	}
	r.syscallCheck = text("syscall-check.txt")
	var ceil store
	ceil, r.ceil, err = loadCeilings(at("ceiling.txt"))
	add(ceil, err)
	r.opcount, err = loadOpcounts(at("go-opcount.txt"))
	need(err)
	if len(errs) > 0 && !smoke {
		return nil, fmt.Errorf("incomplete results in %s:\n  %s", dir, strings.Join(errs, "\n  "))
	}
	for _, e := range errs {
		fmt.Fprintln(os.Stderr, "benchreport: smoke: missing", e)
	}
	return r, nil
}

// loadPeers reads benches/peers.sh's status: "<name> available <from>" or
// "<name> missing <why>".
func (r *results) loadPeers(path string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		for _, p := range contestants.Peers {
			r.peers[p] = "peer source unavailable"
		}
		return err
	}
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.SplitN(line, " ", 3)
		if len(f) < 2 {
			continue
		}
		if f[1] == "available" {
			r.peers[f[0]] = ""
			if len(f) == 3 {
				r.peerFrom[f[0]] = f[2]
			}
		} else if len(f) == 3 {
			r.peers[f[0]] = f[2]
		}
	}
	return nil
}

// puregoWhy says why the results of the binary built with -tags
// randp_purego are not pure-Go numbers, or "" when the binary says that it
// ran the pure-Go implementation: never present cgo numbers as pure-Go.
func puregoWhy(g goRun) string {
	if impl := g.config["randp-implementation"]; impl != "purego" {
		return fmt.Sprintf("the binary built with -tags randp_purego ran randp.Implementation() = %q, not the pure-Go path", impl)
	}
	return ""
}

// sources are the sources a benchmark reference ("source:name") may name:
// a Go test binary's output (go: randp's, cgo; purego: the same built with
// -tags randp_purego, when it ran the pure-Go path; go_peers: benches/go;
// dcrd: dcrd's own benchmarks), c (the C program), rust (a criterion
// group/function, per iteration), rust_element (the same per element),
// openssl (openssl speed's aes-256-ctr, per MiB) and ceiling (an
// aes-ceiling kernel, per MiB).
var sources = []string{"go", "purego", "go_peers", "dcrd", "c", "rust", "rust_element", "openssl", "ceiling"}

// checkRef refuses a benchmark reference that is not source:name with a
// known source.
func checkRef(ref string) error {
	if src, name, _ := strings.Cut(ref, ":"); !slices.Contains(sources, src) || name == "" {
		return fmt.Errorf("benchmark %q is not source:name with a known source", ref)
	}
	return nil
}

func (r *report) stat(ref string) stat { return r.res.stat(ref) }

func (r *report) pairs(a, b string) [][2]float64 { return r.res.pairs(a, b) }

// why says why the benchmark a reference names was not measured, where
// its source says: the pure-Go build's reason, a C contestant's, dcrd's
// peer's.
func (r *report) why(ref string) string {
	src, name, _ := strings.Cut(ref, ":")
	switch src {
	case "purego":
		return r.res.puregoWhy
	case "c":
		return r.res.c.why(keyOf(name))
	case "dcrd":
		return r.res.peers["dcrd-crypto-rand"]
	}
	return ""
}
