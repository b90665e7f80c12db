package main

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

func TestSplitProcs(t *testing.T) {
	for _, c := range []struct{ in, name, procs string }{
		{"StdlibRead/4b-2", "StdlibRead/4b", "-2"},
		{"MathRand-20", "MathRand", "-20"},
		{"MathRand", "MathRand", ""},
		{"V2Uint64/src=PCG", "V2Uint64/src=PCG", ""},
		{"A-b/c", "A-b/c", ""},
	} {
		name, procs := splitProcs(c.in)
		if name != c.name || procs != c.procs {
			t.Errorf("splitProcs(%q) = %q, %q; want %q, %q", c.in, name, procs, c.name, c.procs)
		}
	}
}

func TestMedian(t *testing.T) {
	if m := median([]float64{5, 1, 3}); m != 3 {
		t.Errorf("odd median %v", m)
	}
	if m := median([]float64{4, 1, 3, 2}); m != 2.5 {
		t.Errorf("even median %v", m)
	}
}

func TestFaster(t *testing.T) {
	if s := faster(199, 5154); s != "25.9× faster" {
		t.Errorf("faster = %q", s)
	}
	if s := faster(2, 1); s != "2.00× slower" {
		t.Errorf("slower = %q", s)
	}
}

func TestMsFor4GiB(t *testing.T) {
	// 4 GiB at 1 byte/ns is 4.294967296 s.
	if v := msFor4GiB(1); v < 4294.96 || v > 4294.97 {
		t.Errorf("msFor4GiB(1) = %v", v)
	}
}

func TestKeepUnits(t *testing.T) {
	in := "100\t12.5 ns/op\t80.00 MB/s\t16 B/op\t1 allocs/op"
	if got := keepUnits(in, nil); got != "100\t12.5\tns/op" {
		t.Errorf("keepUnits(nil) = %q", got)
	}
	if got := keepUnits(in, []string{"allocs/op"}); got != "100\t12.5\tns/op\t1\tallocs/op" {
		t.Errorf("keepUnits(allocs) = %q", got)
	}
}

func TestTick(t *testing.T) {
	for e, want := range map[float64]string{0: "1 ns", 2: "100 ns", 3: "1 µs", 7: "10 ms"} {
		if got := tick(e); got != want {
			t.Errorf("tick(%v) = %q, want %q", e, got, want)
		}
	}
}

// TestGoBenchAndChart parses go test output and draws the chart from it.
func TestGoBenchAndChart(t *testing.T) {
	var out string
	out += "goos: linux\ngoarch: amd64\npkg: example\n"
	for i, s := range chartSeries {
		for j, size := range chartSizes {
			for run := 0; run < 3; run++ {
				out += "Benchmark" + s.bench + "/" + size.name + "-2\t1000\t" +
					strconv.Itoa((i+1)*(j+1)*10+run) + " ns/op\n"
			}
		}
	}
	path := filepath.Join(t.TempDir(), "go.txt")
	if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	g, err := loadGoBench(path)
	if err != nil {
		t.Fatal(err)
	}
	r, ok := g.get("RandpRead/4KiB")
	if !ok || len(r.NsPerOp) != 3 || r.Median() != 4*6*10+1 || r.Procs != "-2" {
		t.Fatalf("RandpRead/4KiB = %+v, %v", r, ok)
	}
	svg, err := readSizeChart(g)
	if err != nil {
		t.Fatal(err)
	}
	if len(svg) < 1000 || svg[:4] != "<svg" {
		t.Fatalf("chart is not an SVG: %.80q", svg)
	}
	// A missing series is an error, not a silent gap.
	delete(g.byName, "StdlibRead/4b")
	if _, err := readSizeChart(g); err == nil {
		t.Fatal("chart drawn without StdlibRead/4b")
	}
}
