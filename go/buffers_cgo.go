//go:build cgo && linux && (amd64 || arm64) && !randp_purego

package randp

import (
	"runtime"
	"sync/atomic"
	"unsafe"
)

// The cgo path's Go-side buffers: Buffered's and the per-P shards, each a
// page (memory_linux.go) holding a count and BufferSize bytes of the randp
// library's output, refilled with one cgo call.

// BufferSize is the number of bytes of generator output that each Go-side
// buffer holds: one per Buffered source and one per P for the package-level
// functions. On the cgo path it is what fits in one 4 KiB page beside the
// buffer's count, refilled with a single cgo call; on the pure-Go path it is
// one ChaCha8 refill (see Implementation).
const BufferSize = 4032

// bufferWords is BufferSize in 64-bit words, the unit the buffers hand out.
const bufferWords = BufferSize / 8

// bufMem is a Buffered's page. All zero, which a forked child finds, is
// empty.
type bufMem struct {
	// n counts the unused words, which are buf[:n]; the words above have
	// been handed out (from the top down) and zeroed.
	n   uint
	buf [bufferWords]uint64
}

// noBuffer stands for a Buffered's page where none can be kept: its n
// stays 0, so every value takes the slow path, which draws it directly.
var noBuffer bufMem

var _ [pageSize - unsafe.Sizeof(bufMem{})]byte // a bufMem fits in a page

// Uint64 returns 64 uniform, unpredictable bits.
func (s *Buffered) Uint64() uint64 {
	// The fast path loads the word, stores zero over it and updates n. One
	// unsigned comparison both finds an empty buffer (n == 0 wraps i to the
	// largest uint) and proves buf[i] in bounds, so there is no bounds check.
	if m := s.mem; m != nil {
		if i := m.n - 1; i < bufferWords {
			v := m.buf[i]
			m.buf[i] = 0
			m.n = i
			// s must outlive the use of its page, which its cleanup unmaps.
			runtime.KeepAlive(s)
			return v
		}
	}
	return s.refillUint64()
}

// Int63 returns a non-negative int64 with 63 uniform, unpredictable bits.
func (s *Buffered) Int63() int64 {
	// Uint64's body, repeated so that math/rand's Rand.Int63 costs one call.
	if m := s.mem; m != nil {
		if i := m.n - 1; i < bufferWords {
			v := m.buf[i]
			m.buf[i] = 0
			m.n = i
			runtime.KeepAlive(s)
			return int64(v &^ (1 << 63))
		}
	}
	return int64(s.refillUint64() &^ (1 << 63))
}

// refillUint64 is the slow path of Uint64 and Int63: it fills the empty
// buffer with one cgo call and hands out its top word.
func (s *Buffered) refillUint64() uint64 {
	m := s.page()
	if m == &noBuffer {
		return cUint64()
	}
	cRead(unsafe.Pointer(&m.buf), BufferSize)
	const top = bufferWords - 1
	v := m.buf[top]
	m.buf[top] = 0
	m.n = top
	runtime.KeepAlive(s)
	return v
}

// Uint64 returns 64 uniform, unpredictable bits from one cgo call.
func (Unbuffered) Uint64() uint64 { return cUint64() }

// Int63 returns a non-negative int64 with 63 uniform, unpredictable bits
// from one cgo call.
func (Unbuffered) Int63() int64 { return cInt63() }

// shard is one P's buffer, in a page of its own; all zero is empty.
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
}

var _ [pageSize - unsafe.Sizeof(shard{})]byte // a shard fits in a page

// shardBusy is shard.n while the shard is being refilled. It exceeds
// bufferWords, so n-1 < bufferWords, the fast paths' test, fails for it as
// it does for an empty shard.
const shardBusy = bufferWords + 1

// noShard is every P's shard where no page can be kept: its n stays 0, so
// every call takes the slow path, which draws directly.
var noShard shard

// newShard returns a new, empty shard in a page of its own, or noShard.
func newShard() *shard {
	if p := mapPage(); p != nil {
		return (*shard)(p)
	}
	return &noShard
}

// refill fills sh.buf with one cgo call. The caller must have set sh.n to
// shardBusy and must not be pinned; it publishes the buffer afterwards with
// atomic.StoreUintptr(&sh.n, ...).
func (sh *shard) refill() {
	cRead(unsafe.Pointer(&sh.buf), BufferSize)
}

// Uint64 returns 64 uniform, unpredictable bits as a uint64.
func Uint64() uint64 {
	sh := pinned(procPin())
	if sh == nil {
		sh = pinSlow()
	}
	sh.race.acquire()
	// As in Buffered.Uint64: one load, one store of zero, one update of n,
	// and one comparison that also rules out an empty or busy shard.
	n := atomic.LoadUintptr(&sh.n)
	if i := n - 1; i < bufferWords {
		v := sh.buf[i]
		sh.buf[i] = 0
		sh.n = i
		unpin(sh)
		return v
	}
	return uint64Slow(sh, n)
}

// uint64Slow is Uint64's slow path: sh, still pinned, is empty (n == 0),
// being refilled by another goroutine (n == shardBusy) or noShard.
func uint64Slow(sh *shard, n uintptr) uint64 {
	if n == shardBusy || sh == &noShard {
		unpin(sh)
		return cUint64()
	}
	sh.n = shardBusy
	unpin(sh)
	sh.refill()
	const top = bufferWords - 1
	v := sh.buf[top]
	sh.buf[top] = 0
	atomic.StoreUintptr(&sh.n, top)
	return v
}

// readBuffered fills b (0 < len(b) < readDirectMin) from the calling P's
// buffer. The buffer is consumed in whole words: the bytes of the last word
// that b does not take are zeroed with it and never handed out.
func readBuffered(b []byte) {
	k := uintptr(len(b)+7) / 8
	sh := pinned(procPin())
	if sh == nil {
		sh = pinSlow()
	}
	sh.race.acquire()
	n := atomic.LoadUintptr(&sh.n)
	if n == shardBusy || sh == &noShard {
		// Another goroutine is refilling this P's buffer, or there is none.
		unpin(sh)
		readDirect(b)
		return
	}
	if n >= k {
		takeWords(b, &sh.buf[n-k])
		sh.n = n - k
		unpin(sh)
		return
	}
	// The buffer holds fewer than k words: refill it, unpinned. The unused
	// words are overwritten, never handed out.
	sh.n = shardBusy
	unpin(sh)
	sh.refill()
	takeWords(b, &sh.buf[bufferWords-k])
	atomic.StoreUintptr(&sh.n, bufferWords-k)
}

// readDirect fills b with one cgo call, the randp library writing straight
// into it.
func readDirect(b []byte) { cRead(unsafe.Pointer(unsafe.SliceData(b)), len(b)) }
