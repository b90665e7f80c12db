package main

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// TestHeadingsUsed: data/headings.toml has every heading the code (h) and
// the templates (.H.<name>) name, and names none that neither uses; a
// template's missing heading would otherwise print as nothing.
func TestHeadingsUsed(t *testing.T) {
	used := map[string]bool{}
	files, _ := filepath.Glob("*.go")
	tmpls, _ := filepath.Glob("templates/*.tmpl")
	data, _ := filepath.Glob("data/*.toml")
	re := regexp.MustCompile(`\bh\("(\w+)"\)|\.H\.(\w+)|heading = "(\w+)"`)
	for _, f := range append(append(files, tmpls...), data...) {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range re.FindAllStringSubmatch(string(b), -1) {
			used[m[1]+m[2]+m[3]] = true
		}
	}
	var missing, unused []string
	for name := range used {
		if headings[name] == "" {
			missing = append(missing, name)
		}
	}
	for name := range headings {
		if !used[name] {
			unused = append(unused, name)
		}
	}
	sort.Strings(missing)
	sort.Strings(unused)
	if len(missing) > 0 || len(unused) > 0 {
		t.Errorf("data/headings.toml lacks %v and names %v, which nothing uses", missing, unused)
	}
}
