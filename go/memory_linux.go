//go:build linux

package randp

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"syscall"
	"unsafe"
)

// Linux: every Go-side buffer and pure-Go generator state lives in a page of
// its own, mapped outside the Go heap, that a forked child finds zeroed and
// that stays out of core dumps and, where RLIMIT_MEMLOCK allows, out of swap.
//
// The page is an anonymous private mapping advised MADV_WIPEONFORK (Linux
// 4.14) and MADV_DONTDUMP, and locked with mlock as far as the limit allows
// (best effort, as the randp library does before Linux 6.11). Zero is the
// empty state of every structure kept there: a child's first draw refills or
// reseeds. Whether the kernel honours the advice is checked, not assumed, as
// src/os/linux/state_memory.rs does: MADV_WIPEONFORK must succeed on every
// page; on every page an invalid advice and MADV_WIPEONFORK at an address
// that is not page-aligned must fail (some environments, qemu-user for one,
// accept any advice and ignore it, and a seccomp filter can make this advice
// return 0 without running it, at any time); and once per process the
// kernel's own account of the first page, the wf flag in /proc/self/smaps,
// must show it (which also catches a filter that fakes only page-aligned
// calls, if it is in place by then). Where a check fails,
// or /proc cannot be read, mapPage returns nil and the package keeps no
// Go-side output at all: every value is drawn directly (noBuffer, noShard).
//
// MAP_DROPPABLE (Linux 6.11), which the randp library uses for its own page,
// is not used here: the kernel may drop such a page at any moment, and the Go
// fast paths read a value and then zero it without checking the page between
// the two steps, so a drop in that gap would hand out zeroes.

// pageSize is the size of every mapping: one 4 KiB page (or the system's
// larger page, of which the mapping uses the first 4 KiB).
const pageSize = 4096

const (
	madvDontdump   = 0x10 // MADV_DONTDUMP, Linux 3.4
	madvWipeonfork = 0x12 // MADV_WIPEONFORK, Linux 4.14
)

// wipeRefused is set once the kernel was seen not to honour MADV_WIPEONFORK;
// wipeVerified once /proc/self/smaps showed that it does.
var wipeRefused, wipeVerified atomic.Bool

// livePages counts the pages mapped and not yet released, for the tests.
var livePages atomic.Int64

// lockedPages counts the live pages that mlock locked, for the tests.
var lockedPages atomic.Int64

// mapPage returns pageSize zeroed bytes outside the Go heap that a forked
// child finds zeroed, or nil when the kernel does not honour that (or has no
// memory). The memory must hold no Go pointers; releasePage gives it back.
func mapPage() unsafe.Pointer {
	if wipeRefused.Load() {
		return nil
	}
	b, err := syscall.Mmap(-1, 0, pageSize, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		return nil
	}
	p := unsafe.Pointer(unsafe.SliceData(b))
	// Besides the advice itself, two calls a kernel refuses (EINVAL) before
	// it looks at the memory must fail: an invalid advice, and this advice
	// at an address that is not page-aligned. Either succeeding means
	// something answers madvise without running it, for every advice or,
	// as a seccomp filter that tests the advice argument can, for this
	// one; that is checked on every page, since a filter may come at any
	// time. The kernel's own account is read once.
	if syscall.Madvise(b, madvWipeonfork) != nil || syscall.Madvise(b, -1) == nil ||
		syscall.Madvise(b[1:], madvWipeonfork) == nil ||
		!wipeVerified.Load() && !vmFlagsOf(uintptr(p))["wf"] {
		wipeRefused.Store(true)
		syscall.Munmap(b)
		return nil
	}
	wipeVerified.Store(true)
	// A refused DONTDUMP or mlock costs hygiene (core dumps, swap), not
	// fork safety, so their results are recorded, not required.
	syscall.Madvise(b, madvDontdump)
	if syscall.Mlock(b) == nil {
		lockedPages.Add(1)
		b[pageSize-1] = 1 // marks the page locked, for releasePage
	}
	livePages.Add(1)
	raceMapped(p)
	return p
}

// releasePage zeroes and unmaps a page from mapPage; nothing may use it
// afterwards.
func releasePage(p unsafe.Pointer) {
	// SAFETY: p is the start of a whole pageSize mapping from mapPage that
	// its owner no longer uses; syscall.Munmap finds the mapping by the
	// slice's last byte, as syscall.Mmap recorded it.
	b := unsafe.Slice((*byte)(p), pageSize)
	raceUnmapping(p)
	if b[pageSize-1] == 1 {
		lockedPages.Add(-1)
	}
	clear(b)
	syscall.Munmap(b)
	livePages.Add(-1)
}

// vmFlagsOf returns the VmFlags of the mapping that holds addr, as the
// kernel reports them in /proc/self/smaps (wf: wipe on fork, dd: not dumped,
// lo: locked), or nil if it cannot tell. (The kernel merges adjacent
// mappings with the same flags, so the one holding addr may start before
// it.)
func vmFlagsOf(addr uintptr) map[string]bool {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		return nil
	}
	defer f.Close()
	in := false
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		// A mapping's header starts with its address range, "start-end"
		// in hexadecimal; the lines after it, down to the next header,
		// are "Name: value".
		first, _, _ := strings.Cut(line, " ")
		if !strings.HasSuffix(first, ":") {
			var start, end uintptr
			_, err := fmt.Sscanf(first, "%x-%x", &start, &end)
			in = err == nil && start <= addr && addr < end
		} else if in && first == "VmFlags:" {
			flags := make(map[string]bool)
			for _, fl := range strings.Fields(strings.TrimPrefix(line, "VmFlags:")) {
				flags[fl] = true
			}
			return flags
		}
	}
	return nil
}
