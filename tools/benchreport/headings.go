package main

import (
	_ "embed"
	"fmt"

	"github.com/BurntSushi/toml"
)

//go:embed data/headings.toml
var headingsTOML string

// headings are the section headings by the names templates use (.H.Method);
// decoded without decodeTOML, whose schema checks read them.
var headings = mustParse("headings.toml", headingsTOML, func(text string) (map[string]string, error) {
	h := map[string]string{}
	if _, err := toml.Decode(text, &h); err != nil {
		return nil, err
	}
	for k, v := range h {
		if v == "" {
			return nil, fmt.Errorf("heading %s is empty", k)
		}
	}
	return h, nil
})

// h is the heading of that name; a name data/headings.toml lacks is a bug
// of the code that asks for it.
func h(name string) string {
	v, ok := headings[name]
	if !ok {
		panic("benchreport: no heading " + name + " in data/headings.toml")
	}
	return v
}
