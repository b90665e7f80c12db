package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// ceilings are the hardware references of benches/passes.sh, measured once
// in every pass, each time in a new process: `openssl speed -elapsed -evp
// aes-256-ctr` on 1 MiB buffers (openssl:aes-256-ctr), and the plain
// AES-CTR loops of the shared aes-ceiling tool (one repetition of each
// kernel: ceiling:<kernel name>), both in ns per 1 MiB on the wall clock
// like every other row of the report.
type ceilings struct {
	OpenSSLVersion string
	Order          []string // kernel names as the tool prints them
	Missing        string   // why aes-ceiling was not measured, or ""
}

// loadCeilings reads benches/passes.sh's ceiling.txt.
func loadCeilings(path string) (store, ceilings, error) {
	var c ceilings
	b, err := os.ReadFile(path)
	if err != nil {
		return store{}, c, err
	}
	s, inTool := newStore(), false
	for _, line := range strings.Split(string(b), "\n") {
		switch {
		case strings.HasPrefix(line, "# openssl: "):
			c.OpenSSLVersion = strings.TrimPrefix(line, "# openssl: ")
		case strings.HasPrefix(line, "# pass "):
			inTool = false
		case strings.HasPrefix(line, "+F:"):
			// +F:<n>:AES-256-CTR:<bytes per second for the one size>
			f := strings.Split(line, ":")
			if bps, err := strconv.ParseFloat(f[len(f)-1], 64); err == nil && bps > 0 {
				s.samples.add("openssl:aes-256-ctr", 0, 1e9*(1<<20)/bps)
			}
		case strings.HasPrefix(line, "# aes-ceiling: not measured"):
			c.Missing = strings.TrimPrefix(line, "# aes-ceiling: ")
		case line == "# aes-ceiling":
			inTool = true
		case inTool && len(line) > 28 && !strings.HasPrefix(line, "#") && !strings.HasPrefix(line, "kernel"):
			// "<name, 28 columns> <cpu GB/s> [min..max] | <wall GB/s> [min..max]": the wall clock.
			name := strings.TrimSpace(line[:28])
			_, wall, _ := strings.Cut(line[28:], "|")
			var gbps float64
			if _, err := fmt.Sscan(wall, &gbps); err != nil || gbps <= 0 {
				continue
			}
			if _, seen := s.samples["ceiling:"+name]; !seen {
				c.Order = append(c.Order, name)
			}
			s.samples.add("ceiling:"+name, 0, (1<<20)/gbps)
		}
	}
	return s, c, nil
}

// widest is the 14-round (AES-256's count) kernel with the widest vectors
// the run measured (zmm, else ymm, else xmm): the ceiling randp's AES-256
// keystream is held against.
func (r *results) widest() (string, stat) {
	for _, w := range []string{"zmm", "ymm", "xmm"} {
		for _, name := range r.ceil.Order {
			if strings.HasPrefix(name, "14-round") && strings.Contains(name, " "+w+" ") {
				return name, r.stat("ceiling:" + name)
			}
		}
	}
	return "", stat{}
}

// perByte is the widest kernel's best time per byte in ns (its stat is per
// MiB), and whether the run measured it: the least that n bytes of AES-256
// keystream take on this CPU is n times it.
func (r *results) perByte() (float64, bool) {
	_, s := r.widest()
	return s.Lo / (1 << 20), s.ok()
}
