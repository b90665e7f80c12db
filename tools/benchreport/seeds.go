package main

// Numbers quoted from the reference documents the project started from,
// measured on their authors' machines, not here. The report prints them only
// in columns labelled "reference", beside this machine's measurements.

// seed002 is planet36/randp's benchmark README.
type seed002Run struct {
	Label string
	// Fill 4 GiB, ms.
	FillMs map[string]float64
	// ns per call.
	U32Ns map[string]float64
	// Bounded u32: ns per call, or calls per second when the run gave those.
	LtNs  map[string]float64
	LtMps map[string]float64
}

var seed002 = []seed002Run{
	{
		Label:  "2026-02-27: Linux 6.18.13, i9-13980HX, glibc 2.43 (getrandom vDSO)",
		FillMs: map[string]float64{"randp_bytes": 199, "arc4random_buf": 5154, "getentropy": 7905},
		U32Ns:  map[string]float64{"randp_u32": 6.33, "arc4random": 14.5, "rdrand32": 288, "rdseed32": 1816},
		LtNs:   map[string]float64{"randp_lt_u32": 6.32, "arc4random_uniform": 20.3},
	},
	{
		Label:  "2024-10-04: Linux 6.11.1, i9-13950HX, glibc 2.40 (no vDSO, like glibc 2.36 here)",
		FillMs: map[string]float64{"randp_bytes": 217, "getentropy": 8993, "arc4random_buf": 9410},
		U32Ns:  map[string]float64{"randp_u32": 6.69, "arc4random": 181, "rdrand32": 304, "rdseed32": 1825},
		LtMps:  map[string]float64{"randp_lt_u32": 149.148, "arc4random_uniform": 3.7692},
	},
}

// seed003 is "How slow are decent random numbers?" (003_1de99ca11794239a.txt):
// two runs of go test -bench on the author's 4-thread Mac, ns/op. The seed's
// "Unpredictable" rows (a pure-Go arc4random) correspond to randp's rows.
var seed003 = struct {
	Machine string
	Runs    [2]map[string]float64
	Read    map[string][2]float64 // ns/op, MB/s
}{
	Machine: "the author's macOS machine, -4 (GOMAXPROCS 4), an old Go",
	Runs: [2]map[string]float64{
		{"MathRand": 9.86, "CryptoRand": 790, "LibcRand": 227, "LibcBufRand": 36.4, "CryptoBufRand": 573,
			"COverhead": 196, "Unpredictable": 42.3, "CryptoCastRand": 724},
		{"MathRand": 7.97, "CryptoRand": 729, "LibcRand": 359, "LibcBufRand": 33.9, "CryptoBufRand": 599,
			"COverhead": 77.5, "Unpredictable": 26.2, "CryptoCastRand": 706},
	},
	Read: map[string][2]float64{
		"ReadMathRand":      {4908092, 427.28},
		"ReadUnpredictable": {4532524, 462.69},
	},
}

// seed000 is decred dcrd's benchstat (000_1fdd00da871fc623.txt) on an
// i7-14700K (-20): "old" is before and "new" after Go 1.24's vDSO
// crypto/rand, sec/op in ns.
var seed000 = struct {
	Machine string
	Old     map[string]float64
	New     map[string]float64
}{
	Machine: "Intel i7-14700K, GOMAXPROCS 20, Go 1.24, Linux >= 6.11",
	Old: map[string]float64{
		"DcrdRead/4b": 37.29, "DcrdRead/8b": 41.80, "DcrdRead/32b": 69.45, "DcrdRead/512b": 538.9, "DcrdRead/1KiB": 1038, "DcrdRead/4KiB": 4069,
		"StdlibRead/4b": 254.25, "StdlibRead/8b": 253.80, "StdlibRead/32b": 253.15, "StdlibRead/512b": 990.3, "StdlibRead/1KiB": 1717, "StdlibRead/4KiB": 6167,
		"Int32N": 46.53, "Uint32N": 46.55, "Int64N": 45.35, "Uint64N": 45.37, "Duration": 46.96, "ShuffleSlice": 38.29,
	},
	New: map[string]float64{
		"DcrdRead/4b": 34.09, "DcrdRead/8b": 40.41, "DcrdRead/32b": 77.14, "DcrdRead/512b": 674.9, "DcrdRead/1KiB": 1308, "DcrdRead/4KiB": 5091,
		"StdlibRead/4b": 22.71, "StdlibRead/8b": 29.28, "StdlibRead/32b": 67.43, "StdlibRead/512b": 682.4, "StdlibRead/1KiB": 1288, "StdlibRead/4KiB": 5069,
		"DcrdReadPRNG/4b": 23.34, "DcrdReadPRNG/8b": 30.17, "DcrdReadPRNG/32b": 68.57, "DcrdReadPRNG/512b": 671.1, "DcrdReadPRNG/1KiB": 1312, "DcrdReadPRNG/4KiB": 5086,
		"Int32N": 40.80, "Uint32N": 41.51, "Int64N": 41.42, "Uint64N": 41.36, "Duration": 43.34, "ShuffleSlice": 31.05,
	},
}
