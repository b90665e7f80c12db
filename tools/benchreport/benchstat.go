package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
)

// benchstat runs the benchstat pinned in this module's go.mod (`go tool
// benchstat`) on the lines of the Go output whose names rename maps, under
// their new names (so that sub-benchmark keys like /impl= can be columns).
// rename returns ok=false to drop a benchmark.
//
// Only the measurements in units are kept ("ns/op" always), so that sections
// where allocation counts say nothing are not padded with zero tables.
func benchstat(goFile string, rename func(name string) (string, bool), units []string, args ...string) (string, error) {
	raw, err := os.ReadFile(goFile)
	if err != nil {
		return "", err
	}
	var in bytes.Buffer
	sc := bufio.NewScanner(bytes.NewReader(raw))
	for sc.Scan() {
		line := sc.Text()
		field, rest, _ := strings.Cut(line, "\t")
		switch {
		case strings.HasPrefix(line, "Benchmark"):
			name, procs := splitProcs(strings.TrimSpace(strings.TrimPrefix(field, "Benchmark")))
			if newName, ok := rename(name); ok {
				fmt.Fprintf(&in, "Benchmark%s%s\t%s\n", newName, procs, keepUnits(rest, units))
			}
		case strings.Contains(line, ": ") && !strings.HasPrefix(line, "ok ") && !strings.HasPrefix(line, "---"):
			in.WriteString(line + "\n") // goos:, goarch:, pkg:, cpu:
		}
	}
	tmp, err := os.CreateTemp("", "benchreport-*.txt")
	if err != nil {
		return "", err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(in.Bytes()); err != nil {
		return "", err
	}
	tmp.Close()
	cmd := exec.Command("go", append(append([]string{"tool", "benchstat"}, args...), "go="+tmp.Name())...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("benchstat %v: %v\n%s", args, err, stderr.String())
	}
	return strings.TrimRight(string(out), "\n"), nil
}

// only keeps the benchmarks whose names are in names, unchanged.
func only(names ...string) func(string) (string, bool) {
	return func(n string) (string, bool) {
		for _, m := range names {
			if n == m {
				return n, true
			}
		}
		return "", false
	}
}

// keepUnits keeps, of a result line's "<iterations> <value> <unit> ..."
// fields, the iteration count, ns/op and the given units.
func keepUnits(rest string, units []string) string {
	f := strings.Fields(rest)
	if len(f) == 0 {
		return rest
	}
	out := []string{f[0]}
	for i := 1; i+1 < len(f); i += 2 {
		if f[i+1] == "ns/op" || slices.Contains(units, f[i+1]) {
			out = append(out, f[i], f[i+1])
		}
	}
	return strings.Join(out, "\t")
}
