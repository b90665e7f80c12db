package main

import (
	"fmt"
	"math"
)

// fourGiB is planet36/randp's fill amount.
const fourGiB = 4 << 30

// ns formats a time in ns with three significant digits.
func ns(v float64) string {
	if v <= 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return "—"
	}
	unit, div := timeUnit(v)
	return sig(v/div) + " " + unit
}

// timeUnit is the unit a time of v ns is written in, and its size in ns:
// ns up to 10 µs, then µs, ms and s.
func timeUnit(v float64) (string, float64) {
	switch {
	case v >= 1e9:
		return "s", 1e9
	case v >= 1e6:
		return "ms", 1e6
	case v >= 1e4:
		return "µs", 1e3
	}
	return "ns", 1
}

// sig prints v with three significant digits.
func sig(v float64) string {
	switch {
	case v >= 100:
		return fmt.Sprintf("%.0f", v)
	case v >= 10:
		return fmt.Sprintf("%.1f", v)
	default:
		return fmt.Sprintf("%.2f", v)
	}
}

// faster says how randp compares with a rival, given their times (lower is
// better): "25.9× faster" or "1.30× slower", computed as a time ratio.
func faster(randpTime, rivalTime float64) string {
	if randpTime <= 0 || rivalTime <= 0 {
		return ""
	}
	if r := rivalTime / randpTime; r >= 1 {
		return sig(r) + "× faster"
	}
	return sig(randpTime/rivalTime) + "× slower"
}

// spread prints a time stat as "median [low, high]" with one unit.
func spread(s stat) string {
	if !s.ok() {
		return "—"
	}
	if math.IsInf(s.Lo, 0) || math.IsInf(s.Hi, 0) {
		return ns(s.Center) + " [too few samples]"
	}
	unit, div := timeUnit(s.Center)
	return fmt.Sprintf("%s %s [%s, %s]", sig(s.Center/div), unit, sig(s.Lo/div), sig(s.Hi/div))
}

// gbps prints the throughput of size bytes per operation as "median [low, high] GB/s";
// the interval of a time becomes the interval of the rate, reversed.
func gbps(s stat, size float64) string {
	if !s.ok() {
		return "—"
	}
	if math.IsInf(s.Lo, 0) || math.IsInf(s.Hi, 0) || s.Lo <= 0 {
		return fmt.Sprintf("%.2f GB/s [too few samples]", size/s.Center)
	}
	return fmt.Sprintf("%.2f GB/s [%.2f, %.2f]", size/s.Center, size/s.Hi, size/s.Lo)
}

// fill4GiB prints the time to generate 4 GiB at the rate of size bytes per
// operation taking s, as planet36/randp's table does.
func fill4GiB(s stat, size float64) string {
	if !s.ok() {
		return "—"
	}
	return ns(s.Center / size * fourGiB)
}

// fmtBytes writes a size in bytes in the largest unit that holds it whole:
// "4 B", "48 B", "4 KiB", "1 MiB", "1536 B".
func fmtBytes(n float64) string {
	switch {
	case n >= 1<<20 && math.Mod(n, 1<<20) == 0:
		return fmt.Sprintf("%.0f MiB", n/(1<<20))
	case n >= 1024 && math.Mod(n, 1024) == 0:
		return fmt.Sprintf("%.0f KiB", n/1024)
	default:
		return fmt.Sprintf("%.0f B", n)
	}
}

// fmtMs writes a time in ms with three significant digits at most.
func fmtMs(v float64) string {
	if v <= 0 {
		return "—"
	}
	if v >= 100 {
		return fmt.Sprintf("%.0f ms", v)
	}
	return fmt.Sprintf("%.1f ms", v)
}
