package main

import (
	"fmt"
	"slices"
	"strings"
)

// The charts' contents (data/charts.toml): what each chart plots, drawn by
// svg.go and placed by the templates ({{chart "<file>"}}).

// chartSpec is one chart of data/charts.toml; the file's header says what
// each field means.
type chartSpec struct {
	Alt    string   `toml:"alt,required"`
	Title  string   `toml:"title,required"`
	Axis   string   `toml:"axis,required"`
	Rate   bool     `toml:"rate"`
	Sizes  []string `toml:"sizes"`
	Series []struct {
		Label string `toml:"label,required,label"`
		Ref   string `toml:"ref,required,ref"`
	} `toml:"series,required"`
}

var chartSpecs = mustLoad("charts.toml", checkCharts)

// checkCharts checks what the tags cannot: sizes for a rate.
func checkCharts(charts *map[string]chartSpec) error {
	for file, c := range *charts {
		if c.Rate && len(c.Sizes) == 0 {
			return fmt.Errorf("chart %s: a rate without sizes", file)
		}
	}
	return nil
}

// chart draws the chart of data/charts.toml named file from this run,
// keeps it for writing beside the report and returns the Markdown that
// shows it, or a line saying why it could not be drawn.
func (r *report) chart(file string) string {
	spec, ok := chartSpecs[file]
	if !ok {
		panic("benchreport: no chart " + file + " in data/charts.toml")
	}
	var lines []series
	for i, s := range spec.Series {
		label, ser := r.label(s.Label, nil), series{color: palette[i%len(palette)]}
		if len(spec.Sizes) == 0 {
			ser.points = []chartPoint{{label: label, s: r.stat(s.Ref)}}
		}
		for _, sz := range spec.Sizes {
			ser.legend = label
			ser.points = append(ser.points, chartPoint{x: parseSize(sz), s: r.stat(strings.ReplaceAll(s.Ref, "{size}", sz))})
		}
		if ser.points = slices.DeleteFunc(ser.points, func(p chartPoint) bool { return !p.s.ok() }); len(ser.points) > 0 {
			lines = append(lines, ser)
		}
	}
	stamp := r.exec("stamp", r.res.run)
	draw := func() (string, error) { return barChart(spec.Title, stamp, spec.Axis, lines) }
	if len(spec.Sizes) > 0 {
		draw = func() (string, error) { return lineChart(spec.Title, stamp, spec.Axis, spec.Rate, lines) }
	}
	svg, err := draw()
	if err != nil {
		r.chartErrs = append(r.chartErrs, err.Error())
		return fmt.Sprintf("(chart not drawn: %v)\n\n", err)
	}
	r.charts[file] = svg
	return fmt.Sprintf("![%s](%s/%s)\n\n", spec.Alt, r.chartDir, file)
}
