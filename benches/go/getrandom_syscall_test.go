package peers

// The "before Go 1.24" reader must make a getrandom system call on every
// Read, or its column measures something else (golang.org/x/sys's
// unix.Getrandom, which goes through the vDSO on Linux 6.11+, did). The test
// runs itself again in a child process that installs a seccomp filter making
// the getrandom system call fail with an errno no kernel returns for it
// (EHWPOISON); every Read of getrandomRead must then fail with it. The
// control is unix.Getrandom under the same filter: where the kernel has the
// vDSO getrandom it keeps succeeding (no system call), which is what the old
// column measured by mistake.

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

const (
	seccompChildEnv = "RANDP_BENCH_SECCOMP_CHILD"
	seccompReads    = 1000
	filterErrno     = unix.EHWPOISON
)

func TestGetrandomReadMakesASystemCall(t *testing.T) {
	if os.Getenv(seccompChildEnv) == "1" {
		seccompChild()
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestGetrandomReadMakesASystemCall$", "-test.v")
	cmd.Env = append(os.Environ(), seccompChildEnv+"=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child under seccomp: %v\n%s", err, out)
	}
	var raw, rawErrno, xsys int = -1, -1, -1
	vdso := ""
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	for sc.Scan() {
		line := sc.Text()
		if rest, ok := strings.CutPrefix(line, "seccomp-result: "); ok {
			if _, err := fmt.Sscanf(rest, "raw_failed=%d raw_errno_match=%d xsys_failed=%d", &raw, &rawErrno, &xsys); err != nil {
				t.Fatalf("bad child line %q: %v", line, err)
			}
		}
		if rest, ok := strings.CutPrefix(line, "seccomp-vdso: "); ok {
			vdso = rest
		}
	}
	if raw < 0 {
		t.Fatalf("the child printed no result:\n%s", out)
	}
	if raw != seccompReads || rawErrno != seccompReads {
		t.Fatalf("getrandomRead under a filter that fails getrandom(2): %d of %d Reads failed, %d with the filter's errno; "+
			"want all: the \"before Go 1.24\" column would not be one system call per Read", raw, seccompReads, rawErrno)
	}
	fmt.Printf("getrandomRead: %d of %d Reads entered the getrandom system call (all failed with the seccomp filter's errno)\n", raw, seccompReads)
	if vdso == "yes" {
		// The control: the vDSO path makes no system call once its state is
		// keyed; a reseed of the kernel's generator in the window may cost one.
		if xsys > seccompReads/100 {
			t.Fatalf("control: unix.Getrandom failed %d of %d times under the filter; the vDSO path should not enter the kernel", xsys, seccompReads)
		}
		fmt.Printf("control: golang.org/x/sys unix.Getrandom failed %d of %d times under the same filter (the vDSO: no system call)\n", xsys, seccompReads)
	} else {
		fmt.Printf("control not applicable: this kernel has no vDSO getrandom (%s), so unix.Getrandom makes the system call too\n", vdso)
	}
}

// seccompChild installs the filter on every thread, then reads.
func seccompChild() {
	runtime.LockOSThread()
	var buf [32]byte
	// Key the vDSO state of this thread before the filter: its first use
	// fetches a key with the system call.
	_, xerr := unix.Getrandom(buf[:], 0)
	vdso := "yes"
	var uts unix.Utsname
	if unix.Uname(&uts) == nil && !kernelAtLeast(unix.ByteSliceToString(uts.Release[:]), 6, 11) {
		vdso = "kernel " + unix.ByteSliceToString(uts.Release[:]) + " < 6.11"
	}
	if xerr != nil {
		fmt.Printf("seccomp-child: unix.Getrandom before the filter: %v\n", xerr)
		os.Exit(2)
	}
	if err := installGetrandomFilter(); err != nil {
		fmt.Printf("seccomp-child: %v\n", err)
		os.Exit(2)
	}
	raw, match, xsys := 0, 0, 0
	for range seccompReads {
		if _, err := getrandomRead(buf[:]); err != nil {
			raw++
			if errors.Is(err, filterErrno) {
				match++
			}
		}
	}
	for range seccompReads {
		if _, err := unix.Getrandom(buf[:], 0); err != nil {
			xsys++
		}
	}
	fmt.Printf("seccomp-vdso: %s\n", vdso)
	fmt.Printf("seccomp-result: raw_failed=%d raw_errno_match=%d xsys_failed=%d\n", raw, match, xsys)
}

func kernelAtLeast(release string, major, minor int) bool {
	var a, b int
	if _, err := fmt.Sscanf(release, "%d.%d", &a, &b); err != nil {
		return false
	}
	return a > major || (a == major && b >= minor)
}

// installGetrandomFilter makes getrandom(2) fail with filterErrno on every
// thread of the process and allows every other system call.
func installGetrandomFilter() error {
	var arch uint32
	switch runtime.GOARCH {
	case "amd64":
		arch = unix.AUDIT_ARCH_X86_64
	case "arm64":
		arch = unix.AUDIT_ARCH_AARCH64
	default:
		return fmt.Errorf("no seccomp audit arch for %s", runtime.GOARCH)
	}
	const (
		offNr   = 0 // struct seccomp_data: int nr; __u32 arch; ...
		offArch = 4
	)
	stmt := func(code uint16, k uint32) unix.SockFilter { return unix.SockFilter{Code: code, K: k} }
	jump := func(code uint16, k uint32, jt, jf uint8) unix.SockFilter {
		return unix.SockFilter{Code: code, Jt: jt, Jf: jf, K: k}
	}
	prog := []unix.SockFilter{
		stmt(unix.BPF_LD|unix.BPF_W|unix.BPF_ABS, offArch),
		jump(unix.BPF_JMP|unix.BPF_JEQ|unix.BPF_K, arch, 1, 0),
		stmt(unix.BPF_RET|unix.BPF_K, unix.SECCOMP_RET_ALLOW),
		stmt(unix.BPF_LD|unix.BPF_W|unix.BPF_ABS, offNr),
		jump(unix.BPF_JMP|unix.BPF_JEQ|unix.BPF_K, unix.SYS_GETRANDOM, 0, 1),
		stmt(unix.BPF_RET|unix.BPF_K, unix.SECCOMP_RET_ERRNO|uint32(filterErrno)),
		stmt(unix.BPF_RET|unix.BPF_K, unix.SECCOMP_RET_ALLOW),
	}
	fprog := unix.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("PR_SET_NO_NEW_PRIVS: %w", err)
	}
	_, _, errno := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, unix.SECCOMP_FILTER_FLAG_TSYNC,
		uintptr(unsafe.Pointer(&fprog)))
	runtime.KeepAlive(prog)
	if errno != 0 {
		return fmt.Errorf("seccomp(SECCOMP_SET_MODE_FILTER, TSYNC): %w", errno)
	}
	return nil
}
