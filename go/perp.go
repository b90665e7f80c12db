package randp

import (
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"
)

// The package-level functions are safe for concurrent use. They share one
// buffer per P (the runtime's scheduling context; there are GOMAXPROCS of
// them), reached by pinning the calling goroutine to its P with
// runtime.procPin, as sync.Pool does. While pinned the goroutine cannot be
// preempted, so at most one goroutine touches a P's buffer at a time and no
// lock is needed. Of the designs measured for Uint64 (go test -bench,
// Go 1.26, the project's shared 2-core VM under load, medians of 5 paired
// runs), it is the fastest:
//
//   - a sync.Mutex around one Buffered: 55 ns alone, 49 ns under
//     b.RunParallel, where it serialises the callers and bounces one cache
//     line between the cores;
//   - a sync.Pool of Buffered sources: 41 ns alone, 28 ns parallel, and the
//     pool drops its contents at every GC, so buffers still holding unused
//     output would be freed without being zeroed;
//   - per-P buffers via procPin (chosen): 14 ns alone, 13 ns parallel; two
//     small runtime calls and no atomic read-modify-write on the fast path,
//     and the buffers live as long as the process, so none is dropped
//     unzeroed.
//
// runtime.procPin and runtime.procUnpin are internal to the runtime, but the
// runtime keeps them reachable by go:linkname for packages that already use
// them (go.dev/issue/67401) and promises not to change their signatures.
//
// Refilling a buffer needs a cgo call, which must not happen while pinned:
// during a cgo call the P can be handed to another thread, whose goroutines
// would then use the same buffer. So the refilling goroutine marks the shard
// busy (n = shardBusy), unpins, refills, and publishes the new n; goroutines
// that find a shard busy take their value with a direct cgo call instead.

//go:linkname procPin runtime.procPin
func procPin() int

//go:linkname procUnpin runtime.procUnpin
func procUnpin()

// shard is one P's buffer.
type shard struct {
	// n counts the unused words, which are buf[:n]; the words above have
	// been handed out (from the top down) and zeroed. n is shardBusy while a
	// goroutine refills buf without being pinned: n and buf are then that
	// goroutine's alone, and it publishes the refilled buffer with an
	// atomic store of n. Being unpinned, it may run on another thread at the
	// same time as the next goroutine pinned to this P, so pinned sections
	// load n atomically: the store orders the buffer's new bytes before the
	// new n for them. Pinned sections store n plainly: pinning excludes
	// every other writer.
	n uintptr
	// race orders pinned sections for the race detector (race.go); it is
	// empty otherwise.
	race raceOrder
	buf  [bufferWords]uint64
	// _ keeps the next allocation's hot fields off this shard's last line.
	_ [64]byte
}

// shardBusy is shard.n while the shard is being refilled. It exceeds
// bufferWords, so n-1 < bufferWords, the fast paths' test, fails for it as
// it does for an empty shard.
const shardBusy = bufferWords + 1

var (
	// shards holds one *shard per P id; entries are created on first use
	// and never freed, so a buffer is never dropped while holding output.
	shards   atomic.Pointer[[]*shard]
	shardsMu sync.Mutex // serialises growing shards
)

// Pinning goes
//
//	sh := pinned(procPin())
//	if sh == nil {
//		sh = pinSlow()
//	}
//	sh.race.acquire()
//	... use sh ...
//	unpin(sh)
//
// written out at each use so that the fast path makes no call besides
// procPin and procUnpin.

// pinned returns the shard of P pid, or nil if it has none yet.
func pinned(pid int) *shard {
	if p := shards.Load(); p != nil && uint(pid) < uint(len(*p)) {
		return (*p)[pid]
	}
	return nil
}

// pinSlow is called pinned, for a P that has no shard yet; it creates one
// and returns, pinned again (possibly to another P), that P's shard.
func pinSlow() *shard {
	procUnpin()
	procs := runtime.GOMAXPROCS(0)
	shardsMu.Lock()
	defer shardsMu.Unlock()
	pid := procPin()
	var old []*shard
	if p := shards.Load(); p != nil {
		old = *p
	}
	if pid < len(old) && old[pid] != nil {
		return old[pid]
	}
	n := max(len(old), procs, pid+1)
	s := make([]*shard, n)
	copy(s, old)
	sh := new(shard)
	s[pid] = sh
	shards.Store(&s)
	return sh
}

// unpin ends a pinned section.
func unpin(sh *shard) {
	sh.race.release()
	procUnpin()
}

// refill fills sh.buf with one cgo call. The caller must have set sh.n to
// shardBusy and must not be pinned; it publishes the buffer afterwards with
// atomic.StoreUintptr(&sh.n, ...).
func (sh *shard) refill() {
	cRead(unsafe.Pointer(&sh.buf), BufferSize)
}
