package randp

import (
	"os"
	"testing"
)

// underQemuUser reports whether the tests run under qemu-user, which the
// one who runs them says by naming the emulator in RANDP_TEST_EMULATOR (the
// Makefile's test-go-arm64 and test-go-s390x do, as the Rust tests' runners
// do; qemu-user hands the environment on to the program it runs). qemu-user accepts any madvise advice and ignores it, so there the
// package rightly refuses every page (memory_linux.go) and keeps no Go-side
// output. Without the variable the kernel is taken to be real, whatever the
// architecture: on Linux it must honour MADV_WIPEONFORK (Linux 4.14).
func underQemuUser() bool { return os.Getenv("RANDP_TEST_EMULATOR") != "" }

// needPage ends a test that needs a Go-side page when the package kept none
// (kept is false); what names the page ("buffer page"). Under qemu-user,
// where that is expected, it skips the test; anywhere else it fails it.
func needPage(t testing.TB, kept bool, what string) {
	t.Helper()
	switch {
	case kept:
	case underQemuUser():
		t.Skipf("qemu-user (RANDP_TEST_EMULATOR) ignores MADV_WIPEONFORK: no %s is kept, every value is drawn directly", what)
	default:
		t.Fatalf("no %s: the kernel does not wipe it in a forked child "+
			"(if these tests run under qemu-user, set RANDP_TEST_EMULATOR to the emulator's name)", what)
	}
}
