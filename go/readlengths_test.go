package randp

import "testing"

// TestReadZeroesEveryLength makes Reads of every length from 1 to 8 bytes
// past readDirectMin, 48 of each, from one goroutine, with a Uint64 now and
// then, and checks after each call that no byte handed out is left in any
// per-P buffer (cgo) or generator (pure Go) (checkAllShards), and that each
// byte of a read of each length is output: zero in at most 8 of the 48 reads
// (output is zero once in 256; 9 or more zeroes out of 48 has probability
// below 1e-12 per byte). TestReadFills asks a trailing byte to be non-zero in
// one read of 64 only, which a read path that leaves a byte unwritten
// passes as long as one of the 64 reads takes another path (a refill), and
// the other zeroing tests look at the buffers now and then, not after every
// length.
func TestReadZeroesEveryLength(t *testing.T) {
	const reads, maxZero = 48, 8
	b := make([]byte, readDirectMin+8)
	zeros := make([]int, len(b))
	for k := 1; k <= len(b); k++ {
		clear(zeros)
		for r := range reads {
			clear(b[:k])
			if n, err := Read(b[:k]); n != k || err != nil {
				t.Fatalf("Read of %d bytes = %d, %v", k, n, err)
			}
			for j, c := range b[:k] {
				if c == 0 {
					zeros[j]++
				}
			}
			if r%8 == 7 {
				Uint64()
			}
			checkAllShards(t)
		}
		for j, z := range zeros[:k] {
			if z > maxZero {
				t.Fatalf("Read of %d bytes: byte %d was zero in %d of %d reads", k, j, z, reads)
			}
		}
	}
}

// TestNoShardAndNoBufferHoldNothing draws through every API and checks that
// noShard and noBuffer, which stand for a page where none can be kept and
// are ordinary Go memory shared by every P and every Buffered, hold nothing:
// nothing may ever be buffered or generated in them (TestNoPageKeepsNoOutput
// checks the same where no page is kept).
func TestNoShardAndNoBufferHoldNothing(t *testing.T) {
	s := Source()
	b := make([]byte, readDirectMin+64)
	for k := range b {
		Uint64()
		s.Uint64()
		s.Int63()
		Read(b[:k])
	}
	if !shardHeldNothing(&noShard) {
		t.Fatal("noShard holds output or a count")
	}
	if !bufferHeldNothing(&noBuffer) {
		t.Fatal("noBuffer holds output or a count")
	}
}
