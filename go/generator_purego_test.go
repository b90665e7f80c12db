//go:build !cgo || randp_purego || !linux || !(amd64 || arm64)

package randp

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"
)

// These white-box tests look inside the pure-Go generators: the output
// follows the documented key chain, every word handed out is zeroed, and no
// key that made handed-out output stays in the state.

// expectedChunk returns what one refill under key makes: the first 28
// words of the ChaCha8 block function at counter 4 (output) and words 28 to
// 31 (the next key), computed through math/rand/v2's public encoding of a
// ChaCha8 state rather than through the mirror.
func expectedChunk(t *testing.T, key [4]uint64) (out [chunkWords]uint64, next [4]uint64) {
	t.Helper()
	// "chacha8:", the number of words used (32 puts the counter at 4, at
	// the start of a block), then the key, little-endian.
	enc := binary.BigEndian.AppendUint64([]byte("chacha8:"), 32)
	for _, k := range key {
		enc = binary.LittleEndian.AppendUint64(enc, k)
	}
	var c rand.ChaCha8
	if err := c.UnmarshalBinary(enc); err != nil {
		t.Fatal(err)
	}
	for i := range out {
		out[i] = c.Uint64()
	}
	for i := range next {
		next[i] = c.Uint64()
	}
	return out, next
}

func TestGeneratorFollowsTheKeyChain(t *testing.T) {
	s := Source()
	s.Uint64()
	g := s.mem
	if g == &noBuffer {
		t.Fatal("no generator page: the kernel does not wipe it in a forked child")
	}
	key := [4]uint64{0x0123456789abcdef, 2, 3, 4}
	g.ch.seed = key
	g.ch.i, g.ch.n = 0, 0
	for chunk := range 5 {
		want, next := expectedChunk(t, key)
		for i, w := range want {
			if got := s.Uint64(); got != w {
				t.Fatalf("chunk %d word %d: got %#x, want %#x", chunk, i, got, w)
			}
		}
		if g.ch.seed != next {
			t.Fatalf("chunk %d: the key is %x, want words 28-31 of the block, %x", chunk, g.ch.seed, next)
		}
		key = next
	}
}

func TestGeneratorZeroesAndErases(t *testing.T) {
	s := Source()
	s.Uint64()
	g := s.mem
	for n := range 3 * chunkWords {
		oldKey := g.ch.seed
		s.Uint64()
		if g.ch.i == 1 && g.ch.seed == oldKey {
			t.Fatalf("value %d: a refill kept the key", n)
		}
		for j, w := range g.ch.buf {
			if (uint32(j) < g.ch.i || j >= chunkWords) && w != 0 {
				t.Fatalf("value %d: word %d of the buffer is %#x, not zero (i = %d)", n, j, w, g.ch.i)
			}
			if uint32(j) >= g.ch.i && j < chunkWords && w == 0 {
				t.Fatalf("value %d: unused word %d is zero", n, j)
			}
		}
		if g.fresh != [4]uint64{} {
			t.Fatal("the reseed's bytes were left in the state")
		}
	}
	if g.refills == 0 || g.refills > reseedRefills {
		t.Fatalf("refills = %d, want 1..%d", g.refills, reseedRefills)
	}
}

func TestGeneratorReseeds(t *testing.T) {
	s := Source()
	s.Uint64()
	g := s.mem
	// Make the next refill the last before a reseed, then pass it.
	g.ch.i = g.ch.n
	g.refills = 1
	s.Uint64()
	if g.refills != 0 {
		t.Fatalf("refills = %d after the last refill, want 0", g.refills)
	}
	key := g.ch.seed
	g.ch.i = g.ch.n
	s.Uint64()
	if g.refills != reseedRefills-1 {
		t.Fatalf("refills = %d after a reseed and a refill, want %d", g.refills, reseedRefills-1)
	}
	// Without the reseed the key would be words 28-31 of the block made
	// under key.
	if _, next := expectedChunk(t, key); g.ch.seed == next {
		t.Fatal("the reseed did not change the key")
	}
}

// TestZeroGeneratorReseeds wipes a generator as a forked child finds it:
// its next value must come from a key drawn from crypto/rand, not from the
// all-zero key.
func TestZeroGeneratorReseeds(t *testing.T) {
	s := Source()
	s.Uint64()
	*s.mem = generator{}
	zeroOut, _ := expectedChunk(t, [4]uint64{})
	if v := s.Uint64(); v == zeroOut[0] {
		t.Fatal("a wiped generator produced the all-zero key's output")
	}
	if s.mem.ch.seed == ([4]uint64{}) || s.mem.refills != reseedRefills-1 {
		t.Fatalf("a wiped generator was not reseeded: key %x, refills %d", s.mem.ch.seed, s.mem.refills)
	}
}

func TestSharedGeneratorsZeroConsumed(t *testing.T) {
	b := make([]byte, readDirectMin+100)
	for i := range 5000 {
		Uint64()
		Read(b[:i%len(b)])
	}
	p := shards.Load()
	if p == nil {
		t.Fatal("no per-P generators exist after package-level calls")
	}
	for i, sh := range *p {
		if sh == nil {
			continue
		}
		if sh.busy != 0 {
			t.Fatalf("generator %d is left marked busy", i)
		}
		for j, w := range sh.ch.buf {
			if (uint32(j) < sh.ch.i || j >= chunkWords) && w != 0 {
				t.Fatalf("generator %d: consumed word %d is %#x, not zero", i, j, w)
			}
		}
	}
}
