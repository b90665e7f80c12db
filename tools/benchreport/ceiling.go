package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// ceilings are the hardware references of benches/passes.sh, measured once
// in every pass, each time in a new process: `openssl speed -elapsed -evp
// aes-256-ctr` on 1 MiB buffers, and the plain AES-CTR loops of the shared
// aes-ceiling tool (one repetition of each kernel), both on the wall clock
// like every other row of the report.
type ceilings struct {
	OpenSSLVersion string
	openssl        []float64            // ns per 1 MiB, one per pass
	kernels        map[string][]float64 // ns per 1 MiB (wall clock), one per pass, by kernel name
	Order          []string             // kernel names as the tool prints them
	Missing        string               // why aes-ceiling was not measured, or ""
}

// OpenSSL is openssl speed's time per 1 MiB over the passes.
func (c *ceilings) OpenSSL() stat { return summarize(c.openssl) }

// Kernel is one aes-ceiling kernel's time per 1 MiB over the passes.
func (c *ceilings) Kernel(name string) stat { return summarize(c.kernels[name]) }

// load reads benches/passes.sh's ceiling.txt.
func (c *ceilings) load(path string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	c.kernels = map[string][]float64{}
	inTool := false
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
				c.openssl = append(c.openssl, 1e9*(1<<20)/bps)
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
			if _, seen := c.kernels[name]; !seen {
				c.Order = append(c.Order, name)
			}
			c.kernels[name] = append(c.kernels[name], (1<<20)/gbps)
		}
	}
	return nil
}

// widest is the 14-round (AES-256's count) kernel with the widest vectors
// the run measured (zmm, else ymm, else xmm): the ceiling randp's AES-256
// keystream is held against.
func (c *ceilings) widest() (string, stat) {
	for _, w := range []string{"zmm", "ymm", "xmm"} {
		for _, name := range c.Order {
			if strings.HasPrefix(name, "14-round") && strings.Contains(name, " "+w+" ") {
				return name, c.Kernel(name)
			}
		}
	}
	return "", stat{}
}

// perByte is the widest kernel's best time per byte in ns (its stat is per
// MiB), and whether the run measured it: the least that n bytes of AES-256
// keystream take on this CPU is n times it.
func (c *ceilings) perByte() (float64, bool) {
	_, s := c.widest()
	return s.Lo / (1 << 20), s.ok()
}
