package main

import "github.com/BurntSushi/toml"

// headings are the section headings by the names templates use (.H.Method);
// decoded without decodeTOML, whose schema checks read them.
var headings = func() map[string]string {
	h := map[string]string{}
	if _, err := toml.Decode(dataText("headings.toml"), &h); err != nil {
		panic("benchreport: data/headings.toml: " + err.Error())
	}
	for k, v := range h {
		if v == "" {
			panic("benchreport: data/headings.toml: heading " + k + " is empty")
		}
	}
	return h
}()

// h is the heading of that name; a name data/headings.toml lacks is a bug
// of the code that asks for it.
func h(name string) string {
	v, ok := headings[name]
	if !ok {
		panic("benchreport: no heading " + name + " in data/headings.toml")
	}
	return v
}
