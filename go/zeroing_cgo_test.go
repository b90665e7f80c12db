//go:build cgo && linux && !android && (amd64 || arm64) && !randp_purego

package randp

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"
)

// These white-box tests look inside the cgo path's Go-side buffers: every word handed
// out must have been overwritten with zero, and the words not yet handed out
// must be generator output (not all zero).

// checkConsumedZero checks buf, of which the first n words are unused.
func checkConsumedZero(t *testing.T, name string, buf *[bufferWords]uint64, n uint) {
	t.Helper()
	if n > bufferWords {
		t.Fatalf("%s: n = %d exceeds the %d words of the buffer", name, n, bufferWords)
	}
	for i, w := range buf[n:] {
		if w != 0 {
			t.Fatalf("%s: consumed word %d of the buffer is %#x, not zero", name, int(n)+i, w)
		}
	}
	if n >= 2 && allZero(buf[:n]) {
		t.Fatalf("%s: the %d unused words are all zero", name, n)
	}
}

func TestBufferedZeroesConsumed(t *testing.T) {
	s := Source()
	s.Uint64()
	needPage(t, s.mem != &noBuffer, "buffer page")
	total := 1
	for _, k := range []int{1, 100, bufferWords - 101, 1, 300, bufferWords} {
		for range k {
			s.Uint64()
		}
		total += k
		checkConsumedZero(t, "Buffered", &s.mem.buf, s.mem.n)
		// After total values from a buffer of bufferWords words, n is what
		// remains of the current fill (a full refill is taken lazily).
		want := uint(bufferWords - total%bufferWords)
		if total%bufferWords == 0 {
			want = 0
		}
		if s.mem.n != want {
			t.Fatalf("n = %d after %d values; want %d", s.mem.n, total, want)
		}
	}
	s.Int63()
	checkConsumedZero(t, "Buffered after Int63", &s.mem.buf, s.mem.n)
}

func TestSharedBuffersZeroConsumed(t *testing.T) {
	b := make([]byte, readDirectMin)
	for i := range 5000 {
		Uint64()
		Read(b[:i%len(b)])
		if i%997 == 0 {
			checkAllShards(t)
		}
	}
	checkAllShards(t)
}

// checkAllShards checks every per-P buffer, whose first n bytes are unused
// and the rest must be zero. The test's own goroutine made every call, so
// nothing else is touching the shards.
func checkAllShards(t *testing.T) {
	t.Helper()
	p := shards.Load()
	if len(*p) == 0 {
		t.Fatal("no per-P buffers exist after package-level calls")
	}
	for i, sh := range *p {
		if sh.n == shardBusy {
			t.Fatalf("shard %d is left marked busy", i)
		}
		if sh.n > BufferSize {
			t.Fatalf("shard %d: n = %d exceeds the %d bytes of the buffer", i, sh.n, BufferSize)
		}
		for j, c := range sh.bytes(sh.n, BufferSize-sh.n) {
			if c != 0 {
				t.Fatalf("shard %d: consumed byte %d of the buffer is %#x, not zero", i, int(sh.n)+j, c)
			}
		}
		if sh.n >= 16 && allZero(sh.buf[:sh.n/8]) {
			t.Fatalf("shard %d: the %d unused bytes are all zero", i, sh.n)
		}
	}
}

func allZero(words []uint64) bool {
	for _, w := range words {
		if w != 0 {
			return false
		}
	}
	return true
}

// TestTakeCopiesAndZeroes hands out every size of short read from a shard of
// the test's own, filled with random bytes, as Read does: b receives exactly
// the top len(b) unused bytes, nothing past b is written, the bytes handed
// out are zeroed and the bytes below them are left as they were.
func TestTakeCopiesAndZeroes(t *testing.T) {
	sh := new(shard)
	all := sh.bytes(0, BufferSize)
	for k := 1; k < readDirectMin; k++ {
		for i := range all {
			all[i] = byte(rand.Uint32())
		}
		before := bytes.Clone(all)
		sh.n = BufferSize - 3 // the top is not always where a take starts
		const guard = 16
		full := bytes.Repeat([]byte{0xA5}, k+guard)
		b := full[:k:k]
		src, ok := sh.take(k)
		if !ok {
			t.Fatalf("take(%d) refused a shard holding %d bytes", k, BufferSize-3)
		}
		takeOut(b, src)
		top := BufferSize - 3
		if sh.n != uintptr(top-k) {
			t.Fatalf("take(%d): n = %d, want %d", k, sh.n, top-k)
		}
		if !bytes.Equal(b, before[top-k:top]) {
			t.Fatalf("take(%d): b = %x, want %x", k, b, before[top-k:top])
		}
		if !bytes.Equal(full[k:], bytes.Repeat([]byte{0xA5}, guard)) {
			t.Fatalf("take(%d) wrote past the end of b", k)
		}
		if !allZeroBytes(all[top-k : top]) {
			t.Fatalf("take(%d) left bytes it handed out in the buffer: %x", k, all[top-k:top])
		}
		if !bytes.Equal(all[:top-k], before[:top-k]) || !bytes.Equal(all[top:], before[top:]) {
			t.Fatalf("take(%d) changed bytes it did not hand out", k)
		}
	}
	// A shard holding fewer bytes than wanted, or busy, hands out nothing.
	for _, n := range []uintptr{0, 7, shardBusy} {
		sh.n = n
		if _, ok := sh.take(8); ok || sh.n != n {
			t.Fatalf("take(8) from a shard with n = %d: ok = %v, n = %d", n, ok, sh.n)
		}
	}
}

// TestReadShortTakesWhatIsLeft reads more than a shard of the test's own
// holds, as Read's slow path does: the bytes left go first into b, in their
// place in the buffer's order, and the rest comes from the top of the
// refilled buffer, so a refill discards no output; every byte handed out is
// zeroed and the shard's count is left at what the refill did not hand out.
func TestReadShortTakesWhatIsLeft(t *testing.T) {
	sh := new(shard)
	all := sh.bytes(0, BufferSize)
	for _, c := range []struct{ left, k int }{
		{0, 1}, {0, 8}, {1, 2}, {3, 8}, {7, 8}, {5, 40}, {31, 32}, {60, 100}, {500, readDirectMin - 1},
	} {
		what := fmt.Sprintf("%d left, %d read", c.left, c.k)
		b, before := readShortPinned(t, sh, c.left, c.k, what)
		rest := c.k - c.left
		if sh.n != uintptr(BufferSize-rest) {
			t.Fatalf("%s: n = %d, want %d", what, sh.n, BufferSize-rest)
		}
		if !bytes.Equal(b[:c.left], before[:c.left]) {
			t.Fatalf("%s: b starts %x, not the bytes left, %x", what, b[:c.left], before[:c.left])
		}
		if rest >= 16 && allZeroBytes(b[c.left:]) {
			t.Fatalf("%s: the %d bytes after the refill are zero", what, rest)
		}
		if !allZeroBytes(all[BufferSize-rest:]) {
			t.Fatalf("%s: bytes handed out after the refill are left in the buffer", what)
		}
	}
}

// readShortPinned fills sh's buffer with random bytes, sets sh.n to n and
// calls readShort, pinned as Read calls it, on a slice of k bytes followed
// by guard bytes, which it checks are untouched. It returns the slice and a
// copy of the buffer as it was before the call.
func readShortPinned(t *testing.T, sh *shard, n, k int, what string) (b, before []byte) {
	t.Helper()
	all := sh.bytes(0, BufferSize)
	for i := range all {
		all[i] = byte(rand.Uint32())
	}
	before = bytes.Clone(all)
	sh.n = uintptr(n)
	const guard = 16
	full := bytes.Repeat([]byte{0xA5}, k+guard)
	b = full[:k:k]
	procPin() // readShort is called pinned and unpins
	readShort(sh, b)
	if !bytes.Equal(full[k:], bytes.Repeat([]byte{0xA5}, guard)) {
		t.Fatalf("%s: wrote past the end of b", what)
	}
	return b, before
}

func allZeroBytes(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

// TestReadShortAfterPublish: Read's take saw the P's buffer busy or short,
// and the goroutine that was refilling it, unpinned, has published it
// before readShort loads n. readShort then takes b's bytes from the top of
// the buffer as take would have; it must not treat the whole buffer as the
// bytes left (which ran past b's end and killed the process with "panic
// holding locks").
func TestReadShortAfterPublish(t *testing.T) {
	sh := new(shard)
	all := sh.bytes(0, BufferSize)
	for _, c := range []struct{ n, k int }{
		{BufferSize, 1}, {BufferSize, 16}, {BufferSize - 8, 8}, {BufferSize - 7, 300}, {20, 20}, {readDirectMin - 1, readDirectMin - 1},
	} {
		what := fmt.Sprintf("n %d, %d read", c.n, c.k)
		b, before := readShortPinned(t, sh, c.n, c.k, what)
		if sh.n != uintptr(c.n-c.k) {
			t.Fatalf("%s: n = %d, want %d", what, sh.n, c.n-c.k)
		}
		if !bytes.Equal(b, before[c.n-c.k:c.n]) {
			t.Fatalf("%s: b = %x, not the buffer's top bytes %x", what, b, before[c.n-c.k:c.n])
		}
		if !allZeroBytes(all[c.n-c.k : c.n]) {
			t.Fatalf("%s: the bytes handed out are left in the buffer", what)
		}
		if !bytes.Equal(all[:c.n-c.k], before[:c.n-c.k]) {
			t.Fatalf("%s: the buffer was refilled or its unused bytes changed", what)
		}
	}
}

// shardHeldNothing and bufferHeldNothing report whether noShard or noBuffer
// holds no output and no count: nothing ever drew from it.
func shardHeldNothing(sh *shard) bool { return sh.n == 0 && allZero(sh.buf[:]) }

func bufferHeldNothing(m *bufMem) bool { return m.n == 0 && allZero(m.buf[:]) }
