package buildtest

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// TestForkingCHost builds testdata/forkhost as a C shared library and as a C
// archive, on each path, links it into host.c with gcc (the archive with
// nothing else named: its .syso object is inside), and runs the host: it
// forks 1,000 times without exec, and parent and children draw from every
// API. No value may appear twice, while the control generator, in ordinary
// Go memory, must repeat in nearly every child.
//
// Go's runtime does not support running Go code in a forked child of a
// multi-threaded process (golang/go#15538): a child finds the runtime's locks
// as the parent's other threads held them at the fork, and now and then waits
// for ever on one. Here the other threads are the runtime's own: the monitor
// thread takes back the processor of a thread that has returned to C, under
// the scheduler's lock, and a child forked while it does so cannot get back
// into Go. How many children hang depends on how often that thread is
// preempted holding the lock, so on the machine's load: a few in a thousand
// on an idle machine, over a hundred beside the rest of make test. The host
// ends a child that still runs after 250 ms and sleeps on a futex (or still
// runs after 2 s), and counts it. The test needs the others as its sample:
// at least half the children must finish, and their randp values, with the
// parent's, must all be distinct.
func TestForkingCHost(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skipf("Go-side memory is wiped in a forked child on Linux only; this is %s", runtime.GOOS)
	}
	goBin := goCmd(t)
	gcc := needTool(t, "gcc", "gcc")
	src, err := os.ReadFile(filepath.Join("testdata", "forkhost", "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	host, err := filepath.Abs(filepath.Join("testdata", "forkhost", "host.c"))
	if err != nil {
		t.Fatal(err)
	}
	c := newConsumer(t, "1.24", randpModuleDir(t), map[string]string{"main.go": string(src)})
	for _, impl := range []string{"cgo", "purego"} {
		for _, mode := range []string{"c-shared", "c-archive"} {
			t.Run(impl+"_"+mode, func(t *testing.T) {
				dir := t.TempDir()
				args := []string{"build", "-buildmode=" + mode}
				if impl == "purego" {
					args = append(args, "-tags", "randp_purego")
				}
				prog := filepath.Join(dir, "host")
				if mode == "c-shared" {
					c.run(nil, goBin, append(args, "-o", filepath.Join(dir, "libhost.so"), ".")...)
					c.run(nil, gcc, "-O2", "-Wall", "-Werror", "-o", prog, host, "-I"+dir, "-L"+dir, "-lhost",
						"-Wl,-rpath,"+dir)
				} else {
					c.run(nil, goBin, append(args, "-o", filepath.Join(dir, "libhost.a"), ".")...)
					c.run(nil, gcc, "-O2", "-Wall", "-Werror", "-o", prog, host, "-I"+dir, filepath.Join(dir, "libhost.a"))
				}
				out := c.run(nil, prog)
				t.Log(out)
				var gotImpl string
				var forks, hung, vals, repeats, ctl, ctlRepeats int
				_, err := fmt.Sscanf(out, "%s %d forks, %d children hung in the Go runtime; %d values, %d repeated; control: %d values, %d repeated",
					&gotImpl, &forks, &hung, &vals, &repeats, &ctl, &ctlRepeats)
				if err != nil {
					t.Fatalf("cannot read the host's line %q: %v", out, err)
				}
				if gotImpl != impl+":" {
					t.Fatalf("the library reports the %s path, want %s", gotImpl, impl)
				}
				if forks != 1000 || hung > forks/2 {
					t.Fatalf("%d of %d children hung in the Go runtime (more than half)", hung, forks)
				}
				if repeats != 0 {
					t.Fatalf("%d of %d values drawn in the parent and its children appeared twice", repeats, vals)
				}
				if wantCtl := (forks - hung) * 9 / 10; ctlRepeats < wantCtl {
					t.Fatalf("the control generator repeated %d times in %d children; the host cannot see repeats", ctlRepeats, forks-hung)
				}
			})
		}
	}
}
