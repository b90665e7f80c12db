//go:build linux && (amd64 || arm64)

package randp

import (
	"os"
	"runtime"
	"strings"
	"syscall"
	"testing"
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
		out, _ := rerun("TestFakedAdviceKeepsNoPage", fakedAdviceRole+"="+role)
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
		forgetPool() // the next mapPage maps, and checks, a new mapping
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
	alignJump := uint8(0) // with alignedOnly, a misaligned address skips to allow
	if alignedOnly {
		alignJump = 1
	}
	adviceJump := uint8(3) // an advice other than MADV_WIPEONFORK skips to allow
	if anyAdvice {
		adviceJump = 0
	}
	return installFilter([]sockFilter{
		{bpfLd, 0, 0, seccompArch},
		{bpfJeq, 0, 7, auditArch()},
		{bpfLd, 0, 0, seccompNr},
		{bpfJeq, 0, 5, uint32(syscall.SYS_MADVISE)},
		{bpfLd, 0, 0, seccompArg2},
		{bpfJeq, 0, adviceJump, madvWipeonfork},
		{bpfLd, 0, 0, seccompArg0},
		{bpfJset, alignJump, 0, 0xfff},
		{bpfRet, 0, 0, seccompErrno}, // errno 0: success
		{bpfRet, 0, 0, seccompAllow},
	})
}
