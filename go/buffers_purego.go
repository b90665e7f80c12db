//go:build !cgo || randp_purego || !linux || android || !(amd64 || arm64)

package randp

import (
	"encoding/binary"
	"runtime"
	"sync/atomic"
	"unsafe"
)

// The pure-Go path's sources: a Buffered is a generator of its own
// (generator_purego.go), and the package-level functions share one generator
// per P.

// BufferSize is the number of bytes of generator output that each Go-side
// buffer holds: one per Buffered source and one per P for the package-level
// functions. On the pure-Go path it is one refill of the ChaCha8 generator,
// 3,968 bytes; on the cgo path it is what fits in one 4 KiB page beside the
// buffer's count (see Implementation).
const BufferSize = refillWords * 8

// bufMem is a Buffered's page: a generator of its own.
type bufMem = generator

// keepsOutput is always true on this path: it reads no VM generation
// counter (see the cgo path's).
const keepsOutput = true

// noBuffer stands for a Buffered's page where none can be kept: its buffer
// stays empty, so every value takes the slow path, which draws it directly.
var noBuffer bufMem

// Uint64 returns 64 uniform, unpredictable bits.
//
//go:nosplit
func (s *Buffered) Uint64() uint64 {
	// Nosplit, as is Int63, for the reason given in the cgo path's Uint64
	// (buffers_cgo.go): its one call, the refill, checks the stack itself.
	//
	// The fast path loads the word, stores zero over it and moves i on. A
	// Buffered not at the address it was given its page from is new or a
	// copy, and the slow path gives it a page of its own (own).
	if s.self == s {
		g := s.mem
		raceRead(&g.race, &g.i)
		raceRead(&g.race, &g.n)
		if i := g.i; i < g.n {
			raceTake(&g.race, &g.w[i])
			v := g.w[i]
			g.w[i] = 0
			raceWrite(&g.race, &g.i)
			g.i = i + 1
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
		g := s.mem
		raceRead(&g.race, &g.i)
		raceRead(&g.race, &g.n)
		if i := g.i; i < g.n {
			raceTake(&g.race, &g.w[i])
			v := g.w[i]
			g.w[i] = 0
			raceWrite(&g.race, &g.i)
			g.i = i + 1
			runtime.KeepAlive(s)
			return int64(v &^ (1 << 63))
		}
	}
	return int64(s.refillUint64() &^ (1 << 63))
}

// refillUint64 is the slow path of Uint64 and Int63: it refills the empty
// generator (preparing it first when that is due: see generator.due) and
// hands out its first word.
func (s *Buffered) refillUint64() uint64 {
	g := s.own()
	if g == &noBuffer {
		return Uint64()
	}
	if g.due() {
		g.prepare()
	}
	g.refill()
	raceTake(&g.race, &g.w[0])
	v := g.w[0]
	g.w[0] = 0
	raceWrite(&g.race, &g.i)
	g.i = 1
	runtime.KeepAlive(s)
	return v
}

// Uint64 returns 64 uniform, unpredictable bits from the package-level
// generators.
func (Unbuffered) Uint64() uint64 { return Uint64() }

// Int63 returns a non-negative int64 with 63 uniform, unpredictable bits
// from the package-level generators.
func (Unbuffered) Int63() int64 { return int64(Uint64() &^ (1 << 63)) }

// shard is one P's generator. Pinned sections use it freely, except while
// busy is 1: then a goroutine that is no longer pinned is preparing it (a
// reseed or a mix: its key, the scratch words above it (fresh), refills and
// mixed are that goroutine's), and
// the buffer is empty (n == 0), so the fast paths fall through to the slow
// ones, which load busy atomically and draw from the operating system
// instead.
type shard = generator

// noShard is every P's generator where no page can be kept: its buffer
// stays empty, so every call takes the slow path, which draws directly.
var noShard shard

// newShard returns a new, unseeded generator in a page of its own, or
// noShard.
func newShard() *shard {
	if p := mapPage(); p != nil {
		return (*shard)(p)
	}
	return &noShard
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
	raceRead(&sh.race, &sh.i)
	raceRead(&sh.race, &sh.n)
	if i := sh.i; i < sh.n {
		raceTake(&sh.race, &sh.w[i])
		v := sh.w[i]
		sh.w[i] = 0
		raceWrite(&sh.race, &sh.i)
		sh.i = i + 1
		unpin(sh)
		return v
	}
	return uint64Slow(sh)
}

// uint64Slow is Uint64's slow path: sh, still pinned, is empty.
func uint64Slow(sh *shard) uint64 {
	if _, ok := sh.ready(false); !ok {
		return osUint64()
	}
	sh.refill()
	raceTake(&sh.race, &sh.w[0])
	v := sh.w[0]
	sh.w[0] = 0
	raceWrite(&sh.race, &sh.i)
	sh.i = 1
	unpin(sh)
	return v
}

// ready is called pinned on a shard whose buffer is empty. It reports ok,
// pinned to sh's P, when sh may be refilled now: its key holds fresh bytes
// already, or the caller may reuse those of an earlier refill (reuse: see
// readDirect) and sh needs no reseed, or this goroutine has just prepared
// it (then prepared is true) and is back on the same P. Otherwise it has
// unpinned: sh is noShard, another goroutine is preparing it, or this
// goroutine prepared it and came back on another P.
func (sh *shard) ready(reuse bool) (prepared, ok bool) {
	if sh == &noShard || atomic.LoadUint32(&sh.busy) != 0 {
		unpin(sh)
		return false, false
	}
	// The load of busy may have found a reseed published.
	sh.race.acquire()
	if !sh.due() || reuse && !sh.reseedDue() {
		return false, true
	}
	// Reading the operating system (a reseed, or crypto/rand for a mix) may
	// block or take locks, which must not happen while pinned: mark the
	// shard busy, with an empty buffer, and prepare it unpinned.
	raceWrite(&sh.race, &sh.i)
	raceWrite(&sh.race, &sh.n)
	sh.i, sh.n = 0, 0
	atomic.StoreUint32(&sh.busy, 1)
	unpin(sh)
	sh.prepare()
	// Back on the same P (the usual case), sh is this goroutine's again, and
	// the caller refills it before it unpins: the fresh bytes make the
	// refill of this call, which a VM snapshot taken since they were read
	// finds in flight. On another P, the fresh bytes stay in the key but
	// count for nothing, so that whoever refills sh next reads its own.
	if again, ok := pinned(procPin()); ok && again == sh {
		sh.race.acquire()
		atomic.StoreUint32(&sh.busy, 0)
		return true, true
	}
	procUnpin()
	raceWrite(&sh.race, &sh.mixed)
	sh.mixed = 0
	sh.race.release()
	atomic.StoreUint32(&sh.busy, 0)
	return true, false
}

// take is called pinned. If sh holds the (k+7)/8 unused words that k bytes
// (0 < k < readDirectMin) need, it marks them as handed out and returns
// them, for the caller to copy k bytes out and zero them all before it
// unpins.
func (sh *shard) take(k int) ([]byte, bool) {
	// i <= n <= refillWords, so n-i does not wrap.
	words := uint32(k+7) / 8
	raceRead(&sh.race, &sh.i)
	raceRead(&sh.race, &sh.n)
	if i := sh.i; sh.n-i >= words {
		raceWrite(&sh.race, &sh.i)
		sh.i = i + words
		// SAFETY: w[i:i+words] lies inside w (i+words <= n <= refillWords)
		// and holds plain integers that may be read as bytes.
		return unsafe.Slice((*byte)(unsafe.Pointer(&sh.w[i])), words*8), true
	}
	return nil, false
}

// takeShort copies into b (1 to 8 bytes) the first len(b) bytes of src, one
// word, in memory order, and zeroes the word.
func takeShort(b, src []byte) {
	v := binary.LittleEndian.Uint64(src)
	binary.LittleEndian.PutUint64(src, 0)
	putWord(b, v)
}

// takeOut copies into b the first len(b) bytes of src, whole words, in
// memory order, and zeroes them all.
func takeOut(b, src []byte) { takeWords(b, (*uint64)(unsafe.Pointer(&src[0]))) }

// readShort is Read's slow path for 0 < len(b) < readDirectMin: sh, still
// pinned, holds fewer than the words b needs.
func readShort(sh *shard, b []byte) {
	unpin(sh)
	readDirect(b)
}

// readDirect fills b from the calling P's generator, in pinned sections
// that end once they have taken readPinnedMax bytes (so at most
// readPinnedMax+BufferSize-8 each). Output is consumed in whole words: the
// bytes of a last word that b does not take are zeroed with it and never
// handed out.
//
// Every refill needs fresh bytes from crypto/rand in its key (see
// generator.due), so that the copies of a restored VM snapshot share
// nothing past one buffer per generator (what it held unread, or what a
// call in flight was refilling it with), except one case: a refill that
// this call takes whole, on a generator into whose key this call has put
// fresh bytes itself, reuses them, as long as one mix serves at most
// readMixRefills refills of this call. Such a refill's key descends from
// this call's fresh bytes (whatever other goroutines did with the
// generator in between only XORs more into it), so its output differs
// between the copies, unless this call was in flight at the snapshot: then
// at most readMixRefills refills of its own output repeat, and nothing it
// leaves in the generator, since a refill that it does not take whole gets
// fresh bytes of its own.
func readDirect(b []byte) {
	// mixedOn is the generator this call has prepared itself, and unmixed
	// the number of refills it has made of it since, without fresh bytes.
	var mixedOn *shard
	unmixed := 0
	for len(b) > 0 {
		sh, ok := pinned(procPin())
		if !ok {
			pinSlow()
			continue
		}
		sh.race.acquire()
		for budget := readPinnedMax; len(b) > 0 && budget > 0; {
			raceRead(&sh.race, &sh.i)
			raceRead(&sh.race, &sh.n)
			i, n := sh.i, sh.n
			if i >= n {
				// The copy below takes a refill whole if b is at least a
				// refill long.
				reuse := sh == mixedOn && unmixed+1 < readMixRefills && len(b) >= BufferSize
				prepared, ok := sh.ready(reuse)
				if !ok {
					goto unpinned
				}
				if prepared {
					mixedOn, unmixed = sh, 0
				} else {
					unmixed++
				}
				sh.refill()
				i, n = 0, refillWords
			}
			k := min((len(b)+7)/8, int(n-i))
			m := min(len(b), k*8)
			raceTakeN(&sh.race, &sh.w[i], k)
			takeWords(b[:m], &sh.w[i])
			raceWrite(&sh.race, &sh.i)
			sh.i = i + uint32(k)
			b = b[m:]
			budget -= m
		}
		unpin(sh)
		continue
	unpinned:
		// The shard is noShard or being reseeded: this piece comes from
		// the operating system.
		if sh == &noShard || atomic.LoadUint32(&sh.busy) != 0 {
			readOS(unsafe.Pointer(unsafe.SliceData(b)), min(len(b), readPinnedMax))
			b = b[min(len(b), readPinnedMax):]
		}
	}
}

// readMixRefills is the most refills of one Read that one of its mixes
// serves, the mixed refill included (see readDirect): 63,488 bytes, the
// most a Read in flight at a VM snapshot may repeat of its own output.
const readMixRefills = 16

// readDirectMin is the length from which Read fills b in readDirect's
// pinned pieces rather than from one take of the calling P's generator.
const readDirectMin = 512

// readPinnedMax bounds the bytes a Read produces per pinned section, so
// that a large Read does not keep its P from being preempted for long.
const readPinnedMax = 4096

// putWord writes into b (1 to 8 bytes) the first len(b) bytes of v, in
// little-endian order, in at most two stores that may overlap: the bytes both
// write are the same bytes of v.
func putWord(b []byte, v uint64) {
	switch n := len(b); {
	case n >= 4:
		binary.LittleEndian.PutUint32(b, uint32(v))
		binary.LittleEndian.PutUint32(b[n-4:], uint32(v>>(8*(n-4))))
	case n >= 2:
		binary.LittleEndian.PutUint16(b, uint16(v))
		binary.LittleEndian.PutUint16(b[n-2:], uint16(v>>(8*(n-2))))
	default:
		b[0] = byte(v)
	}
}

// takeWords copies into b the first len(b) bytes of the words from first
// on and zeroes the words it took them from: len(b) rounded up to whole
// words, which must all lie in one buffer. b must not be empty. b receives
// the words' bytes as they lie in memory, whatever len(b): each byte of b is
// a distinct byte of those words, in memory order.
func takeWords(b []byte, first *uint64) {
	// SAFETY: the caller passes the first of at least (len(b)+7)/8 words
	// of one buffer, plain integers that may be read as bytes; p never
	// moves past the last of them, and the views do not outlive this call.
	p := unsafe.Pointer(first)
	if len(b) > 64 {
		n := (len(b) + 7) / 8
		copy(b, unsafe.Slice((*byte)(p), n*8))
		clear(unsafe.Slice(first, n))
		return
	}
	// Short reads, a word at a time: cheaper than calling memmove and
	// memclr. (While more than 8 bytes are left, b[8:] is not empty, so
	// the compiler adds no check to reslicing it.) A word is loaded from
	// its bytes little-endian and stored little-endian, so its bytes keep
	// their memory order on any host, as copy's do; on a little-endian
	// host that is one load and one store.
	for len(b) > 8 {
		w := (*[8]byte)(p)
		binary.LittleEndian.PutUint64(b, binary.LittleEndian.Uint64(w[:]))
		*(*uint64)(p) = 0
		b = b[8:]
		p = unsafe.Add(p, 8)
	}
	takeShort(b, (*[8]byte)(p)[:])
}

// takeMid is Read's case for 16 to 32 bytes, which the cgo path copies in
// two pieces; here, where the bytes are whole words, it is takeOut.
func takeMid(b, src []byte) { takeOut(b, src) }
