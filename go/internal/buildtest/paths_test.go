package buildtest

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// pathTargets are the GOOS/GOARCH pairs whose choice of path
// TestPathsAreComplements checks: the two with a prebuilt library, Android
// on the same architectures (GOOS=android satisfies the linux build tag and
// _linux file names, but the glibc-built object does not link against
// Bionic), and some without one.
var pathTargets = []string{
	"linux/amd64", "linux/arm64", "android/amd64", "android/arm64",
	"linux/386", "linux/riscv64", "linux/s390x", "darwin/arm64", "windows/amd64", "freebsd/amd64",
}

// TestPathsAreComplements lists, with the go command, the files package
// randp and its lib packages build from for every target of pathTargets,
// with cgo on and off, with and without the build tag randp_purego. Exactly
// one path's files must be chosen: the cgo path's (cgo.go, buffers_cgo.go,
// lib_linux_GOARCH.go and its import of the prebuilt library) where cgo is
// on, the tag is not set and the target is linux/amd64 or linux/arm64, and
// the pure-Go path's (buffers_purego.go, generator_purego.go) everywhere
// else, Android included. A prebuilt object is never chosen for Android.
func TestPathsAreComplements(t *testing.T) {
	goBin := goCmd(t)
	dir := randpModuleDir(t)
	var env []string
	for _, kv := range os.Environ() {
		switch k, _, _ := strings.Cut(kv, "="); k {
		case "GOFLAGS", "CGO_ENABLED", "GOOS", "GOARCH", "CC":
		default:
			env = append(env, kv)
		}
	}
	const format = `{{.ImportPath}}|{{join .GoFiles ","}}|{{join .CgoFiles ","}}|{{join .SysoFiles ","}}|{{join .Imports ","}}`
	cgoFiles := []string{"cgo.go", "buffers_cgo.go"}
	pureFiles := []string{"buffers_purego.go", "generator_purego.go"}
	for _, target := range pathTargets {
		goos, goarch, _ := strings.Cut(target, "/")
		for _, cgo := range []string{"1", "0"} {
			for _, tags := range []string{"", "randp_purego"} {
				name := target + " CGO_ENABLED=" + cgo + " tags=" + tags
				wantCgo := cgo == "1" && tags == "" && goos == "linux" && (goarch == "amd64" || goarch == "arm64")
				cmd := exec.Command(goBin, "list", "-e", "-tags="+tags, "-f", format, ".", "./lib/...")
				cmd.Dir = dir
				cmd.Env = append(env, "CGO_ENABLED="+cgo, "GOOS="+goos, "GOARCH="+goarch)
				out, err := cmd.Output()
				if err != nil {
					t.Fatalf("%s: go list: %v\n%s", name, err, out)
				}
				for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
					f := strings.Split(line, "|")
					if len(f) != 5 {
						t.Fatalf("%s: go list printed %q", name, line)
					}
					files := slices.Concat(strings.Split(f[1], ","), strings.Split(f[2], ","))
					switch pkg := f[0]; pkg {
					case "github.com/randp/randp/go":
						for _, file := range cgoFiles {
							if slices.Contains(files, file) != wantCgo {
								t.Errorf("%s: package randp builds %s: %v", name, file, !wantCgo)
							}
						}
						for _, file := range pureFiles {
							if slices.Contains(files, file) == wantCgo {
								t.Errorf("%s: package randp builds %s: %v", name, file, wantCgo)
							}
						}
						lib := "lib_linux_" + goarch + ".go"
						if slices.Contains(files, lib) != wantCgo {
							t.Errorf("%s: package randp builds %s: %v", name, lib, !wantCgo)
						}
						imports := strings.Split(f[4], ",")
						linked := slices.ContainsFunc(imports, func(p string) bool { return strings.Contains(p, "/go/lib/") })
						if linked != wantCgo {
							t.Errorf("%s: package randp imports a prebuilt library: %v (imports %v)", name, linked, imports)
						}
					default:
						if goos == "android" {
							t.Errorf("%s: %s is built for Android (files %s %s, objects %s)", name, pkg, f[1], f[2], f[3])
						}
						if f[3] != "" && !strings.HasSuffix(pkg, "/lib/"+goos+"_"+goarch) {
							t.Errorf("%s: %s has the objects %s", name, pkg, f[3])
						}
					}
				}
			}
		}
	}
}
