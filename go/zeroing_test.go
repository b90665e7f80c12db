package randp

import "testing"

// These white-box tests look inside the Go-side buffers: every byte handed
// out must have been overwritten with zero, and the bytes not yet handed out
// must be generator output (not all zero).

// checkConsumedZero checks buf, of which the last left bytes are unused.
func checkConsumedZero(t *testing.T, name string, buf *[BufferSize]byte, left uint) {
	t.Helper()
	if left > BufferSize {
		t.Fatalf("%s: left = %d exceeds BufferSize", name, left)
	}
	for i, c := range buf[:BufferSize-left] {
		if c != 0 {
			t.Fatalf("%s: consumed byte %d of the buffer is %#x, not zero", name, i, c)
		}
	}
	if left >= 16 && allZero(buf[BufferSize-left:]) {
		t.Fatalf("%s: the %d unused bytes are all zero", name, left)
	}
}

func TestBufferedZeroesConsumed(t *testing.T) {
	s := Source()
	total := 0
	for _, n := range []int{1, 100, BufferSize/8 - 101, 1, 300, BufferSize / 8} {
		for range n {
			s.Uint64()
		}
		total += n
		checkConsumedZero(t, "Buffered", &s.buf, s.left)
		if want := uint(BufferSize - 8*(total%(BufferSize/8))); s.left != want && !(want == BufferSize && s.left == 0) {
			t.Fatalf("left = %d after %d values; want %d", s.left, total, want)
		}
	}
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
		if sh.busy.Load() != 0 {
			t.Fatalf("shard %d is left marked busy", i)
		}
		checkConsumedZero(t, "shard", &sh.buf, sh.left)
	}
}

func allZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}
