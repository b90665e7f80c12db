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
// or benches/results where they are committed beside the report).
type results struct {
	run  runInfo
	load loadSamples
	crit critSet
	c    *cSet
	// The Go test binaries' results by source (sources): go (go/, randp
	// beside the standard library, as the module builds by default: cgo),
	// purego (the same built with -tags randp_purego, when it was, whatever
	// it ran), go_peers (benches/go: getrandom per Read, unpredictable) and
	// dcrd (decred dcrd's own benchmarks).
	goSets       map[string]*goSet
	puregoStatus string // how the pure-Go binary was built, or why it was not
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
	r := &results{peers: map[string]string{}, peerFrom: map[string]string{}, crit: critSet{}, goSets: map[string]*goSet{}}
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
	goBench := func(src, name string) {
		set, err := loadGoBench(at(name))
		r.goSets[src] = set
		need(err)
	}
	var err error
	r.run, err = loadRunInfo(at("run.txt"))
	need(err)
	r.load, _ = loadLoadavg(at("loadavg.txt"))
	if c, err := loadCriterion(at("criterion.json")); err == nil {
		r.crit = c
	} else {
		need(err)
	}
	r.c, err = loadCBench(at("c.json"))
	need(err)
	goBench("go", "go-randp.txt")
	goBench("go_peers", "go-peers.txt")
	need(r.loadPeers(at("peers.txt")))
	if r.peers["dcrd-crypto-rand"] == "" {
		goBench("dcrd", "go-dcrd.txt")
	}
	if r.puregoStatus = strings.TrimSpace(text("go-purego-status.txt")); strings.HasPrefix(r.puregoStatus, "built") {
		goBench("purego", "go-randp-purego.txt")
	}
	r.syscallCheck = text("syscall-check.txt")
	need(r.ceil.load(at("ceiling.txt")))
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

// purego is the pure-Go binary's results when they are pure-Go numbers:
// the binary was built and says that it ran the pure-Go implementation.
// Otherwise nil, and why: never present cgo numbers as pure-Go.
func (r *results) purego() (*goSet, string) {
	switch {
	case r.goSets["purego"] == nil:
		return nil, cmp.Or(strings.TrimPrefix(r.puregoStatus, "not measured: "), "the pure-Go benchmarks did not run")
	case r.goSets["purego"].implementation() != "purego":
		return nil, fmt.Sprintf("the binary built with -tags randp_purego ran randp.Implementation() = %q, not the pure-Go path",
			r.goSets["purego"].implementation())
	}
	return r.goSets["purego"], ""
}

// sources are the sources a benchmark reference ("source:name") may name:
// a Go test binary's output (go: randp's, cgo; purego: the same built with
// -tags randp_purego, when it ran the pure-Go path; go_peers: benches/go;
// dcrd: dcrd's own benchmarks), c (the C program), rust (a criterion
// group/function, per iteration), rust_element (the same per element) and
// openssl (openssl speed's AES-256-CTR, per MiB).
var sources = []string{"go", "purego", "go_peers", "dcrd", "c", "rust", "rust_element", "openssl"}

// checkRef refuses a benchmark reference that is not source:name with a
// known source.
func checkRef(ref string) error {
	if src, name, _ := strings.Cut(ref, ":"); !slices.Contains(sources, src) || name == "" {
		return fmt.Errorf("benchmark %q is not source:name with a known source", ref)
	}
	return nil
}

// goSet is the Go test binary's results that a source names, or nil; a
// pure-Go binary's only when it ran the pure-Go path (results.purego).
func (r *report) goSet(src string) *goSet {
	if src == "purego" {
		set, _ := r.res.purego()
		return set
	}
	return r.res.goSets[src]
}

// samples is the sample store of a source: the C program's or a Go test
// binary's (goSet), or nil.
func (r *report) samples(src string) sampleSet {
	if set := r.goSet(src); set != nil {
		return set.sampleSet
	}
	if src == "c" && r.res.c != nil {
		return r.res.c.sampleSet
	}
	return nil
}

// stat is the benchmark a reference names (source:name).
func (r *report) stat(ref string) stat {
	src, name, _ := strings.Cut(ref, ":")
	group, fn, _ := strings.Cut(name, "/")
	switch src {
	case "rust":
		return r.res.crit.get(group, fn).Time
	case "rust_element":
		return r.res.crit.get(group, fn).PerElement()
	case "openssl":
		return r.res.ceil.OpenSSL()
	}
	return r.samples(src).get(name)
}

// pairs is the samples of benchmarks a and b, a's first, from each process
// that ran both: benchmarks of one Go test binary, of the C program or of
// one criterion group; none for others.
func (r *report) pairs(a, b string) [][2]float64 {
	sa, na, _ := strings.Cut(a, ":")
	sb, nb, _ := strings.Cut(b, ":")
	ga, fa, _ := strings.Cut(na, "/")
	gb, fb, _ := strings.Cut(nb, "/")
	switch {
	case sa != sb:
		return nil
	case sa == "rust" || sa == "rust_element":
		if ga == gb {
			return r.res.crit.pairs(ga, fa, fb)
		}
		return nil
	}
	return r.samples(sa).pairs(na, nb)
}

// why says why the benchmark a reference names was not measured, where
// its source says: the pure-Go build's reason, a C contestant's, dcrd's
// peer's.
func (r *report) why(ref string) string {
	src, name, _ := strings.Cut(ref, ":")
	switch src {
	case "purego":
		_, why := r.res.purego()
		return why
	case "c":
		return r.res.c.why(keyOf(name))
	case "dcrd":
		return r.res.peers["dcrd-crypto-rand"]
	}
	return ""
}
