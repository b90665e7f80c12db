package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// results is one run's raw outputs, as a folder holds them (build/bench,
// or benches/results where they are committed beside the report).
type results struct {
	run          runInfo
	load         loadSamples
	crit         critSet
	c            *cSet
	goRandp      *goSet // go/ (randp beside the standard library), as the module builds by default (cgo)
	goPurego     *goSet // the same built with -tags randp_purego, when it was
	puregoStatus string // how the pure-Go binary was built, or why it was not
	goPeers      *goSet // benches/go (getrandom per Read, unpredictable)
	goDcrd       *goSet // decred dcrd's own benchmarks
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
	r := &results{peers: map[string]string{}, peerFrom: map[string]string{}, crit: critSet{}}
	var errs []string
	need := func(err error) {
		if err != nil {
			errs = append(errs, err.Error())
		}
	}
	var err error
	r.run, err = loadRunInfo(filepath.Join(dir, "run.txt"))
	need(err)
	r.load, _ = loadLoadavg(filepath.Join(dir, "loadavg.txt"))
	if c, err := loadCriterion(filepath.Join(dir, "criterion.json")); err == nil {
		r.crit = c
	} else if !smoke {
		need(err)
	}
	r.c, err = loadCBench(filepath.Join(dir, "c.json"))
	need(err)
	r.goRandp, err = loadGoBench(filepath.Join(dir, "go-randp.txt"))
	need(err)
	r.goPeers, err = loadGoBench(filepath.Join(dir, "go-peers.txt"))
	need(err)
	need(r.loadPeers(filepath.Join(dir, "peers.txt")))
	if r.peers["dcrd-crypto-rand"] == "" {
		r.goDcrd, err = loadGoBench(filepath.Join(dir, "go-dcrd.txt"))
		need(err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "go-purego-status.txt")); err == nil {
		r.puregoStatus = strings.TrimSpace(string(b))
	} else {
		need(err)
	}
	if strings.HasPrefix(r.puregoStatus, "built") {
		r.goPurego, err = loadGoBench(filepath.Join(dir, "go-randp-purego.txt"))
		need(err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "syscall-check.txt")); err == nil {
		r.syscallCheck = string(b)
	} else {
		need(err)
	}
	need(r.ceil.load(filepath.Join(dir, "ceiling.txt")))
	r.opcount, err = loadOpcounts(filepath.Join(dir, "go-opcount.txt"))
	need(err)
	if len(errs) > 0 && !smoke {
		return nil, fmt.Errorf("incomplete results in %s:\n  %s", dir, strings.Join(errs, "\n  "))
	}
	for _, e := range errs {
		fmt.Fprintln(os.Stderr, "benchreport: smoke: missing", e)
	}
	if r.run == nil {
		r.run = runInfo{}
	}
	return r, nil
}

// loadPeers reads benches/peers.sh's status: "<name> available <from>" or
// "<name> missing <why>".
func (r *results) loadPeers(path string) error {
	f, err := os.Open(path)
	if err != nil {
		for _, p := range contestants.Peers {
			r.peers[p] = "peer source unavailable"
		}
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		f := strings.SplitN(sc.Text(), " ", 3)
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
	return sc.Err()
}

// puregoImplementation is what the pure-Go binary says it ran ("purego",
// "cgo"), or "" when it did not say.
func (r *results) puregoImplementation() string { return r.goPurego.implementation() }

// purego is the pure-Go binary's results when they are pure-Go numbers:
// the binary was built and says that it ran the pure-Go implementation.
// Otherwise nil, and why: never present cgo numbers as pure-Go.
func (r *results) purego() (*goSet, string) {
	switch {
	case r.goPurego == nil:
		return nil, or(strings.TrimPrefix(r.puregoStatus, "not measured: "), "the pure-Go benchmarks did not run")
	case r.puregoImplementation() != "purego":
		return nil, fmt.Sprintf("the binary built with -tags randp_purego ran randp.Implementation() = %q, not the pure-Go path",
			r.puregoImplementation())
	}
	return r.goPurego, ""
}
