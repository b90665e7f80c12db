//go:build !cgo || randp_purego || !linux || !(amd64 || arm64)

package randp

import (
	crand "crypto/rand"
	"encoding/binary"
	"math/rand/v2"
	"runtime"
	"unsafe"
)

// The pure-Go path's generator: ChaCha8 with fast key erasure, the state of
// each generator in a page of the package's own (memory_linux.go,
// memory_other.go), seeded and reseeded from crypto/rand.
//
// The block function is math/rand/v2's ChaCha8 (internal/chacha8rand, with
// its assembly on amd64, arm64, loong64 and riscv64): no cipher of our own.
// A generator is a rand.ChaCha8 value kept in the page and driven so that no
// key that made handed-out output stays in memory:
//
//   - a refill runs the block function once under the current key: 32 words;
//   - words 28 to 31 become the next key at once, overwriting the old key in
//     place, and are zeroed in the buffer; words 0 to 27 are the output
//     (chunkWords, 224 bytes);
//   - each word is zeroed as it is handed out.
//
// So the state holds at any time one key that has made nothing yet and the
// output not yet handed out, as the randp library's state does (there the
// unit is a 3.5 KiB buffer). math/rand/v2's own schedule rekeys every 992
// bytes instead, and keeps the current key while it hands out that key's
// output. Every 1 MiB of a generator's output (reseedRefills refills) 32
// fresh bytes from crypto/rand are XORed into the key.
//
// rand.ChaCha8's fields are unexported; chachaState mirrors them, and
// checkChaChaLayout proves at start-up, on the running Go version, that the
// mirror and the real type agree (sizes, where the key and the counters are,
// and that Uint64 refills as assumed). If they do not, the package panics
// when it is initialised, naming the Go version, rather than run a generator
// it cannot vouch for.
//
// Zero is the unseeded state (refills == 0 means "reseed before the next
// refill", and an empty buffer means "refill"), so a page a forked child finds
// wiped reseeds from crypto/rand before its first output.

// implementation is what Implementation reports on this path.
const implementation = "purego"

// chunkWords is the number of words of output of one refill.
const chunkWords = 28

// reseedRefills is the number of refills between two reseeds: 1 MiB.
const reseedRefills = (1 << 20) / (chunkWords * 8)

// chachaState mirrors math/rand/v2.ChaCha8 (Go 1.22 to 1.26): an
// internal/chacha8rand.State followed by Read's partial-word buffer.
type chachaState struct {
	buf     [32]uint64 // output of the last block call
	seed    [4]uint64  // the key
	i, n, c uint32     // next word, end of the output, block counter
	readBuf [8]byte    // unused here
	readLen int        // unused here
}

// generator is one pure-Go generator, in a page of its own.
type generator struct {
	ch chachaState
	// fresh receives the reseed's bytes from crypto/rand, in the page, and
	// is zeroed once they are XORed into the key.
	fresh [4]uint64
	// refills counts the refills left before the next reseed; 0 means
	// reseed first, which is also the zero state's.
	refills uint32
	// busy is 1 while a goroutine reseeds a per-P generator unpinned
	// (shard; see buffers_purego.go).
	busy uint32
	// race orders pinned sections for the race detector (race.go).
	race raceOrder
}

var _ [pageSize - unsafe.Sizeof(generator{})]byte // a generator fits in a page

// chacha returns g's ChaCha8.
func (g *generator) chacha() *rand.ChaCha8 {
	// SAFETY: g.ch has rand.ChaCha8's layout (checkChaChaLayout) and holds
	// no pointers.
	return (*rand.ChaCha8)(unsafe.Pointer(&g.ch))
}

// refill rekeys g and leaves chunkWords words of output in g.ch.buf[:28],
// g.ch.i = 0 and g.ch.n = 28. g must be seeded (g.refills > 0).
func (g *generator) refill() {
	g.refills--
	// With i == n the next Uint64 refills: the counter goes from 0 to 4,
	// which never reaches rand.ChaCha8's own rekeying point, and the block
	// function writes 32 words under the current key; Uint64 then returns
	// word 0 (still in the buffer, handed out later) and sets i to 1.
	g.ch.i, g.ch.n, g.ch.c = 0, 0, 0
	g.chacha().Uint64()
	g.ch.seed = [4]uint64(g.ch.buf[chunkWords:])
	clear(g.ch.buf[chunkWords:])
	g.ch.i, g.ch.n, g.ch.c = 0, chunkWords, 0
}

// reseed XORs 32 bytes from crypto/rand into g's key (into a zero key, for
// a new or wiped generator) and restarts the reseed countdown.
func (g *generator) reseed() {
	readOS(unsafe.Pointer(&g.fresh), int(unsafe.Sizeof(g.fresh)))
	for i := range g.ch.seed {
		g.ch.seed[i] ^= g.fresh[i]
	}
	clear(g.fresh[:])
	g.refills = reseedRefills
}

// readOS fills the n bytes at p from crypto/rand, which never fails (Go
// 1.24: it crashes the program if the operating system's source fails).
func readOS(p unsafe.Pointer, n int) {
	// SAFETY: p points to n writable bytes that hold no Go pointers.
	crand.Read(unsafe.Slice((*byte)(p), n))
}

// osUint64 returns 64 bits from crypto/rand, for calls that find no
// generator they may use.
func osUint64() uint64 {
	var b [8]byte
	crand.Read(b[:])
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
		// A refill at counter 4 under a new key, as generator.refill makes.
		m.seed = [4]uint64{1, 2, 3, 4}
		m.i, m.n, m.c = 0, 0, 0
		v := c.Uint64()
		ok = ok && v == m.buf[0] && v != first && m.i == 1 && m.n == 32 && m.c == 4 && m.seed == [4]uint64{1, 2, 3, 4}
	}
	if !ok {
		panic("randp: math/rand/v2.ChaCha8 is not laid out as randp's pure-Go generator expects on " +
			runtime.Version() + "; build with cgo or use a randp release that supports this Go version")
	}
}
