package buildtest

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// TestVendoredBuild vendors the module into a consumer (`go mod vendor`),
// removes the module it was vendored from, and builds and runs the consumer
// with -mod=vendor: the vendor tree alone, prebuilt libraries included, must
// be enough.
func TestVendoredBuild(t *testing.T) {
	goBin := goCmd(t)
	src := randpModuleDir(t)
	randpCopy := filepath.Join(t.TempDir(), "randp")
	copyTree(t, src, randpCopy)
	c := newConsumer(t, "1.24", randpCopy, map[string]string{"main.go": consumerMain})
	c.run([]string{"GOFLAGS="}, goBin, "mod", "vendor")

	// Every prebuilt library of the module is in the vendor tree, unchanged.
	libs, err := filepath.Glob(filepath.Join(src, "lib", "*", "*.syso"))
	if err != nil || len(libs) == 0 {
		t.Fatalf("no prebuilt libraries under %s/lib (%v)", src, err)
	}
	for _, lib := range libs {
		rel, _ := filepath.Rel(src, lib)
		vendored := c.path(filepath.Join("vendor", "github.com", "randp", "randp", "go", rel))
		want, _ := os.ReadFile(lib)
		got, err := os.ReadFile(vendored)
		if err != nil {
			t.Fatalf("go mod vendor left out %s: %v", rel, err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("vendored %s differs from the module's", rel)
		}
	}

	if err := os.RemoveAll(randpCopy); err != nil {
		t.Fatal(err)
	}
	bin := c.path("consumer")
	c.run([]string{"GOFLAGS="}, goBin, "build", "-mod=vendor", "-o", bin, ".")
	if out := c.run(nil, bin); out != "consumer ok cgo\n" {
		t.Fatalf("vendored consumer printed %q", out)
	}
}

// copyTree copies the regular files under src to dst.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}
