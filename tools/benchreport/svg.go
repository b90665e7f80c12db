package main

import (
	"fmt"
	"math"
	"strings"
)

// chartSeries are the lines of the read-size chart: which Go test binary's
// results, the benchmark prefix, the legend, and whether a missing series
// is an error (it is not for a peer whose source may be unavailable).
var chartSeries = []struct {
	set                  func(*results) *goSet
	bench, legend, color string
	optional             bool
}{
	{goRandpSet, "StdlibRead", "crypto/rand.Read (vDSO)", "#d62728", false},
	{goPeersSet, "GetrandomRead", "crypto/rand before Go 1.24 (syscall)", "#8c564b", false},
	{goRandpSet, "ChaCha8Read", "math/rand/v2 ChaCha8", "#ff7f0e", false},
	{goRandpSet, "AESCTRRead", "pure-Go AES-CTR reader", "#9467bd", false},
	{goDcrdSet, "DcrdRead", "decred dcrd Read", "#7f7f7f", true},
	{goPeersSet, "UnpredictableRead", "art4711/unpredictable", "#bcbd22", true},
	{goRandpSet, "RandpReadUnbuffered", "randp, one cgo call per Read", "#1f77b4", false},
	{goRandpSet, "RandpRead", "randp.Read (buffered)", "#2ca02c", false},
}

func goRandpSet(r *results) *goSet { return r.goRandp }
func goPeersSet(r *results) *goSet { return r.goPeers }
func goDcrdSet(r *results) *goSet  { return r.goDcrd }

// readSizeChart draws median ns per Read against the read size, both axes
// logarithmic, as a self-contained SVG.
func readSizeChart(res *results) (string, error) {
	const (
		w, h                 = 780.0, 460.0
		left, right, top, bt = 80.0, 260.0, 40.0, 50.0
	)
	pw, ph := w-left-right, h-top-bt
	type pt struct{ x, y float64 }
	type line struct {
		legend, color string
		pts           []pt
	}
	var lines []line
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, s := range chartSeries {
		set := s.set(res)
		var pts []pt
		for _, size := range goReadSizes {
			v := set.get(s.bench + "/" + size.name)
			if !v.ok() {
				continue
			}
			pts = append(pts, pt{size.bytes, v.Center})
			lo, hi = math.Min(lo, v.Center), math.Max(hi, v.Center)
		}
		switch {
		case len(pts) == len(goReadSizes):
			lines = append(lines, line{s.legend, s.color, pts})
		case !s.optional:
			return "", fmt.Errorf("chart: no complete results for %s", s.bench)
		}
	}
	if len(lines) == 0 {
		return "", fmt.Errorf("chart: no results")
	}
	ylo, yhi := math.Floor(math.Log10(lo)), math.Ceil(math.Log10(hi))
	if yhi == ylo {
		yhi++
	}
	xlo, xhi := math.Log2(goReadSizes[0].bytes), math.Log2(goReadSizes[len(goReadSizes)-1].bytes)
	X := func(b float64) float64 { return left + (math.Log2(b)-xlo)/(xhi-xlo)*pw }
	Y := func(v float64) float64 { return top + ph - (math.Log10(v)-ylo)/(yhi-ylo)*ph }

	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" font-family="sans-serif" font-size="12">`+"\n", w, h, w, h)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	fmt.Fprintf(&b, `<text x="%.0f" y="22" font-size="15" font-weight="bold">Go: time per Read call against the read size (log–log)</text>`+"\n", left)
	// Grid and y labels at powers of ten.
	for e := ylo; e <= yhi; e++ {
		y := Y(math.Pow(10, e))
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#ddd"/>`+"\n", left, y, left+pw, y)
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="end">%s</text>`+"\n", left-6, y+4, tick(e))
	}
	for _, size := range goReadSizes {
		x := X(size.bytes)
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#eee"/>`+"\n", x, top, x, top+ph)
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle">%s</text>`+"\n", x, top+ph+18, fmtBytes(size.bytes))
	}
	fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="none" stroke="#333"/>`+"\n", left, top, pw, ph)
	fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle">bytes per Read call</text>`+"\n", left+pw/2, h-12)
	fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle" transform="rotate(-90 %.1f %.1f)">time per Read call (median)</text>`+"\n",
		18.0, top+ph/2, 18.0, top+ph/2)
	for i, s := range lines {
		var pts []string
		for _, p := range s.pts {
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", X(p.x), Y(p.y)))
		}
		fmt.Fprintf(&b, `<polyline points="%s" fill="none" stroke="%s" stroke-width="2.5"/>`+"\n", strings.Join(pts, " "), s.color)
		for _, p := range s.pts {
			fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="3.5" fill="%s"><title>%s %s: %s</title></circle>`+"\n",
				X(p.x), Y(p.y), s.color, s.legend, fmtBytes(p.x), ns(p.y))
		}
		ly := top + 10 + float64(i)*22
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="3"/>`+"\n", left+pw+14, ly, left+pw+38, ly, s.color)
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f">%s</text>`+"\n", left+pw+44, ly+4, s.legend)
	}
	b.WriteString("</svg>\n")
	return b.String(), nil
}

// tick labels the power of ten 10^e ns.
func tick(e float64) string {
	units := []string{"ns", "µs", "ms", "s"}
	i := int(e) / 3
	if i >= len(units) {
		i = len(units) - 1
	}
	return fmt.Sprintf("%.0f %s", math.Pow(10, e-float64(3*i)), units[i])
}
