package buildtest

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// consumer is a module outside the repository, in a temporary directory,
// that requires package randp's module through a replace directive.
type consumer struct {
	t   *testing.T
	dir string
	env []string
}

// randpModuleDir is the directory of package randp's module, two levels up
// from this package.
func randpModuleDir(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	mod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil || !bytes.HasPrefix(mod, []byte("module github.com/randp/randp/go\n")) {
		t.Fatalf("%s is not the randp Go module (%v)", dir, err)
	}
	return dir
}

// newConsumer writes a module that declares goVersion and holds files,
// replacing randp's module path with the directory randpDir.
func newConsumer(t *testing.T, goVersion, randpDir string, files map[string]string) *consumer {
	t.Helper()
	dir := t.TempDir()
	files["go.mod"] = "module example.com/consumer\n\ngo " + goVersion + "\n\n" +
		"require github.com/randp/randp/go v0.0.0\n\n" +
		"replace github.com/randp/randp/go => " + randpDir + "\n"
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return &consumer{t: t, dir: dir, env: consumerEnv(t)}
}

// consumerEnv is the environment of the go commands run on a consumer: no
// cargo or rustc on PATH (a user of the module has neither), no network and
// no workspace (only the replaced module and the standard library can be
// used), the local toolchain, cgo on, and none of the settings of the test's
// own environment that would change the build (GOOS, GOARCH, CC, flags).
func consumerEnv(t *testing.T) []string {
	t.Helper()
	var path []string
	for _, d := range filepath.SplitList(os.Getenv("PATH")) {
		if isExecutable(filepath.Join(d, "cargo")) || isExecutable(filepath.Join(d, "rustc")) {
			continue
		}
		path = append(path, d)
	}
	env := []string{"PATH=" + strings.Join(path, string(os.PathListSeparator))}
	for _, kv := range os.Environ() {
		switch k, _, _ := strings.Cut(kv, "="); k {
		case "PATH", "GOFLAGS", "GOPROXY", "GOWORK", "GOTOOLCHAIN", "CGO_ENABLED", "GOOS", "GOARCH",
			"CC", "CGO_CFLAGS", "CGO_LDFLAGS", "GODEBUG":
		default:
			env = append(env, kv)
		}
	}
	env = append(env, "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off", "GOTOOLCHAIN=local", "CGO_ENABLED=1")
	check := exec.Command("sh", "-c", "command -v cargo || command -v rustc")
	check.Env = env
	if out, err := check.Output(); err == nil {
		t.Fatalf("cargo or rustc is still on the consumer's PATH: %s", out)
	}
	return env
}

// command returns name args run in the consumer's directory with its
// environment plus extraEnv (later entries win).
func (c *consumer) command(extraEnv []string, name string, args ...string) *exec.Cmd {
	cmd := exec.Command(name, args...)
	cmd.Dir = c.dir
	cmd.Env = append(append([]string(nil), c.env...), extraEnv...)
	return cmd
}

// run runs the command and returns its combined output; it fails the test
// if the command fails.
func (c *consumer) run(extraEnv []string, name string, args ...string) string {
	c.t.Helper()
	out, err := c.command(extraEnv, name, args...).CombinedOutput()
	if err != nil {
		c.t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

// fail runs the command and returns its combined output; it fails the test
// if the command succeeds.
func (c *consumer) fail(extraEnv []string, name string, args ...string) string {
	c.t.Helper()
	out, err := c.command(extraEnv, name, args...).CombinedOutput()
	if err == nil {
		c.t.Fatalf("%s %s succeeded; want it to fail\n%s", name, strings.Join(args, " "), out)
	}
	return string(out)
}

// path returns the absolute path of name in the consumer's directory.
func (c *consumer) path(name string) string { return filepath.Join(c.dir, name) }

// goCmd returns the go command that runs these tests.
func goCmd(t *testing.T) string {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to build consumer modules: %v", err)
	}
	return goBin
}

// needTool fails the test if a tool that `make test-go` installs is missing.
func needTool(t *testing.T, name, debianPackage string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		t.Fatalf("%s is not installed (Debian package %s; `make test-go` installs it): %v", name, debianPackage, err)
	}
	return p
}

func isExecutable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0
}
