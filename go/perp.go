package randp

import (
	"runtime"
	"sync"
	"sync/atomic"
	_ "unsafe" // go:linkname
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
// What a shard holds depends on the path: on the cgo path a buffer of the
// library's output, handed out by the byte (buffers_cgo.go), on the pure-Go
// path a generator state, handed out by the word (buffers_purego.go,
// generator_purego.go). Uint64 and a Read of fewer than readDirectMin bytes
// each make one pinned section: pin, take what they need if the shard holds
// it, copy it out and zero it, unpin. Anything that may block or be handed to another
// thread (a cgo call, reading the operating system) must not happen while pinned:
// during a cgo call the P can be handed to another thread, whose goroutines
// would then use the same shard. So such a goroutine marks the shard busy,
// unpins, does its work, and then publishes the result; goroutines that find
// a shard busy take their value from the source directly instead.

//go:linkname procPin runtime.procPin
func procPin() int

//go:linkname procUnpin runtime.procUnpin
func procUnpin()

var (
	// shards holds one *shard per P id; entries are created on first use
	// (newShard, in a page of their own: see memory_linux.go) and never
	// freed, so a buffer is never dropped while holding output. It is never
	// nil (init stores an empty table), and every entry of a table is
	// non-nil, so the fast path makes one bounds check and no nil check.
	shards   atomic.Pointer[[]*shard]
	shardsMu sync.Mutex // serialises growing shards
)

func init() { shards.Store(new([]*shard)) }

// Pinning goes: look up the hint (below), pin, take the hint if it is the
// P's shard and the P's shard from the table otherwise (rehint), make the
// shards if the P has none yet (pinSlow) and start again, then use sh and
// unpin(sh). Functions that pin through the hint open their pinned section
// with a copy of one generated prologue (pinnedPrologue in
// prologue_test.go, whose test fails if a copy differs from it or is
// written out by hand) so that the fast path makes no call besides procPin
// and procUnpin (and, with the rare paths out of the way, takes no jump).
// Paths that are not the fast one pin with pinned(procPin()).

// pinned returns the shard of P pid and true, or false if that P has none
// yet.
func pinned(pid int) (*shard, bool) {
	if s := *shards.Load(); uint(pid) < uint(len(s)) {
		return s[pid], true
	}
	return nil, false
}

// The fast paths of Uint64 and Read find their shard through a hint, so
// that its loads need not wait for the P id. procPin reaches the id through
// three dependent loads (g.m, m.p, p.id), and the shard's count through the
// table is two more: on a Zen 3 EPYC that chain made a 4-byte Read take
// 10.6 ns where the same code with a shard known in advance took 5.6. So a
// goroutine first looks up a hint, the shard last used from its stack's
// region (the address of one of its locals, which the goroutine has in a
// register), and pins; it then checks that the hint is its P's shard, but
// only with a branch, which the CPU predicts and runs ahead of, so the
// shard's loads and stores start before the id arrives. A hint that is not
// its P's shard (never set, stale after the goroutine moved to another P,
// or set by a goroutine of another P whose stack falls in the same slot) is
// never used: the goroutine takes its P's shard from the table and leaves
// that in the slot. A hint is only ever the start of a guess; what makes a
// shard the goroutine's alone is still the pin and the table.

// hintBits is log2 of the number of hint slots.
const hintBits = 9

// hints holds, per region of goroutine stack, the shard last used from it
// (nil until a goroutine from that region is pinned). Shards are never
// freed, so a hint always points at one, if not necessarily the caller's.
var hints [1 << hintBits]atomic.Pointer[shard]

// hintSlot returns the hint slot for a goroutine whose stack holds sp (the
// address of a local of the caller): regions of 1 KiB, mixed by
// multiplication so that the stacks of goroutines, whose starts are powers
// of two apart, spread over the slots.
func hintSlot(sp uintptr) *atomic.Pointer[shard] {
	return &hints[uint64(sp>>10)*0x9e3779b97f4a7c15>>(64-hintBits)]
}

// isShardOf reports whether sh is the shard of P pid.
func isShardOf(sh *shard, pid int) bool {
	s := *shards.Load()
	return uint(pid) < uint(len(s)) && s[pid] == sh
}

// rehint is called pinned to P pid, whose shard the hint in slot is not. It
// returns that shard and true after storing it in slot, or false if P pid
// has none yet. It is kept out of line so that the check before it stays a
// branch, which the CPU predicts, rather than a select on the id.
//
//go:noinline
func rehint(slot *atomic.Pointer[shard], pid int) (*shard, bool) {
	sh, ok := pinned(pid)
	if ok {
		slot.Store(sh)
	}
	return sh, ok
}

// pinSlow is called pinned, for a P that has no shard yet. It unpins and
// makes the shards of every P, so that the caller, pinning again, finds its
// P's (unless GOMAXPROCS has grown meanwhile: then it comes here again).
// Shards are made unpinned: making one maps a page, which makes system
// calls and may wait for a lock, and a goroutine must not block while
// pinned.
func pinSlow() {
	procUnpin()
	procs := runtime.GOMAXPROCS(0)
	shardsMu.Lock()
	defer shardsMu.Unlock()
	old := *shards.Load()
	if len(old) < procs {
		s := make([]*shard, procs)
		copy(s, old)
		for i := range s {
			if s[i] == nil {
				s[i] = newShard()
			}
		}
		shards.Store(&s)
	}
}

// unpin ends a pinned section.
func unpin(sh *shard) {
	sh.race.release()
	procUnpin()
}
