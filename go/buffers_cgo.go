//go:build cgo && linux && !android && (amd64 || arm64) && !randp_purego

package randp

import (
	"encoding/binary"
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

// readDirectMin is the length from which Read skips the per-P buffers and
// randp_read writes straight into the caller's slice with one cgo call: a
// quarter of the buffer, so that a buffered Read shares a refill (a cgo call
// and BufferSize bytes) with at least three others. Below it a Read through
// the buffer costs less than its own cgo call; from about 1 KiB on the cgo
// call is a small part of the cost and the copy and zeroing through a buffer
// would only add work. From 512 bytes instead, the earlier bound, Reads of
// 512 B, 768 B and 1000 B took 76.2, 93.2 and 114 ns; from here 58.6, 77.8
// and 98.0 ns (Intel Xeon VM, family 6 model 167, medians of 8 alternating
// runs of the two builds), and Reads of 64 B and 256 B or 1008 B and more
// the same.
const readDirectMin = BufferSize / 4

// bufferWords is BufferSize in 64-bit words, the unit the buffers hand out.
const bufferWords = BufferSize / 8

// bufMem is a Buffered's page. All zero, which a forked child finds, is
// empty.
type bufMem struct {
	// race is the page's shadow for the race detector (race.go); it is
	// empty otherwise.
	race raceShadow
	// n counts the unused words, which are buf[:n]; the words above have
	// been handed out (from the top down) and zeroed.
	n   uint
	buf [bufferWords]uint64
}

// keepsOutput is false where the randp library reads a VM generation
// counter (the VMClock device, Linux 6.13+): its threads then compare it
// before they hand out a byte, so that a clone of a restored VM snapshot
// repeats nothing after the call in flight, and output kept in a Go-side
// buffer would escape that check. mapPage then gives no page, and every value is drawn from the
// library (noBuffer, noShard). Read once, when the package is initialised.
var keepsOutput = !cVMGenerationReadable()

// noBuffer stands for a Buffered's page where none can be kept: its n
// stays 0, so every value takes the slow path, which draws it directly.
var noBuffer bufMem

var _ [pageSize - unsafe.Sizeof(bufMem{})]byte // a bufMem fits in a page

const _ = -uint(unsafe.Offsetof(bufMem{}.race)) // and starts with its raceShadow

// Uint64 returns 64 uniform, unpredictable bits.
//
//go:nosplit
func (s *Buffered) Uint64() uint64 {
	// Nosplit, as is Int63: its frame is a few words and its one call, the
	// refill, checks the stack itself, so a stack-bound check in its
	// prologue would only cost time on every value math/rand/v2's
	// Rand.Uint64 draws through the Source interface (3.16 -> 3.02 ns per
	// value on a Zen 3 EPYC, PCG 2.83).
	//
	// The fast path loads the word, stores zero over it and updates n. One
	// unsigned comparison both finds an empty buffer (n == 0 wraps i to the
	// largest uint) and proves buf[i] in bounds, so there is no bounds check.
	// A Buffered not at the address it was given its page from is new or a
	// copy, and the slow path gives it a page of its own (own).
	if s.self == s {
		m := s.mem
		raceRead(&m.race, &m.n)
		if i := m.n - 1; i < bufferWords {
			raceTake(&m.race, &m.buf[i])
			v := m.buf[i]
			m.buf[i] = 0
			raceWrite(&m.race, &m.n)
			m.n = i
			// s holds the page's owner, whose cleanup releases the page:
			// it must outlive the use of the page.
			runtime.KeepAlive(s)
			return v
		}
	}
	return s.refillUint64()
}

// Int63 returns a non-negative int64 with 63 uniform, unpredictable bits.
//
//go:nosplit
func (s *Buffered) Int63() int64 {
	// Uint64's body, repeated so that math/rand's Rand.Int63 costs one call.
	if s.self == s {
		m := s.mem
		raceRead(&m.race, &m.n)
		if i := m.n - 1; i < bufferWords {
			raceTake(&m.race, &m.buf[i])
			v := m.buf[i]
			m.buf[i] = 0
			raceWrite(&m.race, &m.n)
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
	m := s.own()
	if m == &noBuffer {
		return Uint64()
	}
	raceWrite(&m.race, &m.buf)
	cRead(unsafe.Pointer(&m.buf), BufferSize)
	const top = bufferWords - 1
	raceTake(&m.race, &m.buf[top])
	v := m.buf[top]
	m.buf[top] = 0
	raceWrite(&m.race, &m.n)
	m.n = top
	runtime.KeepAlive(s)
	return v
}

// Uint64 returns 64 uniform, unpredictable bits from one cgo call.
func (Unbuffered) Uint64() uint64 { return cUint64() }

// Int63 returns a non-negative int64 with 63 uniform, unpredictable bits
// from one cgo call.
func (Unbuffered) Int63() int64 { return cInt63() }

// shard is one P's buffer, in a page of its own; all zero is empty. It is
// handed out by the byte, so that a read of a few bytes takes just those
// (Buffered hands out whole words).
type shard struct {
	// race is the page's shadow for the race detector, and orders pinned
	// sections for it (race.go); it is empty otherwise.
	race raceShadow
	// n counts the unused bytes, which are the first n bytes of buf; the
	// bytes above have been handed out (from the top down) and zeroed. n is
	// shardBusy while a goroutine refills buf without being pinned: n and
	// buf are then that goroutine's alone, and it publishes the refilled
	// buffer with an atomic store of n. Being unpinned, it may run on
	// another thread at the same time as the next goroutine pinned to this
	// P, so pinned sections load n atomically: the store orders the
	// buffer's new bytes before the new n for them. Pinned sections store n
	// plainly: pinning excludes every other writer.
	n   uintptr
	buf [bufferWords]uint64
}

var _ [pageSize - unsafe.Sizeof(shard{})]byte // a shard fits in a page

const _ = -uint(unsafe.Offsetof(shard{}.race)) // and starts with its raceShadow

// at returns the address of byte i of sh.buf; bytes returns the n bytes of
// sh.buf from byte i on.
func (sh *shard) at(i uintptr) unsafe.Pointer {
	// SAFETY: the callers pass i < BufferSize and use at most the bytes
	// up to the end of buf, which holds plain integers that may be read as
	// bytes.
	return unsafe.Add(unsafe.Pointer(&sh.buf), i)
}

func (sh *shard) bytes(i, n uintptr) []byte { return unsafe.Slice((*byte)(sh.at(i)), n) }

// shardBusy is shard.n while the shard is being refilled. It exceeds
// BufferSize by more than any buffered read takes, so that the fast paths'
// one test, n-k < BufferSize for k bytes wanted, fails for it as it does for
// a shard that holds fewer than k bytes.
const shardBusy = 1 << 30

// shardBusy less the most bytes a buffered read takes is still above
// BufferSize (the conversion fails to compile otherwise).
const _ = uint(shardBusy - BufferSize - readDirectMin)

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
	raceWrite(&sh.race, &sh.buf)
	cRead(unsafe.Pointer(&sh.buf), BufferSize)
}

// Uint64 returns 64 uniform, unpredictable bits as a uint64.
func Uint64() uint64 {
	// Pinned through the hint as Read is (perp.go).
	// Pinned-section prologue, generated from pinnedPrologue (prologue_test.go).
	var here byte
	slot := hintSlot(uintptr(unsafe.Pointer(&here)))
	pid := procPin()
	sh, ok := slot.Load(), true
	if !isShardOf(sh, pid) {
		sh, ok = rehint(slot, pid)
	}
	if !ok {
		pinSlow()
		return Uint64()
	}
	sh.race.acquire()
	// End of the generated prologue.
	// As in Buffered.Uint64: one load, one store of zero, one update of n,
	// and one comparison that also rules out an empty or busy shard.
	n := atomic.LoadUintptr(&sh.n)
	sh.race.acquire()
	raceRead(&sh.race, &sh.n)
	if i := n - 8; i <= BufferSize-8 {
		p := sh.at(i)
		raceTake(&sh.race, (*[8]byte)(p))
		v := load64(p, 0)
		store64(p, 0, 0)
		raceWrite(&sh.race, &sh.n)
		sh.n = i
		unpin(sh)
		return v
	}
	return uint64Slow(sh, n)
}

// uint64Slow is Uint64's slow path: sh, still pinned, holds fewer than 8
// bytes, is being refilled by another goroutine (n == shardBusy) or is
// noShard.
func uint64Slow(sh *shard, n uintptr) uint64 {
	if n == shardBusy || sh == &noShard {
		unpin(sh)
		return cUint64()
	}
	// The bytes left are overwritten, never handed out.
	raceWrite(&sh.race, &sh.n)
	sh.n = shardBusy
	unpin(sh)
	sh.refill()
	const top = BufferSize - 8
	p := sh.at(top)
	raceTake(&sh.race, (*[8]byte)(p))
	v := load64(p, 0)
	store64(p, 0, 0)
	sh.race.release()
	atomic.StoreUintptr(&sh.n, top)
	return v
}

// take is called pinned. If sh holds k bytes (0 < k < readDirectMin), it
// marks the top k as handed out and returns them, for the caller to copy out
// and zero before it unpins. One comparison finds a shard that holds them:
// an empty, short or busy one (or noShard, always empty) makes n-k wrap or
// exceed the buffer.
func (sh *shard) take(k int) ([]byte, bool) {
	n := atomic.LoadUintptr(&sh.n)
	sh.race.acquire()
	raceRead(&sh.race, &sh.n)
	if i := n - uintptr(k); i < BufferSize {
		raceWrite(&sh.race, &sh.n)
		sh.n = i
		return sh.bytes(i, uintptr(k)), true
	}
	return nil, false
}

// takeShort copies src, 4 to 8 bytes, into b, as long, and zeroes src, as
// two 4-byte pieces, which overlap below 8 bytes (the bytes both write are
// the same).
func takeShort(b, src []byte) {
	n := len(src)
	b = b[:n:n]
	lo, hi := binary.LittleEndian.Uint32(src), binary.LittleEndian.Uint32(src[n-4:])
	binary.LittleEndian.PutUint32(src, 0)
	binary.LittleEndian.PutUint32(src[n-4:], 0)
	binary.LittleEndian.PutUint32(b, lo)
	binary.LittleEndian.PutUint32(b[n-4:], hi)
}

// takeMid copies src, 16 to 32 bytes, into b, as long, and zeroes src, as
// two 16-byte pieces, the first and the last, which overlap below 32 bytes.
// Both are loaded before any byte is zeroed or stored, so where they overlap
// they carry the same bytes.
func takeMid(b, src []byte) {
	n := uintptr(len(src))
	// SAFETY: the caller passes 16 <= len(src) <= 32 and len(b) >=
	// len(src), so both pieces, at 0 and n-16, lie inside both slices; the
	// pieces are plain integers, accessed unaligned, which the cgo path's
	// targets do in one instruction each.
	s, d := unsafe.Pointer(unsafe.SliceData(src)), unsafe.Pointer(unsafe.SliceData(b))
	lo, hi := (*words2)(s), (*words2)(unsafe.Add(s, n-16))
	a, z := *lo, *hi
	*lo, *hi = words2{}, words2{}
	*(*words2)(d), *(*words2)(unsafe.Add(d, n-16)) = a, z
}

// words2 is 16 bytes as two words, which the compiler keeps in registers.
type words2 struct{ w0, w1 uint64 }

// takePair copies src, 8 to 16 bytes, into b, as long, and zeroes src, as
// two 8-byte pieces, the first and the last, which overlap below 16 bytes.
// Both are loaded before any byte is zeroed or stored, so where they overlap
// they carry the same bytes.
func takePair(b, src []byte) {
	n := uintptr(len(src))
	// SAFETY: the caller passes 8 <= len(src) <= 16 and len(b) >= len(src),
	// so both pieces, at 0 and n-8, lie inside both slices (as in takeMid).
	s, d := unsafe.Pointer(unsafe.SliceData(src)), unsafe.Pointer(unsafe.SliceData(b))
	lo, hi := (*uint64)(s), (*uint64)(unsafe.Add(s, n-8))
	a, z := *lo, *hi
	*lo, *hi = 0, 0
	*(*uint64)(d), *(*uint64)(unsafe.Add(d, n-8)) = a, z
}

// takeWide copies src, 32 to 64 bytes, into b, as long, and zeroes src, as
// four 16-byte pieces: the first 32 bytes and the last 32, which overlap
// below 64 bytes. All four are loaded before any byte is zeroed or stored,
// so where they overlap they carry the same bytes.
func takeWide(b, src []byte) {
	n := uintptr(len(src))
	// SAFETY: the caller passes 32 <= len(src) <= 64 and len(b) >=
	// len(src), so every piece, at 0, 16, n-32 and n-16, lies inside both
	// slices (as in takeMid).
	s, d := unsafe.Pointer(unsafe.SliceData(src)), unsafe.Pointer(unsafe.SliceData(b))
	p0, p1 := (*words2)(s), (*words2)(unsafe.Add(s, 16))
	p2, p3 := (*words2)(unsafe.Add(s, n-32)), (*words2)(unsafe.Add(s, n-16))
	w0, w1, w2, w3 := *p0, *p1, *p2, *p3
	*p0, *p1, *p2, *p3 = words2{}, words2{}, words2{}, words2{}
	*(*words2)(d), *(*words2)(unsafe.Add(d, 16)) = w0, w1
	*(*words2)(unsafe.Add(d, n-32)), *(*words2)(unsafe.Add(d, n-16)) = w2, w3
}

// takeOut copies src, 1 to readDirectMin-1 bytes, into b, as long, and
// zeroes src: up to 64 bytes in at most four pieces, all loaded before any
// is stored (the 8-byte loop they replace took about 4 ns more per 32-byte
// Read, in interleaved runs on a Zen 5 EPYC), above with memmove and memclr.
func takeOut(b, src []byte) {
	switch n := len(src); {
	case n > 64:
		copy(b, src)
		clear(src)
	case n > 32:
		takeWide(b, src)
	case n >= 16:
		takeMid(b, src)
	case n > 8:
		takePair(b, src)
	case n >= 4:
		takeShort(b, src)
	default:
		copy(b, src)
		clear(src)
	}
}

// load64 and store64 access the 8 bytes at p+i, in little-endian order, at
// any alignment (one instruction on amd64 and arm64, the cgo path's
// targets); the caller keeps them inside one buffer or slice.
func load64(p unsafe.Pointer, i int) uint64 {
	return binary.LittleEndian.Uint64((*[8]byte)(unsafe.Add(p, i))[:])
}

func store64(p unsafe.Pointer, i int, v uint64) {
	binary.LittleEndian.PutUint64((*[8]byte)(unsafe.Add(p, i))[:], v)
}

// readShort is Read's slow path for 0 < len(b) < readDirectMin: sh, still
// pinned, held fewer than len(b) bytes, was being refilled by another
// goroutine (n == shardBusy) or is noShard when take looked.
func readShort(sh *shard, b []byte) {
	left := atomic.LoadUintptr(&sh.n)
	sh.race.acquire()
	raceRead(&sh.race, &sh.n)
	if left == shardBusy || sh == &noShard {
		// Another goroutine is refilling this P's buffer, or there is none.
		unpin(sh)
		readDirect(b)
		return
	}
	if k := uintptr(len(b)); left >= k {
		// The goroutine that was refilling the buffer when take looked has
		// published it since (its store of n is the only one an unpinned
		// goroutine makes): it holds b's bytes after all.
		raceWrite(&sh.race, &sh.n)
		sh.n = left - k
		raceTakeN(&sh.race, (*byte)(sh.at(left-k)), int(k))
		takeOut(b, sh.bytes(left-k, k))
		unpin(sh)
		return
	}
	// The buffer holds fewer than len(b) bytes: they go first into b
	// (pinned, so they are this goroutine's alone), and the rest comes from
	// the buffer refilled, unpinned.
	if left > 0 {
		raceTakeN(&sh.race, (*byte)(sh.at(0)), int(left))
		takeOut(b[:left], sh.bytes(0, left))
	}
	k := uintptr(len(b)) - left
	raceWrite(&sh.race, &sh.n)
	sh.n = shardBusy
	unpin(sh)
	sh.refill()
	raceTakeN(&sh.race, (*byte)(sh.at(BufferSize-k)), int(k))
	takeOut(b[left:], sh.bytes(BufferSize-k, k))
	sh.race.release()
	atomic.StoreUintptr(&sh.n, BufferSize-k)
}

// readDirect fills b with one cgo call, the randp library writing straight
// into it.
func readDirect(b []byte) { cRead(unsafe.Pointer(unsafe.SliceData(b)), len(b)) }
