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
	if pageLocked(p) != flags["lo"] {
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

// TestPagesAreReleased checks that a page is zeroed and handed out again when
// released, and that a Buffered's page is released once no Buffered holds
// it.
func TestPagesAreReleased(t *testing.T) {
	p := mapPage()
	needPage(t, p != nil, "page") // see TestPagesAreWipedOnForkAndNotDumped
	b := unsafe.Slice((*byte)(p), pageSize)
	// Past the page's raceShadow, which points to its shadow in race builds.
	for i := unsafe.Sizeof(raceShadow{}); i < pageSize; i++ {
		b[i] = 0xA5
	}
	releasePage(p)
	for i, c := range b {
		if c != 0 {
			t.Fatalf("byte %d of a released page is %#x", i, c)
		}
	}
	if q := mapPage(); q != p {
		t.Fatalf("the pool handed out %p, not the page just released, %p", q, p)
	} else {
		releasePage(q)
	}
	// The pages are told apart by address: the package's count of live
	// pages also moves when the collector releases the pages of sources
	// that earlier tests dropped.
	pages := make(map[unsafe.Pointer]bool)
	srcs := make([]*Buffered, 100)
	for i := range srcs {
		srcs[i] = Source()
		srcs[i].Uint64()
		pages[unsafe.Pointer(srcs[i].mem)] = true
	}
	if len(pages) != len(srcs) {
		t.Fatalf("100 Buffered sources in use share pages: %d distinct", len(pages))
	}
	for p := range pages {
		if !vmFlagsOf(uintptr(p))["wf"] {
			t.Fatalf("the page %p of a Buffered in use is not wipe-on-fork", p)
		}
	}
	// held counts the pages that are not on the free list.
	held := func() int {
		pool.Lock()
		defer pool.Unlock()
		n := len(pages)
		for _, p := range pool.free {
			if pages[p] {
				n--
			}
		}
		return n
	}
	if n := held(); n != len(pages) {
		t.Fatalf("of the pages of 100 Buffered sources in use, %d are held", n)
	}
	// Kept reachable until here: a collection during the loop would
	// otherwise release the pages of those already made.
	runtime.KeepAlive(srcs)
	deadline := time.Now().Add(10 * time.Second)
	for held() > 0 && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	if n := held(); n > 0 {
		t.Fatalf("%d pages of 100 unreachable Buffered sources are not released", n)
	}
}

// TestPagesAreLockedWithinBudget: the pool's first pages are locked with
// mlock, up to the lock budget (the README's "Forks, dumps and swap"), so
// their output never reaches swap, and no more: at most 1/16 of
// RLIMIT_MEMLOCK and 1 MiB. Whether the limit allows a page at all is asked
// of the kernel first, with a page of the test's own;
// TestPagesAreWipedOnForkAndNotDumped only checks that the pool's record of
// the lock agrees with the kernel's, which a pool that never locks also
// passes.
func TestPagesAreLockedWithinBudget(t *testing.T) {
	b, err := syscall.Mmap(-1, 0, pageSize, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		t.Fatal(err)
	}
	allowed := syscall.Mlock(b) == nil
	syscall.Munmap(b) // unlocks it
	budget := lockBudget()
	if !allowed || budget == 0 {
		t.Skipf("RLIMIT_MEMLOCK leaves no room for a page (budget %d pages): the pool locks nothing here", budget)
	}
	p := mapPage()
	needPage(t, p != nil, "page")
	defer releasePage(p)
	pool.Lock()
	mapped, locked := pool.mapped, make([]unsafe.Pointer, 0, len(pool.locked))
	for q := range pool.locked {
		locked = append(locked, q)
	}
	pool.Unlock()
	if want := min(budget, mapped); len(locked) != want || lockedPages.Load() != int64(want) {
		t.Fatalf("%d pages locked (count %d) of %d mapped; want the budget's %d", len(locked), lockedPages.Load(), mapped, want)
	}
	for _, q := range locked {
		if flags := vmFlagsOf(uintptr(q)); !flags["lo"] {
			t.Fatalf("a page the pool locked is not locked (flags %v)", flags)
		}
	}
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(rlimitMemlock, &rl); err != nil {
		t.Fatal(err)
	}
	if bytes := uint64(budget) * pageSize; bytes > rl.Cur/16 || bytes > 1<<20 {
		t.Fatalf("the lock budget, %d bytes, exceeds 1/16 of RLIMIT_MEMLOCK (%d) or 1 MiB", bytes, rl.Cur)
	}
}
