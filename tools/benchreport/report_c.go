package main

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// libbsdVersion is the run's libbsd version ("0.11.7-2"), or "".
func (r *report) libbsdVersion() string {
	return strings.TrimPrefix(r.res.run["libbsd"], "libbsd0 ")
}

func (r *report) cWhy(key string) string {
	if key == "planet36" && r.res.peers["planet36-randp"] != "" {
		return r.res.peers["planet36-randp"]
	}
	return r.res.c.why(key)
}

// cFillSizes are the C program's fill sizes: 4 B, 8 B, then sweepSizes.
func cFillSizes() []float64 { return append([]float64{4, 8}, sweepSizes()...) }

// sweepSizes are the call sizes of the sweeps by size, 16 B .. 1 MiB.
func sweepSizes() []float64 {
	var s []float64
	for n := 16.0; n <= 1<<20; n *= 2 {
		s = append(s, n)
	}
	return s
}

// sizeName is the benchmark name of a size: "4B", "4KiB", "1MiB".
func sizeName(n float64) string { return strings.ReplaceAll(fmtBytes(n), " ", "") }

// processes is "N of M": the processes in which randp was the faster of
// the M that measured it and planet36/randp in the C table tbl
// ("fill_256B/"), or "" when none did.
func (r *report) processes(tbl string) string {
	if pairs := r.pairs("c:"+tbl+"randp", "c:"+tbl+"planet36"); len(pairs) > 0 {
		return fmt.Sprintf("%d of %d", wins(pairs), len(pairs))
	}
	return ""
}

// fillCmp is randp against planet36/randp in the C fills of one size.
type fillCmp struct {
	Turns bool    // whether they took turns (fillTable): the ratio is paired
	Ratio float64 // planet36/randp's time over randp's; 0: not measured
	Sep   bool    // whether the ratio is significant
	Won   string  // the processes randp won (processes), or ""
}

// fill compares randp with planet36/randp in the C fills of `n` bytes. From
// rows in turns the ratio is paired: the median of each process's ratio,
// significant when that median's interval excludes 1 (both sides of a
// process met the same moments, so the pairs carry the comparison); from
// rows measured one after the other, the ratio of the two medians,
// significant when their intervals do not overlap.
func (r *report) fill(n float64) fillCmp {
	tbl := r.fillTable(n)
	f := fillCmp{Turns: strings.HasPrefix(tbl, turnsPrefix), Won: r.processes(tbl)}
	if p36, randp := "c:"+tbl+"planet36", "c:"+tbl+"randp"; f.Turns {
		f.Ratio, f.Sep = pairedRatio(r.pairs(p36, randp))
	} else {
		f.Ratio, f.Sep = ratioOf(r.stat(p36), r.stat(randp))
	}
	return f
}

// cHead is a C contestant's column head.
func (r *report) cHead(key string) string {
	return r.label(cmp.Or(contestants.C[key].Head, contestants.C[key].Short), nil)
}

// threadRow is one row of a table of one thread against two: the time of
// one operation with each, what the operation writes (0: a word), and why
// the row has no measurement when it has none.
type threadRow struct {
	Label    string
	One, Two stat
	Size     float64
	Why      string
}

// cThreads is the row of the C benchmark name (without "/threads:N").
func (r *report) cThreads(name, label string) threadRow {
	return threadRow{label, r.stat("c:" + name + "/threads:1"), r.stat("c:" + name + "/threads:2"), opBytes(name), r.cWhy(keyOf(name))}
}

// rustThreads is the row of the criterion group, per unit of work: a time
// per byte (Size 1) or per element across all threads.
func (r *report) rustThreads(group, label string) threadRow {
	per := func(fn string) stat {
		c := r.res.crit["rust:"+group+"/"+fn]
		return r.stat("rust:" + group + "/" + fn).scaled(1 / (c.Bytes + c.Elements))
	}
	size := 0.0
	if r.res.crit["rust:"+group+"/randp_1_thread"].Bytes > 0 {
		size = 1
	}
	return threadRow{label, per("randp_1_thread"), per("randp_2_thread"), size, ""}
}

// scaling is the throughput of two threads over one, when their intervals separate.
func scaling(one, two stat) string {
	v, sep := ratioOf(one, two)
	if !sep {
		return noDifference
	}
	return sig(v) + "×"
}

// keyOf is a C benchmark's contestant: the part of its name after the
// last slash.
func keyOf(name string) string { return name[strings.LastIndexByte(name, '/')+1:] }

// refCells is C contestant key's reference cells in a table of group, one
// per README run: empty where the run did not measure its function.
func refCells(group, key string) []string {
	var cells []string
	for _, run := range refs.Planet36 {
		cells = append(cells, run.cell(group, contestants.C[key].Ref[group]))
	}
	return cells
}

// offsetRow is one size's row of templates/c.tmpl's c_offsets: a cell per
// destination offset, "" where no process used it.
type offsetRow struct {
	Size  float64
	Cells []string
}

// fillByOffset sets randp's and planet36/randp's fills side by side by
// where the destination started (benches/c's DstOffset, turned from one
// pass to the next), at the sizes where a copy out of a buffer decides the
// call: whether either library's speed depends on the caller's alignment,
// and whether randp wins at each: the offsets and a row per size, or
// nothing when the passes used one offset.
func (r *report) fillByOffset() (offsets []int, rows []offsetRow) {
	c := r.res.c
	if offsets = slices.Compact(slices.Sorted(maps.Values(c.dstOffset))); len(offsets) < 2 {
		return nil, nil
	}
	for _, n := range cFillSizes() {
		if n < 64 || n > 4096 {
			continue
		}
		tbl := r.fillTable(n)
		a, _ := r.res.samples.byPass("c:" + tbl + "randp")
		b, _ := r.res.samples.byPass("c:" + tbl + "planet36")
		row := offsetRow{Size: n}
		for _, off := range offsets {
			var pairs [][2]float64
			for pass, v := range a {
				if w, ok := b[pass]; ok && c.dstOffset[pass] == off {
					pairs = append(pairs, [2]float64{v, w})
				}
			}
			side := func(i int) string {
				var v []float64
				for _, p := range pairs {
					v = append(v, p[i])
				}
				return ns(summarize(v).Center)
			}
			cell := ""
			if len(pairs) > 0 {
				cell = fmt.Sprintf("%s / %s (randp faster in %d of %d)", side(0), side(1), wins(pairs), len(pairs))
			}
			row.Cells = append(row.Cells, cell)
		}
		rows = append(rows, row)
	}
	return offsets, rows
}

// joinInts writes 0, 16, 32 and 48.
func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = fmt.Sprint(x)
	}
	if len(s) == 1 {
		return s[0]
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}
