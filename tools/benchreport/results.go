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
	run     runInfo
	load    loadSamples
	crit    critSet
	c       *cSet
	goRandp *goSet // go/ (randp beside the standard library)
	goPeers *goSet // benches/go (getrandom per Read, unpredictable)
	goDcrd  *goSet // decred dcrd's own benchmarks
	ceil    ceilings
	peers   map[string]string // peer -> "" when available, else why not
}

// loadResults reads the folder. Outside smoke mode every output must be
// there (a peer's may be missing, with its reason in peers.txt).
func loadResults(dir string, smoke bool) (*results, error) {
	r := &results{peers: map[string]string{}, crit: critSet{}}
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
	for _, run := range []string{"start", "end"} {
		if err := r.ceil.load(filepath.Join(dir, "ceiling-"+run+".txt"), run); err != nil && (run == "start" || !smoke) {
			need(err)
		}
	}
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
		for _, p := range []string{"planet36-randp", "dcrd-crypto-rand", "unpredictable"} {
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
		} else if len(f) == 3 {
			r.peers[f[0]] = f[2]
		}
	}
	return sc.Err()
}

// peerNote is the cell of a peer's row that was not measured.
func (r *results) peerNote(peer string) string {
	if why := r.peers[peer]; why != "" {
		return "not measured: " + why
	}
	return "not measured"
}
