//go:build linux

package randp

import (
	"bufio"
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"
	"unsafe"
)

// vmFlags returns the VmFlags of the mapping that starts at p, from
// /proc/self/smaps, or "" if there is none.
func vmFlags(t *testing.T, p unsafe.Pointer) string {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	start := fmt.Sprintf("%x-", uintptr(p))
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		// A mapping's header starts with its address range; the lines
		// after it, down to the next header, are "Name: value".
		if first, _, _ := strings.Cut(line, " "); !strings.HasSuffix(first, ":") {
			in = strings.HasPrefix(line, start)
		}
		if in && strings.HasPrefix(line, "VmFlags:") {
			return line
		}
	}
	return ""
}

// native reports whether these tests run where the kernel's advice can be
// checked: natively on Linux/amd64 (the arm64 tests run under qemu-user,
// which accepts any advice and ignores it).
func native() bool { return runtime.GOARCH == "amd64" }

// TestPagesAreWipedOnForkAndNotDumped checks, in the kernel's own account of
// the mapping, that the advice took effect: wf (wipe on fork), dd (don't
// dump), and lo (locked) when mlock succeeded. Under qemu-user the probe must
// refuse the page instead.
func TestPagesAreWipedOnForkAndNotDumped(t *testing.T) {
	p := mapPage()
	if !native() {
		if p != nil || !wipeRefused.Load() {
			t.Fatal("qemu-user ignores MADV_WIPEONFORK, and the probe did not see it")
		}
		return
	}
	if p == nil {
		t.Fatal("mapPage refused: this kernel (Linux >= 4.14) must honour MADV_WIPEONFORK")
	}
	defer releasePage(p)
	flags := vmFlags(t, p)
	if flags == "" {
		t.Fatalf("no mapping at %p in /proc/self/smaps", p)
	}
	for _, f := range []string{"wf", "dd"} {
		if !strings.Contains(flags+" ", " "+f+" ") {
			t.Errorf("the page's %s lacks %s", flags, f)
		}
	}
	locked := strings.Contains(flags+" ", " lo ")
	if (unsafe.Slice((*byte)(p), pageSize)[pageSize-1] == 1) != locked {
		t.Errorf("mlock's result and the page's %s disagree", flags)
	}
	t.Logf("page flags: %s", flags)
}

// TestPagesAreReleased checks that a page is unmapped when released, and that
// a Buffered's page is released once the Buffered is garbage.
func TestPagesAreReleased(t *testing.T) {
	if !native() {
		t.Skip("no pages are mapped under qemu-user (see TestPagesAreWipedOnForkAndNotDumped)")
	}
	p := mapPage()
	releasePage(p)
	if flags := vmFlags(t, p); strings.Contains(flags, " wf") {
		t.Fatalf("a released page is still mapped: %s", flags)
	}
	before := livePages.Load()
	for range 100 {
		s := Source()
		s.Uint64()
	}
	if got := livePages.Load(); got < before+100 {
		t.Fatalf("100 Buffered sources in use map %d pages, want 100", got-before)
	}
	deadline := time.Now().Add(10 * time.Second)
	for livePages.Load() > before && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	if got := livePages.Load(); got > before {
		t.Fatalf("%d pages of 100 unreachable Buffered sources are still mapped", got-before)
	}
}
