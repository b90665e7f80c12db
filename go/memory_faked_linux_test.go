//go:build linux && (amd64 || arm64)

package randp

import (
	"os"
	"os/exec"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"unsafe"
)

// fakedAdviceRole tells a re-run test binary which faked-advice case to be.
const fakedAdviceRole = "RANDP_TEST_FAKED_ADVICE"

// TestFakedAdviceKeepsNoPage runs, in a child process each, a seccomp filter
// that makes madvise(MADV_WIPEONFORK) return 0 without running it; mapPage
// must then give no page, so that a C host's forked child cannot inherit
// Go-side output:
//   - late: the filter comes after the process mapped (and verified) its
//     first page, and fakes every such call; only the check made on every
//     page, that the advice at an address that is not page-aligned fails,
//     tells;
//   - aligned: the filter is there from the start and fakes only
//     page-aligned calls, as the kernel accepts them; only the kernel's own
//     account, the wf flag in /proc/self/smaps, tells;
//   - late-any: the filter comes after the first page and fakes every
//     madvise at a page-aligned address, whatever the advice; the advice at
//     an address that is not page-aligned still fails, as the kernel fails
//     it, and only the check that an invalid advice fails tells.
func TestFakedAdviceKeepsNoPage(t *testing.T) {
	if role := os.Getenv(fakedAdviceRole); role != "" {
		fakedAdviceChild(role)
		return
	}
	if p := mapPage(); p == nil {
		t.Skip("this kernel or emulator gives no page without a filter (TestPagesAreWipedOnForkAndNotDumped says whether it must)")
	} else {
		releasePage(p)
	}
	for _, role := range []string{"late", "aligned", "late-any"} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestFakedAdviceKeepsNoPage$")
		cmd.Env = append(os.Environ(), fakedAdviceRole+"="+role)
		out, _ := cmd.CombinedOutput()
		switch got := string(out); {
		case strings.Contains(got, "faked-advice: refused"):
		case strings.Contains(got, "faked-advice: no seccomp") && underQemuUser():
			t.Skipf("%s: %s (qemu-user refuses seccomp filters)", role, strings.TrimSpace(got))
		default:
			t.Errorf("%s: the child must keep no page under the filter:\n%s", role, got)
		}
	}
}

// fakedAdviceChild installs the role's filter on this thread and reports
// whether mapPage, called on the same thread, refused the page.
func fakedAdviceChild(role string) {
	runtime.LockOSThread() // the filter applies to this thread
	if role == "late" || role == "late-any" {
		p := mapPage()
		if p == nil {
			println("faked-advice: no page before the filter")
			os.Exit(1)
		}
		releasePage(p)
	}
	if err := fakeAdvice(role != "late", role == "late-any"); err != 0 {
		println("faked-advice: no seccomp filter:", err.Error())
		os.Exit(1)
	}
	if p := mapPage(); p != nil || !wipeRefused.Load() {
		println("faked-advice: a page was mapped under the filter")
		os.Exit(1)
	}
	println("faked-advice: refused")
	os.Exit(0)
}

// fakeWipeOnFork installs on the calling thread a seccomp filter under which
// madvise(MADV_WIPEONFORK) returns 0 without running (only for page-aligned
// addresses if alignedOnly), and every other call runs.
func fakeWipeOnFork(alignedOnly bool) syscall.Errno { return fakeAdvice(alignedOnly, false) }

// fakeAdvice is fakeWipeOnFork, faking every advice, not MADV_WIPEONFORK
// only, if anyAdvice.
func fakeAdvice(alignedOnly, anyAdvice bool) syscall.Errno {
	const (
		ld, jeq, jset, ret = 0x20, 0x15, 0x45, 0x06 // BPF_LD|W|ABS, BPF_JMP|JEQ|K, BPF_JMP|JSET|K, BPF_RET|K
		retAllow, retErrno = 0x7fff0000, 0x00050000 // SECCOMP_RET_ALLOW, SECCOMP_RET_ERRNO (errno 0: success)
		offNr, offArch     = 0, 4                   // struct seccomp_data
		offArg0, offArg2   = 16, 32                 // low 32 bits, little-endian
		prSetNoNewPrivs    = 38
		prSetSeccomp       = 22
		seccompModeFilter  = 2
	)
	arch := uint32(0xc000003e) // AUDIT_ARCH_X86_64
	if runtime.GOARCH == "arm64" {
		arch = 0xc00000b7 // AUDIT_ARCH_AARCH64
	}
	type sockFilter struct {
		code   uint16
		jt, jf uint8
		k      uint32
	}
	alignJump := uint8(0) // with alignedOnly, a misaligned address skips to allow
	if alignedOnly {
		alignJump = 1
	}
	adviceJump := uint8(3) // an advice other than MADV_WIPEONFORK skips to allow
	if anyAdvice {
		adviceJump = 0
	}
	prog := []sockFilter{
		{ld, 0, 0, offArch},
		{jeq, 0, 7, arch},
		{ld, 0, 0, offNr},
		{jeq, 0, 5, uint32(syscall.SYS_MADVISE)},
		{ld, 0, 0, offArg2},
		{jeq, 0, adviceJump, madvWipeonfork},
		{ld, 0, 0, offArg0},
		{jset, alignJump, 0, 0xfff},
		{ret, 0, 0, retErrno},
		{ret, 0, 0, retAllow},
	}
	fprog := struct {
		len    uint16
		filter *sockFilter
	}{uint16(len(prog)), &prog[0]}
	if _, _, err := syscall.RawSyscall(syscall.SYS_PRCTL, prSetNoNewPrivs, 1, 0); err != 0 {
		return err
	}
	// SAFETY: fprog points at prog, a well-formed filter that outlives the
	// call, which copies it.
	_, _, err := syscall.RawSyscall(syscall.SYS_PRCTL, prSetSeccomp, seccompModeFilter, uintptr(unsafe.Pointer(&fprog)))
	runtime.KeepAlive(prog)
	return err
}
