package randp

import (
	"encoding/binary"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"
)

// TestHintOfAnotherPIsNotUsed: a hint slot holding a shard that is not the
// calling P's (another P's, noShard, none) fails the check, and rehint
// returns the P's own shard and leaves it in the slot.
func TestHintOfAnotherPIsNotUsed(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(max(2, runtime.GOMAXPROCS(0))))
	procPin()
	pinSlow() // makes every P's shard, and unpins
	var here byte
	slot := hintSlot(uintptr(unsafe.Pointer(&here)))
	s := *shards.Load()
	pid := procPin()
	defer procUnpin()
	// Where no page can be kept (as under qemu-user) every P's shard is
	// noShard, which is then the right hint, not a wrong one.
	for _, wrong := range []*shard{s[(pid+1)%len(s)], &noShard, nil} {
		if wrong == s[pid] {
			continue
		}
		slot.Store(wrong)
		if isShardOf(wrong, pid) {
			t.Fatalf("isShardOf(%p, %d) = true; P %d's shard is %p", wrong, pid, pid, s[pid])
		}
		if sh, ok := rehint(slot, pid); !ok || sh != s[pid] {
			t.Fatalf("rehint = %p, %v; want P %d's shard %p", sh, ok, pid, s[pid])
		}
		if got := slot.Load(); got != s[pid] || !isShardOf(got, pid) {
			t.Fatalf("after rehint the slot holds %p; want %p", got, s[pid])
		}
	}
}

// TestPoisonedHintsKeepValuesDistinct keeps every hint slot pointing at P
// 0's shard while goroutines on every P draw from Uint64 and Read: a
// goroutine on another P that used its hint unchecked would share P 0's
// buffer with the goroutines pinned there, and the same bytes would be
// handed out twice.
func TestPoisonedHintsKeepValuesDistinct(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(max(2, runtime.GOMAXPROCS(0))))
	procPin()
	pinSlow() // makes every P's shard, and unpins
	p0 := (*shards.Load())[0]
	var stop atomic.Bool
	poisoned := make(chan struct{})
	go func() {
		defer close(poisoned)
		for !stop.Load() {
			for i := range hints {
				hints[i].Store(p0)
			}
			runtime.Gosched()
		}
	}()
	const goroutines, rounds = 8, 20000
	vals := make([][]uint64, goroutines)
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var b [16]byte
			got := make([]uint64, 0, 3*rounds)
			for range rounds {
				got = append(got, Uint64())
				Read(b[:])
				got = append(got, binary.LittleEndian.Uint64(b[:]), binary.LittleEndian.Uint64(b[8:]))
			}
			vals[g] = got
		}()
	}
	wg.Wait()
	stop.Store(true)
	<-poisoned
	checkDistinct(t, make(map[uint64]bool, goroutines*3*rounds), vals)
}

// TestOversubscribedShortReads runs four times as many goroutines as Ps,
// and more Ps than the machine has cores, making short reads of every size
// up to 40 bytes and Uint64 calls, so that the threads refilling a P's
// buffer unpinned are preempted and the P's next goroutines meet its buffer
// busy, short or just published. Every value must be distinct, and no
// call may take more bytes than it asked for (a read that took the
// published buffer for the bytes left ran past its slice's end while
// pinned, which ends the process).
func TestOversubscribedShortReads(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(max(8, 2*runtime.NumCPU())))
	goroutines := 4 * runtime.GOMAXPROCS(0)
	const kept = 4000 // values kept per goroutine for the distinctness check
	deadline := time.Now().Add(1500 * time.Millisecond)
	vals := make([][]uint64, goroutines)
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var buf [40 + 8]byte
			got := make([]uint64, 0, kept)
			for i := 0; time.Now().Before(deadline); i++ {
				for k := 1; k <= 40; k++ {
					buf[k] = 0xA5
					Read(buf[:k])
					if buf[k] != 0xA5 {
						t.Errorf("a Read of %d bytes wrote past its end", k)
						return
					}
					if k == 16 && len(got) < kept {
						got = append(got, binary.LittleEndian.Uint64(buf[:]), binary.LittleEndian.Uint64(buf[8:]))
					}
				}
				if v := Uint64(); len(got) < kept {
					got = append(got, v)
				}
			}
			vals[g] = got
		}()
	}
	wg.Wait()
	checkDistinct(t, make(map[uint64]bool, goroutines*kept), vals)
}

// TestOversubscribedUint64 is TestOversubscribedShortReads for Uint64: four
// goroutines per P, more Ps than cores, each calling Uint64 with a Read of 1
// to 7 bytes between calls (which leaves the cgo path's buffers holding
// fewer than 8 bytes, so that Uint64 refills them often). A goroutine that
// refills a P's buffer or reseeds its generator unpinned is then preempted
// often enough for the P's next goroutines to meet the buffer mid-refill:
// with the cgo path's uint64Slow refilling without marking the shard busy,
// or the pure-Go Uint64 unpinning before it moves i past the word it zeroed,
// they take bytes already zeroed or handed out. No Uint64 may be zero
// (probability 2^-64) and every value kept must be distinct.
// TestOversubscribedShortReads makes one Uint64 call per 40 reads, and
// passes with both changes.
func TestOversubscribedUint64(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(max(8, 2*runtime.NumCPU())))
	goroutines := 4 * runtime.GOMAXPROCS(0)
	const kept = 20000 // values kept per goroutine for the distinctness check
	deadline := time.Now().Add(1500 * time.Millisecond)
	vals := make([][]uint64, goroutines)
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got := make([]uint64, 0, kept)
			var b [8]byte
			for i := 0; time.Now().Before(deadline); i++ {
				v := Uint64()
				if v == 0 {
					t.Errorf("Uint64 returned zero after %d calls", i)
					return
				}
				if len(got) < kept {
					got = append(got, v)
				}
				Read(b[:1+i%7])
			}
			vals[g] = got
		}()
	}
	wg.Wait()
	checkDistinct(t, make(map[uint64]bool, goroutines*kept), vals)
}
