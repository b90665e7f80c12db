//go:build cgo && linux && (amd64 || arm64) && !randp_purego

package randp

import "testing"

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
	if s.mem == &noBuffer {
		if native() {
			t.Fatal("no buffer page: the kernel does not wipe it in a forked child")
		}
		t.Skip("qemu-user: no buffer page is kept, every value is drawn directly (TestPagesAreWipedOnForkAndNotDumped)")
	}
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

// checkAllShards checks every per-P buffer. The test's own goroutine made
// every call, so nothing else is touching the shards.
func checkAllShards(t *testing.T) {
	t.Helper()
	p := shards.Load()
	if p == nil {
		t.Fatal("no per-P buffers exist after package-level calls")
	}
	for i, sh := range *p {
		if sh == nil {
			continue
		}
		if sh.n == shardBusy {
			t.Fatalf("shard %d is left marked busy", i)
		}
		checkConsumedZero(t, "shard", &sh.buf, uint(sh.n))
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
