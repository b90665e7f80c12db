package main

import (
	"fmt"
	"html"
	"math"
	"strings"
)

// The charts of the report: self-contained SVG files, each titled with what
// it shows and stamped with the machine, the commit and the date of the run,
// every point a median with its 95% interval drawn as an error bar.

// series is one line (or one bar) of a chart: a stat per x value, each
// measured, the series with one at least.
type series struct {
	legend, color string
	points        []chartPoint
}

type chartPoint struct {
	x     float64 // bytes (line charts)
	label string  // category (bar charts)
	s     stat    // time per operation, ns
}

var palette = []string{"#2ca02c", "#1f77b4", "#d62728", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"}

type svgDoc struct{ b strings.Builder }

func (d *svgDoc) f(format string, args ...any) { fmt.Fprintf(&d.b, format, args...) }

func (d *svgDoc) header(w, h float64, title, stamp string) {
	d.f(`<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" font-family="sans-serif" font-size="12">`+"\n", w, h, w, h)
	d.f(`<rect width="100%%" height="100%%" fill="white"/>` + "\n")
	d.f(`<text x="16" y="22" font-size="15" font-weight="bold">%s</text>`+"\n", html.EscapeString(title))
	d.f(`<text x="16" y="40" font-size="11" fill="#444">%s</text>`+"\n", html.EscapeString(stamp))
}

// logRange is the powers of ten, as exponents, that hold lo to hi.
func logRange(lo, hi float64) (float64, float64) {
	a, b := math.Floor(math.Log10(lo)), math.Ceil(math.Log10(hi))
	if a == b {
		b++
	}
	return a, b
}

// lineChart draws y = time per call (or throughput, when rate is true, in
// GB/s from the x bytes) against x = bytes per call, both logarithmic.
func lineChart(title, stamp, ylabel string, rate bool, lines []series) (string, error) {
	const (
		w, h                 = 900.0, 480.0
		left, right, top, bt = 80.0, 300.0, 60.0, 50.0
	)
	pw, ph := w-left-right, h-top-bt
	val := func(p chartPoint, v float64) float64 {
		if rate {
			return p.x / v // bytes per ns = GB/s
		}
		return v
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	xlo, xhi := math.Inf(1), math.Inf(-1)
	for _, s := range lines {
		for _, p := range s.points {
			for _, v := range []float64{p.s.Center, finiteOr(p.s.Lo, p.s.Center), finiteOr(p.s.Hi, p.s.Center)} {
				lo, hi = math.Min(lo, val(p, v)), math.Max(hi, val(p, v))
			}
			xlo, xhi = math.Min(xlo, p.x), math.Max(xhi, p.x)
		}
	}
	if len(lines) == 0 || xlo == xhi {
		return "", fmt.Errorf("%s: no results", title)
	}
	ylo, yhi := logRange(lo, hi)
	X := func(b float64) float64 {
		return left + (math.Log2(b)-math.Log2(xlo))/(math.Log2(xhi)-math.Log2(xlo))*pw
	}
	Y := func(v float64) float64 { return top + ph - (math.Log10(v)-ylo)/(yhi-ylo)*ph }
	var d svgDoc
	d.header(w, h, title, stamp)
	for e := ylo; e <= yhi; e++ {
		y := Y(math.Pow(10, e))
		d.f(`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#ddd"/>`+"\n", left, y, left+pw, y)
		lab := tick(e)
		if rate {
			lab = fmt.Sprintf("%g GB/s", math.Pow(10, e))
		}
		d.f(`<text x="%.1f" y="%.1f" text-anchor="end">%s</text>`+"\n", left-6, y+4, lab)
	}
	for x := xlo; x <= xhi; x *= 2 {
		px := X(x)
		d.f(`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#eee"/>`+"\n", px, top, px, top+ph)
		if step := math.Round(math.Log2(x / xlo)); int(step)%2 == 0 || xhi/xlo <= 64 {
			d.f(`<text x="%.1f" y="%.1f" text-anchor="middle">%s</text>`+"\n", px, top+ph+18, fmtBytes(x))
		}
	}
	d.f(`<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="none" stroke="#333"/>`+"\n", left, top, pw, ph)
	d.f(`<text x="%.1f" y="%.1f" text-anchor="middle">bytes per call</text>`+"\n", left+pw/2, h-12)
	d.f(`<text x="18" y="%.1f" text-anchor="middle" transform="rotate(-90 18 %.1f)">%s</text>`+"\n", top+ph/2, top+ph/2, html.EscapeString(ylabel))
	for i, s := range lines {
		var pts []string
		for _, p := range s.points {
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", X(p.x), Y(val(p, p.s.Center))))
		}
		d.f(`<polyline points="%s" fill="none" stroke="%s" stroke-width="2"/>`+"\n", strings.Join(pts, " "), s.color)
		for _, p := range s.points {
			px := X(p.x)
			if !math.IsInf(p.s.Lo, 0) && !math.IsInf(p.s.Hi, 0) {
				y1, y2 := Y(val(p, p.s.Lo)), Y(val(p, p.s.Hi))
				d.f(`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="1.2"/>`+"\n", px, y1, px, y2, s.color)
			}
			label := spread(p.s)
			if rate {
				label = gbps(p.s, p.x)
			}
			d.f(`<circle cx="%.1f" cy="%.1f" r="3" fill="%s"><title>%s %s: %s</title></circle>`+"\n",
				px, Y(val(p, p.s.Center)), s.color, html.EscapeString(s.legend), fmtBytes(p.x), html.EscapeString(label))
		}
		ly := top + 10 + float64(i)*20
		d.f(`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="3"/>`+"\n", left+pw+14, ly, left+pw+38, ly, s.color)
		d.f(`<text x="%.1f" y="%.1f">%s</text>`+"\n", left+pw+44, ly+4, html.EscapeString(s.legend))
	}
	d.f(`<text x="%.1f" y="%.1f" font-size="10" fill="#666">dots: medians; bars: 95%% intervals</text>`+"\n", left+pw+14, top+ph)
	d.f("</svg>\n")
	return d.b.String(), nil
}

func finiteOr(v, alt float64) float64 {
	if math.IsInf(v, 0) || math.IsNaN(v) || v <= 0 {
		return alt
	}
	return v
}

// barChart draws one horizontal bar per point (time per operation, log
// scale), grouped as given, with the interval as an error bar.
func barChart(title, stamp, xlabel string, bars []series) (string, error) {
	var n int
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, s := range bars {
		for _, p := range s.points {
			n++
			lo, hi = math.Min(lo, finiteOr(p.s.Lo, p.s.Center)), math.Max(hi, finiteOr(p.s.Hi, p.s.Center))
		}
	}
	if n == 0 {
		return "", fmt.Errorf("%s: no results", title)
	}
	const (
		w, left, right, top, rowH = 860.0, 330.0, 40.0, 60.0, 22.0
	)
	h := top + float64(n)*rowH + 50
	pw := w - left - right
	xlo, xhi := logRange(lo, hi)
	X := func(v float64) float64 { return left + (math.Log10(v)-xlo)/(xhi-xlo)*pw }
	var d svgDoc
	d.header(w, h, title, stamp)
	bottom := top + float64(n)*rowH
	for e := xlo; e <= xhi; e++ {
		x := X(math.Pow(10, e))
		d.f(`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#ddd"/>`+"\n", x, top, x, bottom)
		d.f(`<text x="%.1f" y="%.1f" text-anchor="middle">%s</text>`+"\n", x, bottom+16, tick(e))
	}
	d.f(`<text x="%.1f" y="%.1f" text-anchor="middle">%s</text>`+"\n", left+pw/2, bottom+36, html.EscapeString(xlabel))
	row := 0
	for _, s := range bars {
		for _, p := range s.points {
			y := top + float64(row)*rowH
			d.f(`<text x="%.1f" y="%.1f" text-anchor="end">%s</text>`+"\n", left-8, y+rowH/2+4, html.EscapeString(p.label))
			d.f(`<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"><title>%s: %s</title></rect>`+"\n",
				left, y+4, math.Max(X(p.s.Center)-left, 1), rowH-8, s.color, html.EscapeString(p.label), html.EscapeString(spread(p.s)))
			if !math.IsInf(p.s.Lo, 0) && !math.IsInf(p.s.Hi, 0) {
				d.f(`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#000" stroke-width="1.2"/>`+"\n", X(p.s.Lo), y+rowH/2, X(p.s.Hi), y+rowH/2)
			}
			d.f(`<text x="%.1f" y="%.1f" font-size="10">%s</text>`+"\n", math.Min(X(finiteOr(p.s.Hi, p.s.Center))+4, w-right-40), y+rowH/2+4, ns(p.s.Center))
			row++
		}
	}
	d.f(`<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="none" stroke="#333"/>`+"\n", left, top, pw, bottom-top)
	d.f("</svg>\n")
	return d.b.String(), nil
}

// tick labels the power of ten 10^e ns.
func tick(e float64) string {
	if e < 0 {
		return fmt.Sprintf("%g ns", math.Pow(10, e))
	}
	units := []string{"ns", "µs", "ms", "s"}
	i := int(e) / 3
	if i >= len(units) {
		i = len(units) - 1
	}
	return fmt.Sprintf("%.0f %s", math.Pow(10, e-float64(3*i)), units[i])
}
