package randp

import (
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"
)

// worker is how programs keep a source per worker: by value, in a struct
// that a growing slice holds.
type worker struct {
	id  int
	src Buffered
}

// TestCopiesGrownByAppend: append copies every Buffered that a slice of
// structs holds when it grows the slice, after the Buffered has drawn, and
// go vet cannot see it. The copies must keep working after the collector
// frees the old backing arrays (and their sources' pages go back to the
// package) and new sources take those pages: no fault, no page shared by two
// sources, and so no value handed out twice or zero, while each copy and
// each new source draws from a goroutine of its own.
func TestCopiesGrownByAppend(t *testing.T) {
	const workers = 200
	var ws []worker
	for i := range workers {
		ws = append(ws, worker{id: i})
		ws[i].src.Uint64()
	}
	settleCleanups()
	fresh := make([]*Buffered, workers)
	for i := range fresh {
		fresh[i] = Source()
		fresh[i].Uint64()
	}
	srcs := make([]*Buffered, 0, 2*workers)
	for i := range ws {
		srcs = append(srcs, &ws[i].src)
	}
	srcs = append(srcs, fresh...)
	drawDistinct(t, srcs, 2*BufferSize/8)
	checkOwnPages(t, srcs)
}

// TestCopiesByCloneAndCopy: slices.Clone, copy and slices.Grow copy
// Buffered sources that have drawn, and go vet sees none of it. The
// original and every copy must each be a source of its own: used at the
// same time from goroutines of their own (which the race detector checks in
// race builds), they hand out no value twice, and no two of them share a
// page.
func TestCopiesByCloneAndCopy(t *testing.T) {
	orig := make([]Buffered, 8)
	for i := range orig {
		orig[i].Uint64()
	}
	cloned := slices.Clone(orig)
	copied := make([]Buffered, len(orig))
	copy(copied, orig)
	grown := slices.Grow(orig[:len(orig):len(orig)], 1)
	var srcs []*Buffered
	for _, s := range [][]Buffered{orig, cloned, copied, grown} {
		for i := range s {
			srcs = append(srcs, &s[i])
		}
	}
	drawDistinct(t, srcs, 2*BufferSize/8)
	checkOwnPages(t, srcs)
}

// settleCleanups collects garbage until the cleanups it queued have run.
func settleCleanups() {
	for range 5 {
		runtime.GC()
		time.Sleep(20 * time.Millisecond)
	}
}

// drawDistinct draws n values from each source, each source in a goroutine
// of its own, and fails if a value is zero or was handed out twice.
func drawDistinct(t *testing.T, srcs []*Buffered, n int) {
	t.Helper()
	out := make([][]uint64, len(srcs))
	var wg sync.WaitGroup
	for i, s := range srcs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			vs := make([]uint64, n)
			for j := range vs {
				vs[j] = s.Uint64()
			}
			out[i] = vs
		}()
	}
	wg.Wait()
	seen := make(map[uint64]int, len(srcs)*n)
	for i, vs := range out {
		for _, v := range vs {
			if v == 0 {
				t.Fatalf("source %d handed out 0", i)
			}
			if j, dup := seen[v]; dup {
				t.Fatalf("sources %d and %d handed out the same value %#x", j, i, v)
			}
			seen[v] = i
		}
	}
}

// checkOwnPages fails if two of srcs share a page.
func checkOwnPages(t *testing.T, srcs []*Buffered) {
	t.Helper()
	owner := make(map[*bufMem]int)
	for i, s := range srcs {
		if s.mem == &noBuffer {
			continue // draws through the package-level functions
		}
		if j, dup := owner[s.mem]; dup {
			t.Fatalf("sources %d and %d share a page", j, i)
		}
		owner[s.mem] = i
	}
}
