//go:build linux

package randp

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"unsafe"
)

// Linux: every Go-side buffer and pure-Go generator state lives in a page of
// its own, a 4 KiB slot of a mapping outside the Go heap that a forked child
// finds zeroed, that stays out of core dumps and, up to a fixed budget, out
// of swap.
//
// Each mapping of the pool is anonymous and private, chunkPages pages long,
// advised MADV_WIPEONFORK (Linux 4.14) and MADV_DONTDUMP, and locked with
// mlock within the lock budget: at most 1/16 of RLIMIT_MEMLOCK and never
// more than 1 MiB, so that the package leaves the process's own budget of
// locked memory to the program (pages beyond it are not locked, and may be
// swapped out, but are wiped on fork and not dumped all the same). Zero is
// the empty state of every structure kept there: a child's first draw
// refills or reseeds, and a released page is zeroed before the pool hands
// it out again. Whether the kernel honours the advice is checked, not
// assumed, as src/os/linux/state_memory.rs does: MADV_WIPEONFORK must
// succeed on every mapping; on every mapping an invalid advice and
// MADV_WIPEONFORK at an address that is not page-aligned must fail (some
// environments, qemu-user for one, accept any advice and ignore it, and a
// seccomp filter can make this advice return 0 without running it, at any
// time); and once per process the kernel's own account of the first
// mapping, the wf flag in /proc/self/smaps, must show it (which also
// catches a filter that fakes only page-aligned calls, if it is in place by
// then). Where a check fails, or /proc cannot be read, mapPage returns nil
// from then on and the package keeps no Go-side output at all: every value
// is drawn directly (noBuffer, noShard).
//
// MAP_DROPPABLE (Linux 6.11), which the randp library uses for its own page,
// is not used here: the kernel may drop such a page at any moment, and the Go
// fast paths read a value and then zero it without checking the page between
// the two steps, so a drop in that gap would hand out zeroes.

// pageSize is the size of every page the package hands out: a slot of a
// shared mapping (see pool).
const pageSize = 4096

const (
	madvDontdump   = 0x10 // MADV_DONTDUMP, Linux 3.4
	madvWipeonfork = 0x12 // MADV_WIPEONFORK, Linux 4.14
)

const (
	// chunkPages is the number of pages of each mapping of the pool.
	chunkPages = 16
	// lockShare and lockCeiling bound what the package locks: at most
	// 1/lockShare of RLIMIT_MEMLOCK, and never more than lockCeiling bytes,
	// whatever the limit (an unlimited one included, and with
	// CAP_IPC_LOCK, which lets a process lock beyond its limit).
	lockShare   = 16
	lockCeiling = 1 << 20
)

// wipeRefused is set once the kernel was seen not to honour MADV_WIPEONFORK;
// wipeVerified once /proc/self/smaps showed that it does.
var wipeRefused, wipeVerified atomic.Bool

// livePages counts the pages handed out and not yet released, for the tests.
var livePages atomic.Int64

// lockedPages counts the pages that mlock locked, handed out or free: the
// package's locked memory, which never shrinks (the mappings stay).
var lockedPages atomic.Int64

// pool hands out the pages: slots of mappings of chunkPages pages each,
// advised and verified as one. A released page is zeroed and kept on the
// free list for the next mapPage; the mappings are never unmapped, so the
// memory the package maps is bounded by the most pages it held at once
// (the per-P shards, and at most maxSourcePages for the Buffered sources).
// The first pages mapped, up to the lock budget (lockBudget), are locked;
// the rest are not, and may be swapped out, but are wiped in a forked child
// and left out of core dumps all the same.
var pool struct {
	sync.Mutex
	// free holds released pages, zeroed; next is the first page of the
	// newest mapping not yet handed out, and left the number of its pages
	// from next on.
	free []unsafe.Pointer
	next unsafe.Pointer
	left int
	// mapped counts the pages of every mapping.
	mapped int
	// lockLeft is the number of pages that may still be locked; locked
	// records the pages that were, for the tests.
	lockLeft int
	budgeted bool
	locked   map[unsafe.Pointer]bool
}

// lockBudget returns the number of pages the package may lock: the lesser
// of 1/lockShare of RLIMIT_MEMLOCK and lockCeiling.
func lockBudget() int {
	var rl syscall.Rlimit
	if syscall.Getrlimit(rlimitMemlock, &rl) != nil {
		return 0
	}
	return int(min(rl.Cur/lockShare, lockCeiling) / pageSize)
}

// rlimitMemlock is RLIMIT_MEMLOCK (package syscall has no name for it): 8
// on every Linux architecture Go supports but the mips family, where 8 is
// RLIMIT_NPROC; there the budget is bounded by lockCeiling all the same.
const rlimitMemlock = 8

// mapPage returns pageSize zeroed bytes outside the Go heap that a forked
// child finds zeroed, or nil when the kernel does not honour that (or has no
// memory), or the path may keep no output on the Go side (keepsOutput). The
// memory must hold no Go pointers; releasePage gives it back.
func mapPage() unsafe.Pointer {
	if !keepsOutput || wipeRefused.Load() {
		return nil
	}
	pool.Lock()
	if pool.left == 0 && len(pool.free) == 0 {
		mapChunk()
	}
	var p unsafe.Pointer
	if n := len(pool.free); n > 0 {
		p = pool.free[n-1]
		pool.free = pool.free[:n-1]
	} else if pool.left > 0 {
		p = pool.next
		pool.next = unsafe.Add(p, pageSize)
		pool.left--
	}
	pool.Unlock()
	if p == nil {
		return nil
	}
	livePages.Add(1)
	raceMapped(p)
	return p
}

// mapChunk maps, advises and verifies a new mapping of chunkPages pages and
// makes it the pool's newest; it leaves the pool as it was (and sets
// wipeRefused where the kernel does not honour the advice) if it cannot.
// The caller holds pool's lock.
func mapChunk() {
	b, err := syscall.Mmap(-1, 0, chunkPages*pageSize, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		return
	}
	p := unsafe.Pointer(unsafe.SliceData(b))
	// Besides the advice itself, two calls a kernel refuses (EINVAL) before
	// it looks at the memory must fail: an invalid advice, and this advice
	// at an address that is not page-aligned. Either succeeding means
	// something answers madvise without running it, for every advice or,
	// as a seccomp filter that tests the advice argument can, for this
	// one; that is checked on every mapping, since a filter may come at any
	// time. The kernel's own account is read once.
	if syscall.Madvise(b, madvWipeonfork) != nil || syscall.Madvise(b, -1) == nil ||
		syscall.Madvise(b[1:], madvWipeonfork) == nil ||
		!wipeVerified.Load() && !vmFlagsOf(uintptr(p))["wf"] {
		wipeRefused.Store(true)
		syscall.Munmap(b)
		return
	}
	wipeVerified.Store(true)
	// A refused DONTDUMP or mlock costs hygiene (core dumps, swap), not
	// fork safety, so their results are recorded, not required.
	syscall.Madvise(b, madvDontdump)
	if !pool.budgeted {
		pool.lockLeft, pool.budgeted = lockBudget(), true
	}
	if k := min(pool.lockLeft, chunkPages); k > 0 {
		if syscall.Mlock(b[:k*pageSize]) == nil {
			pool.lockLeft -= k
			lockedPages.Add(int64(k))
			if pool.locked == nil {
				pool.locked = make(map[unsafe.Pointer]bool)
			}
			for i := range k {
				pool.locked[unsafe.Add(p, i*pageSize)] = true
			}
		} else {
			pool.lockLeft = 0
		}
	}
	pool.next, pool.left = p, chunkPages
	pool.mapped += chunkPages
}

// releasePage zeroes a page from mapPage and returns it to the pool;
// nothing may use it afterwards.
func releasePage(p unsafe.Pointer) {
	// SAFETY: p is the start of a pageSize slot from mapPage that its
	// owner no longer uses.
	b := unsafe.Slice((*byte)(p), pageSize)
	raceUnmapping(p)
	clear(b)
	livePages.Add(-1)
	pool.Lock()
	pool.free = append(pool.free, p)
	pool.Unlock()
}

// pageLocked reports whether mlock locked the page p, for the tests.
func pageLocked(p unsafe.Pointer) bool {
	pool.Lock()
	defer pool.Unlock()
	return pool.locked[p]
}

// forgetPool makes the next mapPage map a new mapping, for the tests that
// change how madvise answers after the first: the free pages and the rest
// of the newest mapping are never handed out again.
func forgetPool() {
	pool.Lock()
	pool.free, pool.left = nil, 0
	pool.Unlock()
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
