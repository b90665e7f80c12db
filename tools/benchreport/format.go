package main

import (
	"fmt"
	"math"
	"strings"
)

// fourGiB is seed 002's fill amount.
const fourGiB = 4 << 30

// msFor4GiB converts a byte throughput in bytes per ns to the time to
// generate 4 GiB, in ms.
func msFor4GiB(bytesPerNs float64) float64 { return fourGiB / bytesPerNs / 1e6 }

// ns formats a time in ns with three significant digits.
func ns(v float64) string {
	switch {
	case v <= 0 || math.IsNaN(v):
		return "—"
	case v >= 1e6:
		return sig(v/1e6) + " ms"
	case v >= 1e4:
		return sig(v/1e3) + " µs"
	default:
		return sig(v) + " ns"
	}
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
// better): "25.9× faster" or "1.3× slower", as seed 002 puts it.
func faster(randpTime, rivalTime float64) string {
	if randpTime <= 0 || rivalTime <= 0 {
		return ""
	}
	if r := rivalTime / randpTime; r >= 1 {
		return sig(r) + "× faster"
	}
	return sig(randpTime/rivalTime) + "× slower"
}

// table is a small Markdown table writer.
type table struct {
	head []string
	rows [][]string
}

func (t *table) row(cells ...string) { t.rows = append(t.rows, cells) }

func (t *table) String() string {
	var b strings.Builder
	line := func(cells []string) {
		b.WriteString("|")
		for _, c := range cells {
			b.WriteString(" " + c + " |")
		}
		b.WriteString("\n")
	}
	line(t.head)
	sep := make([]string, len(t.head))
	for i := range sep {
		sep[i] = "---"
	}
	line(sep)
	for _, r := range t.rows {
		line(r)
	}
	return b.String()
}
