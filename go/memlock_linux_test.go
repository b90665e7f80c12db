//go:build linux

package randp

import (
	"os"
	"os/exec"
	"runtime"
	"strings"
	"syscall"
	"testing"
)

// perRequestRole tells a re-run test binary to make sources per request
// under a lowered RLIMIT_MEMLOCK.
const perRequestRole = "RANDP_TEST_PER_REQUEST"

// perRequestLimit is the child's RLIMIT_MEMLOCK: 8 MiB, a common default
// for an unprivileged user.
const perRequestLimit = 8 << 20

// TestSourcePerRequestLeavesLockBudget: a program that makes a source per
// request, as rand.New(randp.Source()), must not use up the locked memory
// that RLIMIT_MEMLOCK gives the process (a secret store or io_uring in the
// same program needs it). In a child with an RLIMIT_MEMLOCK of 8 MiB and,
// when the test runs as root, without CAP_IPC_LOCK (which would let it lock
// past the limit), 20,000 sources each draw a value and stay reachable;
// then the program's own mlock of 64 KiB must succeed, and the package must
// hold no more than 1/16 of the limit locked. The child first checks that
// the limit binds it: locking more than the limit must fail.
func TestSourcePerRequestLeavesLockBudget(t *testing.T) {
	if os.Getenv(perRequestRole) != "" {
		perRequestChild()
		return
	}
	if underQemuUser() {
		t.Skip("qemu-user (RANDP_TEST_EMULATOR) cannot start a program of the guest's architecture by itself")
	}
	prlimit, err := exec.LookPath("prlimit")
	if err != nil {
		t.Fatalf("prlimit (util-linux) is needed: %v", err)
	}
	args := []string{"--memlock=8388608:8388608", "--"}
	if os.Geteuid() == 0 {
		setpriv, err := exec.LookPath("setpriv")
		if err != nil {
			t.Fatalf("setpriv (util-linux) is needed to drop CAP_IPC_LOCK: %v", err)
		}
		args = append(args, setpriv, "--bounding-set=-ipc_lock", "--")
	}
	args = append(args, os.Args[0], "-test.run=^TestSourcePerRequestLeavesLockBudget$")
	cmd := exec.Command(prlimit, args...)
	cmd.Env = append(os.Environ(), perRequestRole+"=1")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "per-request: own mlock ok") {
		t.Fatalf("the child's own mlock after 20,000 sources failed (%v):\n%s", err, out)
	}
	t.Logf("%s", out)
}

// perRequestChild is the child of TestSourcePerRequestLeavesLockBudget.
func perRequestChild() {
	fail := func(msg string, err error) {
		println("per-request:", msg, err.Error())
		os.Exit(1)
	}
	big, err := syscall.Mmap(-1, 0, perRequestLimit+(1<<20), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		fail("mmap", err)
	}
	if syscall.Mlock(big) == nil {
		println("per-request: locked 9 MiB under an 8 MiB limit: the limit does not bind this process")
		os.Exit(1)
	}
	syscall.Munmap(big)
	srcs := make([]*Buffered, 20000)
	for i := range srcs {
		srcs[i] = Source()
		srcs[i].Uint64()
	}
	own, err := syscall.Mmap(-1, 0, 64<<10, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		fail("mmap", err)
	}
	if err := syscall.Mlock(own); err != nil {
		fail("own mlock of 64 KiB failed:", err)
	}
	locked := lockedPages.Load() * pageSize
	if locked > perRequestLimit/16 {
		println("per-request: the package holds", locked, "bytes locked, more than 1/16 of the limit")
		os.Exit(1)
	}
	runtime.KeepAlive(srcs)
	println("per-request: own mlock ok; the package holds", locked, "bytes locked")
	os.Exit(0)
}
