//go:build !cgo || randp_purego || !linux || android || !(amd64 || arm64)

package randp

import (
	crand "crypto/rand"
	"encoding/binary"
	"io"
	"math/rand/v2"
	"os"
	"reflect"
	"runtime"
	"strings"
	"sync/atomic"
	"unsafe"
)

// The pure-Go path's generator: ChaCha8Rand, math/rand/v2's ChaCha8
// (C2SP's chacha8rand, the same stream bit for bit), run ahead by one key
// so that it erases each key before any of that key's output is handed out.
// The state of each generator is in a page of the package's own
// (memory_linux.go, memory_other.go), seeded and reseeded from the
// operating system's source (osReader: getrandom(2) on Linux and ProcessPrng
// on Windows, read directly; see osrand_linux.go, osrand_windows.go and
// osrand_other.go).
//
// ChaCha8Rand makes its output in epochs of 1 KiB: four calls of the block
// function under one key (counters 0, 4, 8 and 12, 32 words each), of which
// the last 4 words become the next key and the other 124 words are output.
// rand.ChaCha8 keeps the key while it hands out the epoch's output, 32 words
// at a time; here a refill runs refillEpochs epochs at once into
// w[0:refillWords+4], and every key that made them is gone from memory
// (overwritten in place) before the first word is handed out. So the state
// holds at any time one key that has made nothing yet (w[keyAt:keyAt+4]) and
// the output not yet handed out, as the randp library's state does, and each
// word is zeroed as it is handed out. Every 1 MiB of a generator's output
// (reseedRefills refills) 32 fresh bytes from the operating system are
// XORed into the key; and before every refill that does not reseed (but see
// readDirect), 16 bytes from crypto/rand.Read, which since Go 1.24 comes
// from the kernel's vDSO getrandom where it exists (Linux 6.11+) and so
// follows the kernel's reseeds: two copies of one generator (a VM snapshot
// restored twice) share at most one refill's output, what the state held
// unread at the copy or the refill a call in flight was making, once each
// guest kernel has reseeded. (A refill is four epochs, 3,968 bytes, so that
// the mix costs a few percent per word rather than a fifth.) While
// crypto/rand.Reader is replaced by another reader, the mix reads the
// operating system's source as seeds do (goReader), never the replacement.
//
// The block function is math/rand/v2's (internal/chacha8rand, assembly on
// amd64, arm64, loong64 and riscv64), reached through rand.ChaCha8.Uint64: no
// cipher of our own. rand.ChaCha8's fields are unexported; chachaState
// mirrors them, and each epoch lays four rand.ChaCha8 values over w, 32
// words apart, so that each block call writes its output straight into place
// (each value's buffer is the next 32 words of w, its key the 4 words after
// them, where the key is copied before the call and which the next call's
// output overwrites). checkChaChaLayout proves at start-up, on the running Go
// version, that the mirror and the real type agree (sizes, where the key and
// the counters are, and that Uint64 refills as assumed); if they do not, the
// package panics when it is initialised, naming the Go version, rather than
// run a generator it cannot vouch for.
//
// Zero is the unseeded state (refills == 0 means "reseed before the next
// refill", and n == 0 means "refill"), so a page a forked child finds wiped
// reseeds from the operating system before its first output.

// implementation is what Implementation reports on this path.
const implementation = "purego"

const (
	// epochWords is the number of words of output of one ChaCha8Rand
	// epoch: 128 less its next key.
	epochWords = 124
	// refillEpochs is the number of epochs a refill runs.
	refillEpochs = 4
	// refillWords is the number of words of output of one refill.
	refillWords = refillEpochs * epochWords
	// keyAt is where the next key is kept in w.
	keyAt = refillWords
	// blockWords is the output of one block call.
	blockWords = 32
	// reseedRefills is the number of refills between two reseeds: 1 MiB.
	reseedRefills = (1 << 20) / (refillWords * 8)
)

// chachaState mirrors math/rand/v2.ChaCha8 (Go 1.22 to 1.27): an
// internal/chacha8rand.State followed by Read's partial-word buffer.
type chachaState struct {
	buf     [32]uint64 // output of the last block call
	seed    [4]uint64  // the key
	i, n, c uint32     // next word, end of the output, block counter
	readBuf [8]byte    // unused here
	readLen int        // unused here
}

// chachaWords is the size of a chachaState in words: an epoch's last
// rand.ChaCha8 value, at w[b+96:], ends at w[b+96+chachaWords].
const chachaWords = int(unsafe.Sizeof(chachaState{}) / 8)

// generator is one pure-Go generator, in a page of its own.
type generator struct {
	// race is the page's shadow for the race detector, and orders pinned
	// sections for it (race.go); it is empty otherwise.
	race raceShadow
	// w[0:refillWords] is a refill's output, w[keyAt:keyAt+4] the next
	// key; the words above are used during a refill only and zeroed after
	// it. The last epoch's last block call lays a rand.ChaCha8 over w from
	// word (refillEpochs-1)*epochWords + 3*blockWords on (refill).
	w [(refillEpochs-1)*epochWords + 3*blockWords + chachaWords]uint64
	// i is the next word of output, n the end of it: w[i:n] is unused.
	i, n uint32
	// refills counts the refills left before the next reseed; 0 means
	// reseed first, which is also the zero state's.
	refills uint32
	// mixed is 1 from a reseed or a mix of crypto/rand's output into the
	// key (prepare) to the refill that uses the key, 0 otherwise: a refill
	// needs fresh bytes in its key (see due).
	mixed uint32
	// busy is 1 while a goroutine reseeds a per-P generator unpinned
	// (shard; see buffers_purego.go).
	busy uint32
}

var _ [pageSize - unsafe.Sizeof(generator{})]byte // a generator fits in a page

const _ = -uint(unsafe.Offsetof(generator{}.race)) // and starts with its raceShadow

var _ [len(generator{}.w) - (keyAt + 4)]byte // the next key's home lies in w

// fresh returns where a reseed's or a mix's bytes from the operating system
// land before they are XORed into the key: the 4 scratch words above the
// key, in the page, which a refill uses and leaves zero, as the reseed and
// the mix leave them. (A field of their own would not fit in the page.)
func (g *generator) fresh() *[4]uint64 { return (*[4]uint64)(g.w[keyAt+4:]) }

// chachaAt returns the rand.ChaCha8 laid over w from word k on.
func (g *generator) chachaAt(k int) (*rand.ChaCha8, *chachaState) {
	// SAFETY: w[k:k+chachaWords] lies inside w (w's length is the largest
	// k plus chachaWords), holds plain integers as rand.ChaCha8 does, and is
	// 8-byte aligned as rand.ChaCha8 is (checkChaChaLayout); rand.ChaCha8
	// holds no pointers, so the collector has nothing to trace there.
	p := unsafe.Pointer(&g.w[k])
	return (*rand.ChaCha8)(p), (*chachaState)(p)
}

// refill runs refillEpochs epochs of ChaCha8Rand, the first under the key
// in w[keyAt:keyAt+4]: w[0:refillWords] becomes output and w[keyAt:keyAt+4]
// the next key, and no key that made output is anywhere. It leaves i = 0
// and n = refillWords. g must be ready (!g.due()), or, for a refill that
// readDirect takes whole after its own mix, need no reseed.
func (g *generator) refill() {
	raceRead(&g.race, &g.refills)
	raceWrite(&g.race, &g.refills)
	g.refills--
	raceWrite(&g.race, &g.mixed)
	g.mixed = 0
	// The block calls read the key and write w up to the end of the last
	// call's rand.ChaCha8 (announced as all of w).
	raceRead(&g.race, (*[4]uint64)(g.w[keyAt:]))
	raceWrite(&g.race, &g.w)
	// Epoch e writes w[124e:124e+128], its output and then its next key,
	// where epoch e+1 reads that key before it writes its own output over
	// it; the last epoch's next key lands at keyAt. The first epoch's key,
	// at keyAt, lies above all that the epochs before the last write, and
	// the last overwrites it.
	g.epoch(0, keyAt)
	for b := epochWords; b < refillWords; b += epochWords {
		g.epoch(b, b)
	}
	// The last key copy and the last value's counters.
	clear(g.w[keyAt+4:])
	raceWrite(&g.race, &g.i)
	raceWrite(&g.race, &g.n)
	g.i, g.n = 0, refillWords
}

// epoch runs one epoch of ChaCha8Rand under the key at w[key:key+4] into
// w[b:b+128]: w[b:b+124] becomes output and w[b+124:b+128] the next key.
// It writes w from b up to the end of its last block call's rand.ChaCha8,
// b + 3*blockWords + chachaWords, where the last copy of the key and that
// call's counters are left for the caller to overwrite or clear.
func (g *generator) epoch(b, key int) {
	// Block call j (0 to 3) goes through the rand.ChaCha8 laid over w
	// from word k = b+32j on, whose buffer is w[k:k+32] and whose seed is
	// the key, at w[k+32:k+36]: with i == n, Uint64 refills it, the counter
	// going from 4j-4 to 4j, and returns word k, which stays in w. Before
	// each call the key is copied to where that call reads it, above the
	// output it writes. (The four calls are written out, so that every
	// counter is a constant.)
	*(*[4]uint64)(g.w[b+blockWords:]) = [4]uint64(g.w[key:])
	c, m := g.chachaAt(b)
	m.i, m.n, m.c = 0, 0, ^uint32(3) // -4
	c.Uint64()
	*(*[4]uint64)(g.w[b+2*blockWords:]) = [4]uint64(g.w[b+blockWords:])
	c, m = g.chachaAt(b + blockWords)
	m.i, m.n, m.c = 0, 0, 0
	c.Uint64()
	*(*[4]uint64)(g.w[b+3*blockWords:]) = [4]uint64(g.w[b+2*blockWords:])
	c, m = g.chachaAt(b + 2*blockWords)
	m.i, m.n, m.c = 0, 0, 4
	c.Uint64()
	*(*[4]uint64)(g.w[b+4*blockWords:]) = [4]uint64(g.w[b+3*blockWords:])
	c, m = g.chachaAt(b + 3*blockWords)
	m.i, m.n, m.c = 0, 0, 8
	c.Uint64()
}

// due reports whether g must be prepared (prepare) before its next refill:
// it is new, wiped or due for a reseed, or its key holds no fresh bytes yet
// for the next refill (a mix of crypto/rand's output; switched off by
// mixOff).
func (g *generator) due() bool {
	raceRead(&g.race, &g.mixed)
	return g.reseedDue() || g.mixed == 0 && !mixOff.Load()
}

// reseedDue reports whether g must be reseeded before its next refill: it
// is new or wiped, or has made 1 MiB since its last reseed.
func (g *generator) reseedDue() bool {
	raceRead(&g.race, &g.refills)
	return g.refills == 0
}

// prepare reseeds g if that is due, and otherwise mixes crypto/rand's
// output into its key; either way the next refill is no longer due (see
// due). Both read the operating system, which may block: never call it
// pinned.
func (g *generator) prepare() {
	if g.reseedDue() {
		g.reseed()
	} else {
		g.mixKernel()
	}
	raceWrite(&g.race, &g.mixed)
	g.mixed = 1
}

// reseed XORs 32 bytes from the operating system into g's key (into a zero key, for
// a new or wiped generator) and restarts the reseed countdown.
func (g *generator) reseed() {
	fresh := g.fresh()
	raceWrite(&g.race, fresh)
	readOS(unsafe.Pointer(fresh), len(fresh)*8)
	raceTake(&g.race, fresh)
	raceRead(&g.race, (*[4]uint64)(g.w[keyAt:]))
	raceWrite(&g.race, (*[4]uint64)(g.w[keyAt:]))
	for i, f := range fresh {
		g.w[keyAt+i] ^= f
	}
	clear(fresh[:])
	raceWrite(&g.race, &g.refills)
	g.refills = reseedRefills
}

// mixKernel XORs 16 bytes from crypto/rand.Read into the first half of g's
// key; they pass through g.fresh, in the page, which is zeroed after. While
// crypto/rand.Reader is not Go's own (goReader), they come from the
// operating system's source instead (readOS).
func (g *generator) mixKernel() {
	fresh := g.fresh()
	raceWrite(&g.race, fresh)
	if goReader != nil && crand.Reader == goReader {
		// SAFETY: fresh is 32 writable bytes in the page, with no Go
		// pointers; crypto/rand.Read never returns short (it ends the
		// process if the operating system fails it).
		crand.Read(unsafe.Slice((*byte)(unsafe.Pointer(fresh)), 16))
	} else {
		readOS(unsafe.Pointer(fresh), 16)
	}
	raceTake(&g.race, fresh)
	raceRead(&g.race, (*[4]uint64)(g.w[keyAt:]))
	raceWrite(&g.race, (*[4]uint64)(g.w[keyAt:]))
	g.w[keyAt] ^= fresh[0]
	g.w[keyAt+1] ^= fresh[1]
	clear(fresh[:])
}

// goReader is crypto/rand.Reader as Go sets it, or nil when a package
// initialised before this one had replaced it. crypto/rand.Read reads any
// reader put in its place and ends the process if that reader fails, as a
// test's fixture that runs out does; mixKernel calls it only while
// crypto/rand.Reader is still Go's own, whose output follows the kernel's
// reseeds.
var goReader = goOwnReader(crand.Reader)

// goOwnReader is r if its type is one of Go's crypto packages' (the
// default crypto/rand.Reader), else nil.
func goOwnReader(r io.Reader) io.Reader {
	t := reflect.TypeOf(r)
	if t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || !strings.HasPrefix(t.PkgPath(), "crypto/") {
		return nil
	}
	return r
}

// mixOff switches the mix of crypto/rand's output off, for the tests that
// compare the output with ChaCha8's and the control of those that show the
// mix is needed; set only by tests.
var mixOff atomic.Bool

// readOS fills the n bytes at p from the operating system's source, or ends
// the process (see entropyFailed).
func readOS(p unsafe.Pointer, n int) {
	// SAFETY: p points to n writable bytes that hold no Go pointers.
	if _, err := io.ReadFull(osReader, unsafe.Slice((*byte)(p), n)); err != nil {
		entropyFailed(err)
	}
}

// entropyFailed ends the process with a message and exit status 2, as
// crypto/rand does when the OS fails it: a panic could be recovered, and the
// caller then go on without the bytes it asked for. (Off Linux, with Go's
// own crypto/rand.Reader, osReader never returns an error: crypto/rand ends
// the process itself.)
func entropyFailed(err error) {
	os.Stderr.WriteString("randp: the operating system's entropy source failed: " + err.Error() + "\n")
	os.Exit(2)
}

// osUint64 returns 64 bits from the operating system's source, for calls
// that find no generator they may use.
func osUint64() uint64 {
	var b [8]byte
	readOS(unsafe.Pointer(&b), len(b))
	return binary.LittleEndian.Uint64(b[:])
}

func init() { checkChaChaLayout() }

// checkChaChaLayout panics unless chachaState describes rand.ChaCha8 as the
// running Go version lays it out and refills it.
func checkChaChaLayout() {
	var st chachaState
	ok := unsafe.Sizeof(st) == unsafe.Sizeof(rand.ChaCha8{}) &&
		unsafe.Alignof(st) == unsafe.Alignof(rand.ChaCha8{})
	if ok {
		// A public, fixed seed: this generator checks the layout only.
		var seed [32]byte
		for i := range seed {
			seed[i] = byte(i + 1)
		}
		c := rand.NewChaCha8(seed)
		// SAFETY: the sizes and alignments agree, and both types hold
		// plain integers only.
		m := (*chachaState)(unsafe.Pointer(c))
		ok = m.seed[0] == binary.LittleEndian.Uint64(seed[0:]) && m.seed[3] == binary.LittleEndian.Uint64(seed[24:]) &&
			m.i == 0 && m.n == 32 && m.c == 0 && m.buf[0] != 0 && m.buf[31] != 0
		first := m.buf[0]
		ok = ok && c.Uint64() == first && m.i == 1
		// A block call at counter 0 under a new key, as generator.refill
		// makes, writing only buf, i, n and c.
		m.seed = [4]uint64{1, 2, 3, 4}
		m.i, m.n, m.c = 0, 0, ^uint32(3)
		m.readBuf, m.readLen = [8]byte{9}, 9
		v := c.Uint64()
		ok = ok && v == m.buf[0] && v != first && m.i == 1 && m.n == 32 && m.c == 0 &&
			m.seed == [4]uint64{1, 2, 3, 4} && m.readBuf == [8]byte{9} && m.readLen == 9
	}
	if !ok {
		panic("randp: math/rand/v2.ChaCha8 is not laid out as randp's pure-Go generator expects on " +
			runtime.Version() + "; build with cgo or use a randp release that supports this Go version")
	}
}
