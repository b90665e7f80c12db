package buildtest

import (
	"strings"
	"testing"
)

// unsupportedLine is the whole of the compiler's complaint where package
// randp cannot be built (go/unsupported.go).
const unsupportedLine = "undefined: randp_needs_cgo_and_linux_amd64_or_linux_arm64"

// TestUnsupportedBuildsFailReadably builds a consumer without cgo and for
// platforms with no prebuilt library: each build fails with exactly one
// error line, which names what is needed.
func TestUnsupportedBuildsFailReadably(t *testing.T) {
	goBin := goCmd(t)
	c := newConsumer(t, "1.24", randpModuleDir(t), map[string]string{"main.go": consumerMain})
	for _, env := range [][]string{
		{"CGO_ENABLED=0"},
		{"CGO_ENABLED=0", "GOOS=darwin", "GOARCH=arm64"},
		{"CGO_ENABLED=0", "GOOS=windows", "GOARCH=amd64"},
		{"CGO_ENABLED=0", "GOOS=linux", "GOARCH=riscv64"},
	} {
		t.Run(strings.Join(env, ","), func(t *testing.T) {
			out := c.fail(env, goBin, "build", "-o", c.path("consumer"), ".")
			lines := errorLines(out)
			if len(lines) != 1 || !strings.HasSuffix(lines[0], unsupportedLine) {
				t.Fatalf("want exactly one error line ending in %q; got:\n%s", unsupportedLine, out)
			}
		})
	}
}

// TestMuslFailsReadably builds a consumer with musl-gcc: the prebuilt
// libraries need glibc, and the build must stop with the #error that says
// so, not at a wall of undefined symbols at link time.
func TestMuslFailsReadably(t *testing.T) {
	goBin := goCmd(t)
	musl := needTool(t, "musl-gcc", "musl-tools")
	c := newConsumer(t, "1.24", randpModuleDir(t), map[string]string{"main.go": consumerMain})
	out := c.fail([]string{"CC=" + musl}, goBin, "build", "-o", c.path("consumer"), ".")
	lines := errorLines(out)
	const want = `#error "randp needs glibc`
	if len(lines) == 0 || !strings.Contains(lines[0], want) || strings.Contains(out, "undefined reference") {
		t.Fatalf("want the first error line to contain %q and no link errors; got:\n%s", want, out)
	}
}
