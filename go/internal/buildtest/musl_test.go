package buildtest

import (
	"runtime"
	"strings"
	"testing"
)

// TestMusl builds the consumer with musl-gcc, as on Alpine: dynamically
// linked against musl's libc.so and fully static, and runs both. The cgo
// path links: the prebuilt object needs nothing from the C library that
// musl lacks. (`make test-go-musl` also runs the package's own tests with
// musl-gcc.)
func TestMusl(t *testing.T) {
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		t.Skipf("musl-gcc builds for linux/amd64 here; this is %s/%s", runtime.GOOS, runtime.GOARCH)
	}
	goBin := goCmd(t)
	musl := needTool(t, "musl-gcc", "musl-tools")
	c := newConsumer(t, "1.24", randpModuleDir(t), map[string]string{"main.go": consumerMain})
	for _, tc := range []struct {
		name, ldflags, interp string
	}{
		{"dynamic", "", "ld-musl"},
		{"static", "-extldflags=-static", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bin := c.path("consumer-" + tc.name)
			out := c.run([]string{"CC=" + musl}, goBin, "build", "-ldflags="+tc.ldflags, "-o", bin, ".")
			if out != "" {
				t.Errorf("the musl link printed:\n%s", out)
			}
			headers := c.run(nil, "readelf", "-l", bin)
			if tc.interp == "" && strings.Contains(headers, "INTERP") {
				t.Fatalf("the static binary has a program interpreter:\n%s", headers)
			}
			if tc.interp != "" && !strings.Contains(headers, tc.interp) {
				t.Fatalf("the dynamic binary does not load %s:\n%s", tc.interp, headers)
			}
			if out := c.run(nil, bin); out != "consumer ok cgo\n" {
				t.Fatalf("the musl consumer printed %q", out)
			}
		})
	}
}
