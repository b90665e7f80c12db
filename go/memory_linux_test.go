//go:build linux

package randp

import (
	"runtime"
	"syscall"
	"testing"
	"time"
	"unsafe"
)

// TestPagesAreWipedOnForkAndNotDumped checks, in the kernel's own account of
// the mapping, that the advice took effect: wf (wipe on fork), dd (don't
// dump), and lo (locked) when mlock succeeded. Under qemu-user
// (underQemuUser) the probe must refuse the page instead.
func TestPagesAreWipedOnForkAndNotDumped(t *testing.T) {
	p := mapPage()
	if underQemuUser() {
		if p != nil || !wipeRefused.Load() {
			t.Fatal("qemu-user ignores MADV_WIPEONFORK, and the probe did not see it")
		}
		return
	}
	if p == nil {
		t.Fatal("mapPage refused: this kernel (Linux >= 4.14) must honour MADV_WIPEONFORK " +
			"(if these tests run under qemu-user, set RANDP_TEST_EMULATOR to the emulator's name)")
	}
	defer releasePage(p)
	flags := vmFlagsOf(uintptr(p))
	if flags == nil {
		t.Fatalf("no mapping at %p in /proc/self/smaps", p)
	}
	if !flags["wf"] || !flags["dd"] {
		t.Errorf("the page's flags %v lack wf or dd", flags)
	}
	if (unsafe.Slice((*byte)(p), pageSize)[pageSize-1] == 1) != flags["lo"] {
		t.Errorf("mlock's result and the page's flags %v disagree", flags)
	}
	t.Logf("page flags: %v", flags)
	// The control: an ordinary mapping has no wf flag.
	b, err := syscall.Mmap(-1, 0, pageSize, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Munmap(b)
	if plain := vmFlagsOf(uintptr(unsafe.Pointer(&b[0]))); plain == nil || plain["wf"] {
		t.Fatalf("an ordinary mapping's flags are %v: the check cannot tell it from a page", plain)
	}
}

// TestPagesAreReleased checks that a page is unmapped when released, and that
// a Buffered's page is released once the Buffered is garbage.
func TestPagesAreReleased(t *testing.T) {
	p := mapPage()
	needPage(t, p != nil, "page") // see TestPagesAreWipedOnForkAndNotDumped
	releasePage(p)
	if flags := vmFlagsOf(uintptr(p)); flags["wf"] {
		t.Fatalf("a released page is still mapped: %v", flags)
	}
	// The pages are told apart by address, in the kernel's account: the
	// package's count of live pages also moves when the collector releases
	// the pages of sources that earlier tests dropped.
	pages := make(map[uintptr]bool)
	srcs := make([]*Buffered, 100)
	for i := range srcs {
		srcs[i] = Source()
		srcs[i].Uint64()
		pages[uintptr(unsafe.Pointer(srcs[i].mem))] = true
	}
	// mapped counts the pages that are wipe-on-fork mappings.
	mapped := func() int {
		n := 0
		for p := range pages {
			if vmFlagsOf(p)["wf"] {
				n++
			}
		}
		return n
	}
	if len(pages) != len(srcs) {
		t.Fatalf("100 Buffered sources in use share pages: %d distinct", len(pages))
	}
	if n := mapped(); n != len(pages) {
		t.Fatalf("of the pages of 100 Buffered sources in use, %d are wipe-on-fork mappings", n)
	}
	// Kept reachable until here: a collection during the loop would
	// otherwise release the pages of those already made.
	runtime.KeepAlive(srcs)
	deadline := time.Now().Add(10 * time.Second)
	for mapped() > 0 && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	if n := mapped(); n > 0 {
		t.Fatalf("%d pages of 100 unreachable Buffered sources are still mapped", n)
	}
}

// TestPagesAreLockedWhereAllowed: a page is locked with mlock where
// RLIMIT_MEMLOCK allows (the README's "Forks, dumps and swap"), so its
// output never reaches swap. Whether the limit allows is asked of the kernel
// first, with a page of the test's own; TestPagesAreWipedOnForkAndNotDumped
// only checks that mapPage's record of the lock agrees with the kernel's,
// which a mapPage that never locks also passes.
func TestPagesAreLockedWhereAllowed(t *testing.T) {
	b, err := syscall.Mmap(-1, 0, pageSize, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		t.Fatal(err)
	}
	allowed := syscall.Mlock(b) == nil
	syscall.Munmap(b) // unlocks it
	if !allowed {
		t.Skip("RLIMIT_MEMLOCK leaves no room for a page: mapPage locks nothing here")
	}
	p := mapPage()
	needPage(t, p != nil, "page")
	defer releasePage(p)
	if flags := vmFlagsOf(uintptr(p)); !flags["lo"] || unsafe.Slice((*byte)(p), pageSize)[pageSize-1] != 1 {
		t.Fatalf("a page is not locked (flags %v) where the test could lock one", flags)
	}
}
