//go:build linux && (amd64 || arm64)

package randp

import (
	"os"
	"runtime"
	"strings"
	"syscall"
	"testing"
)

// entropyRole tells a re-run test binary which draw to make with getrandom(2)
// failing.
const entropyRole = "RANDP_TEST_ENTROPY_FAILS"

// TestEntropyFailureEndsProcess: if the OS entropy source fails, the
// library (cgo) or crypto/rand (pure Go) prints a message and ends the
// process, and nothing returns weak bytes (the README's Go section). In a
// child process each, a seccomp filter makes getrandom(2) fail with EPERM
// (as a container's profile may) on the drawing thread before its first
// draw; then the child draws through one API and prints what it got. It must
// end with a non-zero status, print the path's message and print no value.
func TestEntropyFailureEndsProcess(t *testing.T) {
	if role := os.Getenv(entropyRole); role != "" {
		entropyChild(role)
		return
	}
	if underQemuUser() {
		t.Skip("qemu-user (RANDP_TEST_EMULATOR) cannot start a program of the guest's architecture by itself")
	}
	want := map[string]string{
		"cgo":    "randp: the OS entropy source failed",
		"purego": "randp: the operating system's entropy source failed",
	}[Implementation()]
	for _, role := range []string{"Uint64", "Read8", "Read600", "Read4096", "Source"} {
		t.Run(role, func(t *testing.T) {
			out, err := rerun("TestEntropyFailureEndsProcess", entropyRole+"="+role)
			got := string(out)
			switch {
			case strings.Contains(got, "entropy: drew"):
				t.Fatalf("a draw returned with getrandom failing:\n%s", got)
			case err == nil:
				t.Fatalf("the child exited 0 with getrandom failing:\n%s", got)
			case !strings.Contains(got, want):
				t.Fatalf("the child ended without %q:\n%s", want, got)
			}
		})
	}
}

// entropyChild makes getrandom fail on this thread and draws on it.
func entropyChild(role string) {
	runtime.LockOSThread() // the filter applies to this thread
	if err := failGetrandom(); err != 0 {
		println("entropy: no seccomp filter:", err.Error())
		os.Exit(1)
	}
	var v uint64
	switch role {
	case "Uint64":
		v = Uint64()
	case "Source":
		v = Source().Uint64()
	default:
		n := map[string]int{"Read8": 8, "Read600": 600, "Read4096": 4096}[role]
		b := make([]byte, n)
		Read(b)
		v = uint64(b[0]) | uint64(b[n-1])<<8
	}
	println("entropy: drew", v)
	os.Exit(0)
}

// failGetrandom installs on the calling thread a seccomp filter under which
// getrandom(2) fails with EPERM, and every other call runs.
func failGetrandom() syscall.Errno {
	const eperm = 1
	nr := uint32(318) // SYS_getrandom
	if runtime.GOARCH == "arm64" {
		nr = 278
	}
	return installFilter([]sockFilter{
		{bpfLd, 0, 0, seccompArch},
		{bpfJeq, 0, 3, auditArch()},
		{bpfLd, 0, 0, seccompNr},
		{bpfJeq, 0, 1, nr},
		{bpfRet, 0, 0, seccompErrno | eperm},
		{bpfRet, 0, 0, seccompAllow},
	})
}
