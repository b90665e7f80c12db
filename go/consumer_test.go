package randp_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// consumerMain is the program of TestConsumerModule's outside module. It
// uses randp the ways the README shows and exits non-zero if a value is
// out of range.
const consumerMain = `package main

import (
	"fmt"
	mathrand "math/rand"
	"math/rand/v2"
	"os"

	randp "github.com/randp/randp/go"
)

func main() {
	r1 := mathrand.New(randp.Source())
	r2 := rand.New(randp.Source())
	key := make([]byte, 32)
	n, err := randp.Reader.Read(key)
	randp.Read(key[:16])
	deck := []string{"a", "b", "c"}
	randp.ShuffleSlice(deck)
	if r1.Int63() < 0 || r2.IntN(6) >= 6 || n != 32 || err != nil || randp.IntN(10) >= 10 || len(deck) != 3 {
		fmt.Println("bad value")
		os.Exit(1)
	}
	fmt.Println("consumer ok")
}
`

// TestConsumerModule builds and runs a module outside the repository that
// requires this one through a replace directive, the way a user meets the
// package: with the committed prebuilt library, no build tags and no cargo
// on PATH.
func TestConsumerModule(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to build the consumer module: %v", err)
	}
	modDir, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	goMod := "module example.com/consumer\n\ngo 1.24\n\n" +
		"require github.com/randp/randp/go v0.0.0\n\n" +
		"replace github.com/randp/randp/go => " + modDir + "\n"
	for name, text := range map[string]string{"go.mod": goMod, "main.go": consumerMain} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	// PATH without any directory that holds cargo or rustc.
	var path []string
	for _, d := range filepath.SplitList(os.Getenv("PATH")) {
		if isExecutable(filepath.Join(d, "cargo")) || isExecutable(filepath.Join(d, "rustc")) {
			continue
		}
		path = append(path, d)
	}
	env := []string{"PATH=" + strings.Join(path, string(os.PathListSeparator))}
	for _, kv := range os.Environ() {
		switch strings.SplitN(kv, "=", 2)[0] {
		case "PATH", "GOFLAGS", "GOPROXY", "GOWORK", "CGO_ENABLED", "GOOS", "GOARCH":
		default:
			env = append(env, kv)
		}
	}
	// No network and no workspace: only the replaced module and the
	// standard library can be used.
	env = append(env, "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off", "CGO_ENABLED=1")

	run := func(name string, args ...string) string {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir, cmd.Env = dir, env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	check := exec.Command("sh", "-c", "command -v cargo || command -v rustc")
	check.Env = env
	if out, err := check.Output(); err == nil {
		t.Fatalf("cargo or rustc is still on the consumer's PATH: %s", out)
	}
	bin := filepath.Join(dir, "consumer")
	run(goBin, "build", "-o", bin, ".")
	if out := run(bin); out != "consumer ok\n" {
		t.Fatalf("consumer printed %q", out)
	}
	if syms := run(goBin, "tool", "nm", bin); !strings.Contains(syms, "randp_read") {
		t.Fatal("the consumer binary does not contain randp_read")
	}
}

func isExecutable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0
}
