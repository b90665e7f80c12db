package main

import (
	"bufio"
	"os"
	"strconv"
	"strings"
)

// ceilings are the hardware references of benches/ceiling.sh, run at the
// start and at the end of the measurements: `openssl speed -evp
// aes-256-ctr` on 1 MiB buffers, and the plain AES-CTR loops of the shared
// aes-ceiling tool.
type ceilings struct {
	OpenSSLVersion string
	openssl        []float64 // ns per 1 MiB, one per openssl speed run
	Kernels        []ceilingKernel
	Missing        string // why aes-ceiling was not measured, or ""
}

// ceilingKernel is one line of aes-ceiling: median and range of its
// repetitions, CPU-time GB/s, for one of the runs.
type ceilingKernel struct {
	Run, Name string
	GBps      float64
	Range     string
}

// OpenSSL is openssl speed's time per 1 MiB over all runs.
func (c *ceilings) OpenSSL() stat { return summarize(c.openssl) }

// load adds one ceiling.sh output (run is "start" or "end").
func (c *ceilings) load(path, run string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	inTool := false
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "# openssl: "):
			c.OpenSSLVersion = strings.TrimPrefix(line, "# openssl: ")
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
			name := strings.TrimSpace(line[:28])
			fields := strings.Fields(line[28:])
			if len(fields) < 2 {
				continue
			}
			v, err := strconv.ParseFloat(fields[0], 64)
			if err != nil {
				continue
			}
			c.Kernels = append(c.Kernels, ceilingKernel{Run: run, Name: name, GBps: v, Range: fields[1]})
		}
	}
	return sc.Err()
}

// best is the fastest AES-256-round-count kernel of the run: the ceiling
// randp's AES-256 keystream is held against.
func (c *ceilings) best() (ceilingKernel, bool) {
	var b ceilingKernel
	for _, k := range c.Kernels {
		if strings.HasPrefix(k.Name, "14-round") && k.GBps > b.GBps {
			b = k
		}
	}
	return b, b.GBps > 0
}
