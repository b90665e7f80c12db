package main

// Numbers quoted from the reference documents the project started from
// (../shared/seeds), measured on their authors' machines, not here. The
// report prints them only in columns or tables labelled "reference", on the
// row of the contestant the seed measured, beside this machine's
// measurements of the same contestant.

// seed002Run is one dated run of planet36/randp's benchmark README
// (002_ccaffbdb2c113317.txt). Keys are the README's function names.
type seed002Run struct {
	Date, System string
	// Fill 4 GiB, ms.
	FillMs map[string]float64
	// ns per call.
	U32Ns map[string]float64
	// Bounded u32: ns per call (2026) or millions of calls per second (the others).
	LtNs  map[string]float64
	LtMps map[string]float64
}

// lt is the bounded-u32 time per call in ns, whichever way the run gave it.
func (s seed002Run) lt(key string) (float64, bool) {
	if v, ok := s.LtNs[key]; ok {
		return v, true
	}
	if v, ok := s.LtMps[key]; ok && v > 0 {
		return 1e3 / v, true
	}
	return 0, false
}

var seed002 = []seed002Run{
	{
		Date:   "2026-02-27",
		System: "Linux 6.18.13, i9-13980HX, glibc 2.43 (getrandom vDSO), gcc 15.2.1, libbenchmark 1.9.5, librandp.so.4.5",
		FillMs: map[string]float64{"randp_bytes": 199, "arc4random_buf": 5154, "getentropy": 7905},
		U32Ns:  map[string]float64{"randp_u32": 6.33, "arc4random": 14.5, "rdrand32": 288, "rdseed32": 1816},
		LtNs:   map[string]float64{"randp_lt_u32": 6.32, "arc4random_uniform": 20.3},
	},
	{
		Date:   "2025-10-09",
		System: "Linux 6.17.1, i9-13980HX, glibc 2.42 (getrandom vDSO), gcc 15.2.1, libbenchmark 1.9.4, librandp.so.4.4",
		FillMs: map[string]float64{"randp_bytes": 202, "arc4random_buf": 5139, "getentropy": 7974},
		U32Ns:  map[string]float64{"randp_u32": 6.65, "arc4random": 15.3, "rdrand32": 286, "rdseed32": 1813},
		LtMps:  map[string]float64{"randp_lt_u32": 158.683, "arc4random_uniform": 43.9428},
	},
	{
		Date:   "2025-02-03",
		System: "Linux 6.13.1, i9-13980HX, glibc 2.41 (getrandom vDSO), gcc 14.2.1, libbenchmark 1.9.1, librandp.so.4.4",
		FillMs: map[string]float64{"randp_bytes": 189, "arc4random_buf": 5053, "getentropy": 7782},
		U32Ns:  map[string]float64{"randp_u32": 6.22, "arc4random": 13.1, "rdrand32": 287, "rdseed32": 1809},
		LtMps:  map[string]float64{"randp_lt_u32": 153.104, "arc4random_uniform": 46.6285},
	},
	{
		Date:   "2024-10-04",
		System: "Linux 6.11.1, i9-13950HX, glibc 2.40 (no vDSO: a getrandom system call per call, as glibc 2.36 here), gcc 14.2.1, libbenchmark 1.9.0, librandp.so.4.3",
		FillMs: map[string]float64{"randp_bytes": 217, "getentropy": 8993, "arc4random_buf": 9410},
		U32Ns:  map[string]float64{"randp_u32": 6.69, "arc4random": 181, "rdrand32": 304, "rdseed32": 1825},
		LtMps:  map[string]float64{"randp_lt_u32": 149.148, "arc4random_uniform": 3.7692},
	},
}

// seed003Row is one line of "How slow are decent random numbers?"
// (003_1de99ca11794239a.txt): go test -bench -benchmem on the author's Mac.
type seed003Row struct {
	Name        string
	Iters       int
	NsOp        float64
	MBs         float64 // Read rows only
	BOp, Allocs int
}

var seed003 = struct {
	Machine string
	Runs    [2][]seed003Row
	Read    []seed003Row
}{
	Machine: "the author's macOS machine, -4 (GOMAXPROCS 4), an old Go",
	Runs: [2][]seed003Row{
		{
			{"MathRand", 200000000, 9.86, 0, 0, 0}, {"CryptoRand", 2000000, 790, 0, 16, 2}, {"LibcRand", 10000000, 227, 0, 0, 0},
			{"LibcBufRand", 50000000, 36.4, 0, 0, 0}, {"CryptoBufRand", 3000000, 573, 0, 8, 0}, {"COverhead", 10000000, 196, 0, 0, 0},
			{"Unpredictable", 30000000, 42.3, 0, 0, 0}, {"CryptoCastRand", 2000000, 724, 0, 8, 1},
		},
		{
			{"MathRand", 200000000, 7.97, 0, 0, 0}, {"CryptoRand", 2000000, 729, 0, 16, 2}, {"LibcRand", 5000000, 359, 0, 0, 0},
			{"LibcBufRand", 50000000, 33.9, 0, 0, 0}, {"CryptoBufRand", 3000000, 599, 0, 8, 0}, {"COverhead", 20000000, 77.5, 0, 0, 0},
			{"Unpredictable", 50000000, 26.2, 0, 0, 0}, {"CryptoCastRand", 2000000, 706, 0, 8, 1},
		},
	},
	Read: []seed003Row{
		{"ReadMathRand", 300, 4908092, 427.28, 18, 0},
		{"ReadUnpredictable", 300, 4532524, 462.69, 66, 1},
	},
}

// seed003Ref finds a row of one of seed 003's runs.
func seed003Ref(rows []seed003Row, name string) (seed003Row, bool) {
	for _, r := range rows {
		if r.Name == name {
			return r, true
		}
	}
	return seed003Row{}, false
}

// seed000Row is one line of decred dcrd's benchstat table
// (000_1fdd00da871fc623.txt), as printed: sec/op old ± and new ±, vs base.
type seed000Row struct {
	Name         string
	Old, New     float64 // ns
	OldPM, NewPM string  // "± 2%"
	VsBase       string
}

var seed000 = struct {
	Machine, Geomean string
	Rows             []seed000Row
}{
	Machine: "Intel i7-14700K, GOMAXPROCS 20; old: Go before 1.24, new: Go 1.24 on Linux >= 6.11",
	Geomean: "208.2n → 160.1n, -23.10%",
	Rows: []seed000Row{
		{"DcrdRead/4b", 37.29, 34.09, "± 2%", "± 3%", "-8.58% (p=0.000 n=10)"},
		{"DcrdRead/8b", 41.80, 40.41, "± 2%", "± 2%", "-3.34% (p=0.000 n=10)"},
		{"DcrdRead/32b", 69.45, 77.14, "± 1%", "± 2%", "+11.07% (p=0.000 n=10)"},
		{"DcrdRead/512b", 538.9, 674.9, "± 2%", "± 2%", "+25.24% (p=0.000 n=10)"},
		{"DcrdRead/1KiB", 1038, 1308, "± 2%", "± 1%", "+26.01% (p=0.000 n=10)"},
		{"DcrdRead/4KiB", 4069, 5091, "± 2%", "± 2%", "+25.10% (p=0.000 n=10)"},
		{"StdlibRead/4b", 254.25, 22.71, "± 1%", "± 2%", "-91.07% (p=0.000 n=10)"},
		{"StdlibRead/8b", 253.80, 29.28, "± 1%", "± 2%", "-88.46% (p=0.000 n=10)"},
		{"StdlibRead/32b", 253.15, 67.43, "± 2%", "± 1%", "-73.36% (p=0.000 n=10)"},
		{"StdlibRead/512b", 990.3, 682.4, "± 2%", "± 2%", "-31.09% (p=0.000 n=10)"},
		{"StdlibRead/1KiB", 1717, 1288, "± 4%", "± 2%", "-24.93% (p=0.000 n=10)"},
		{"StdlibRead/4KiB", 6167, 5069, "± 1%", "± 2%", "-17.81% (p=0.000 n=10)"},
		{"DcrdReadPRNG/4b", 28.86, 23.34, "± 2%", "± 2%", "-19.12% (p=0.000 n=10)"},
		{"DcrdReadPRNG/8b", 33.69, 30.17, "± 1%", "± 2%", "-10.46% (p=0.000 n=10)"},
		{"DcrdReadPRNG/32b", 61.36, 68.57, "± 1%", "± 1%", "+11.75% (p=0.001 n=10)"},
		{"DcrdReadPRNG/512b", 531.4, 671.1, "± 2%", "± 2%", "+26.30% (p=0.000 n=10)"},
		{"DcrdReadPRNG/1KiB", 1033, 1312, "± 2%", "± 1%", "+26.96% (p=0.000 n=10)"},
		{"DcrdReadPRNG/4KiB", 3976, 5086, "± 2%", "± 2%", "+27.90% (p=0.000 n=10)"},
		{"Int32N", 46.53, 40.80, "± 2%", "± 2%", "-12.33% (p=0.000 n=10)"},
		{"Uint32N", 46.55, 41.51, "± 2%", "± 2%", "-10.81% (p=0.000 n=10)"},
		{"Int64N", 45.35, 41.42, "± 2%", "± 2%", "-8.65% (p=0.000 n=10)"},
		{"Uint64N", 45.37, 41.36, "± 3%", "± 2%", "-8.82% (p=0.000 n=10)"},
		{"Duration", 46.96, 43.34, "± 10%", "± 5%", "-7.70% (p=0.002 n=10)"},
		{"ShuffleSlice", 38.29, 31.05, "± 2%", "± 2%", "-18.91% (p=0.000 n=10)"},
	},
}

// seed000Ref finds one of seed 000's rows.
func seed000Ref(name string) (seed000Row, bool) {
	for _, r := range seed000.Rows {
		if r.Name == name {
			return r, true
		}
	}
	return seed000Row{}, false
}

// seed004 is the kernel patch that took RDRAND out of the CRNG's extraction
// (004_18b3b60e6dbeeea3.txt): "Removing the call to RDRAND improves
// performance on an i7-11850H by 370%", i.e. an extraction with its 64-bit
// RDRAND took 4.7 times as long as one without.
var seed004 = struct {
	Machine       string
	ImprovementPC float64
}{"Intel i7-11850H (Tiger Lake)", 370}
