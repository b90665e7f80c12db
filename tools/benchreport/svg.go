package main

import (
	"fmt"
	"math"
	"strings"
)

// chartSeries are the lines of the read-size chart: Go benchmark prefix and
// legend, with seed 000's sizes on the x axis.
var chartSeries = []struct{ bench, legend, color string }{
	{"StdlibRead", "crypto/rand.Read", "#d62728"},
	{"ChaCha8Read", "math/rand/v2 ChaCha8.Read", "#ff7f0e"},
	{"RandpReadUnbuffered", "randp, one cgo call per Read", "#1f77b4"},
	{"RandpRead", "randp.Read (buffered)", "#2ca02c"},
}

var chartSizes = []struct {
	name  string
	bytes float64
}{{"4b", 4}, {"8b", 8}, {"32b", 32}, {"512b", 512}, {"1KiB", 1024}, {"4KiB", 4096}}

// readSizeChart draws median ns/op against read size, both axes logarithmic,
// as a self-contained SVG.
func readSizeChart(g *goSet) (string, error) {
	const (
		w, h                 = 720.0, 440.0
		left, right, top, bt = 70.0, 230.0, 40.0, 50.0
	)
	pw, ph := w-left-right, h-top-bt
	type pt struct{ x, y float64 }
	lines := make([][]pt, len(chartSeries))
	lo, hi := math.Inf(1), math.Inf(-1)
	for i, s := range chartSeries {
		for _, size := range chartSizes {
			r, ok := g.get(s.bench + "/" + size.name)
			if !ok {
				return "", fmt.Errorf("chart: no result for %s/%s", s.bench, size.name)
			}
			v := r.Median()
			lines[i] = append(lines[i], pt{size.bytes, v})
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	ylo, yhi := math.Floor(math.Log10(lo)), math.Ceil(math.Log10(hi))
	if yhi == ylo {
		yhi++
	}
	xlo, xhi := math.Log2(chartSizes[0].bytes), math.Log2(chartSizes[len(chartSizes)-1].bytes)
	X := func(b float64) float64 { return left + (math.Log2(b)-xlo)/(xhi-xlo)*pw }
	Y := func(v float64) float64 { return top + ph - (math.Log10(v)-ylo)/(yhi-ylo)*ph }

	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" font-family="sans-serif" font-size="12">`+"\n", w, h, w, h)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	fmt.Fprintf(&b, `<text x="%.0f" y="22" font-size="15" font-weight="bold">Go: ns per Read call against read size (median, log–log)</text>`+"\n", left)
	// Grid and y labels at powers of ten.
	for e := ylo; e <= yhi; e++ {
		y := Y(math.Pow(10, e))
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#ddd"/>`+"\n", left, y, left+pw, y)
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="end">%s</text>`+"\n", left-6, y+4, tick(e))
	}
	for _, size := range chartSizes {
		x := X(size.bytes)
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#eee"/>`+"\n", x, top, x, top+ph)
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle">%s</text>`+"\n", x, top+ph+18, size.name)
	}
	fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="none" stroke="#333"/>`+"\n", left, top, pw, ph)
	fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle">bytes per Read</text>`+"\n", left+pw/2, h-12)
	for i, s := range chartSeries {
		var pts []string
		for _, p := range lines[i] {
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", X(p.x), Y(p.y)))
		}
		fmt.Fprintf(&b, `<polyline points="%s" fill="none" stroke="%s" stroke-width="2.5"/>`+"\n", strings.Join(pts, " "), s.color)
		for _, p := range lines[i] {
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

func fmtBytes(n float64) string {
	if n >= 1024 {
		return fmt.Sprintf("%.0f KiB", n/1024)
	}
	return fmt.Sprintf("%.0f B", n)
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
