package buildtest

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// goBlock matches a fenced Go code block of a Markdown file.
var goBlock = regexp.MustCompile("(?ms)^```go\n(.*?)^```")

// TestReadmeGoSnippets builds and runs, as a consumer module, every Go code
// block of the repository's README.md. Each block is a whole program, so
// that what a reader copies compiles as it stands.
func TestReadmeGoSnippets(t *testing.T) {
	readme := filepath.Join(randpModuleDir(t), "..", "README.md")
	if _, err := os.Stat(filepath.Join(filepath.Dir(readme), "Cargo.toml")); err != nil {
		t.Skip("not inside the randp repository (no ../Cargo.toml), so there is no README to check")
	}
	text, err := os.ReadFile(readme)
	if err != nil {
		t.Fatal(err)
	}
	blocks := goBlock.FindAllSubmatch(text, -1)
	if len(blocks) == 0 {
		t.Fatal("README.md has no Go code block")
	}
	goBin := goCmd(t)
	for i, m := range blocks {
		src := string(m[1])
		t.Run(fmt.Sprint("block", i+1), func(t *testing.T) {
			if !strings.HasPrefix(src, "package main\n") {
				t.Fatalf("README.md's Go block %d is not a whole program (package main):\n%s", i+1, src)
			}
			c := newConsumer(t, "1.24", randpModuleDir(t), map[string]string{"main.go": src})
			bin := c.path("snippet")
			c.run(nil, goBin, "build", "-o", bin, ".")
			c.run(nil, bin)
		})
	}
}
