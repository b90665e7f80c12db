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
		"purego": "crypto/rand: failed to read random data",
	}[Implementation()]
	for _, role := range []string{"Uint64", "Read8", "Read600", "Read4096", "Source"} {
		t.Run(role, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^TestEntropyFailureEndsProcess$")
			cmd.Env = append(os.Environ(), entropyRole+"="+role)
			out, err := cmd.CombinedOutput()
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
	const (
		ld, jeq, ret       = 0x20, 0x15, 0x06
		retAllow, retErrno = 0x7fff0000, 0x00050000
		offNr, offArch     = 0, 4
		prSetNoNewPrivs    = 38
		prSetSeccomp       = 22
		seccompModeFilter  = 2
		eperm              = 1
	)
	arch, nr := uint32(0xc000003e), uint32(318) // AUDIT_ARCH_X86_64, SYS_getrandom
	if runtime.GOARCH == "arm64" {
		arch, nr = 0xc00000b7, 278
	}
	type sockFilter struct {
		code   uint16
		jt, jf uint8
		k      uint32
	}
	prog := []sockFilter{
		{ld, 0, 0, offArch},
		{jeq, 0, 3, arch},
		{ld, 0, 0, offNr},
		{jeq, 0, 1, nr},
		{ret, 0, 0, retErrno | eperm},
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
