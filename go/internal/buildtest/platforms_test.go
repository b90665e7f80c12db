package buildtest

import (
	"runtime"
	"strings"
	"testing"
)

// pureGoTargets are the GOOS/GOARCH pairs for which a consumer must build
// and pass go vet without cgo: each takes the pure-Go path. (linux/amd64 and
// linux/arm64 without cgo are in TestPureGoPath.)
var pureGoTargets = []string{
	"darwin/arm64", "darwin/amd64", "windows/amd64", "freebsd/amd64",
	"linux/386", "linux/riscv64", "wasip1/wasm", "js/wasm", "android/arm64", "plan9/amd64",
}

// TestPureGoBuildsEverywhere builds and vets the consumer module for every
// listed platform with cgo off, as cross-compiling does by default.
func TestPureGoBuildsEverywhere(t *testing.T) {
	goBin := goCmd(t)
	c := newConsumer(t, "1.24", randpModuleDir(t), map[string]string{"main.go": consumerMain})
	for _, target := range append(pureGoTargets, "linux/arm64") {
		goos, goarch, _ := strings.Cut(target, "/")
		t.Run(goos+"_"+goarch, func(t *testing.T) {
			env := []string{"CGO_ENABLED=0", "GOOS=" + goos, "GOARCH=" + goarch}
			c.run(env, goBin, "build", "-o", c.path("consumer-"+goos+"-"+goarch), ".")
			c.run(env, goBin, "vet", ".")
		})
	}
}

// TestPureGoPath builds and runs the consumer on this machine on each path:
// with cgo (the default: the cgo path), with CGO_ENABLED=0 and with the
// build tag randp_purego (the pure-Go path), and checks which one
// Implementation reports.
func TestPureGoPath(t *testing.T) {
	if runtime.GOOS != "linux" || (runtime.GOARCH != "amd64" && runtime.GOARCH != "arm64") {
		t.Skipf("%s/%s has no cgo path to compare with", runtime.GOOS, runtime.GOARCH)
	}
	goBin := goCmd(t)
	c := newConsumer(t, "1.24", randpModuleDir(t), map[string]string{"main.go": consumerMain})
	for _, tc := range []struct {
		name string
		env  []string
		args []string
		want string
	}{
		{"default", nil, nil, "cgo"},
		{"CGO_ENABLED=0", []string{"CGO_ENABLED=0"}, nil, "purego"},
		{"tag randp_purego", nil, []string{"-tags", "randp_purego"}, "purego"},
		{"CGO_ENABLED=0 and tag randp_purego", []string{"CGO_ENABLED=0"}, []string{"-tags", "randp_purego"}, "purego"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bin := c.path("consumer")
			c.run(tc.env, goBin, append(append([]string{"build"}, tc.args...), "-o", bin, ".")...)
			if out := c.run(nil, bin); out != "consumer ok "+tc.want+"\n" {
				t.Fatalf("the consumer printed %q; want the %s path", out, tc.want)
			}
			syms := c.run(nil, goBin, "tool", "nm", bin)
			if has := strings.Contains(syms, "randp_read"); has != (tc.want == "cgo") {
				t.Fatalf("the %s build links randp_read: %v", tc.want, has)
			}
		})
	}
}
