//go:build linux && (amd64 || arm64)

package randp

import (
	"encoding/binary"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// noPageRole tells a re-run test binary to draw with no page to keep.
const noPageRole = "RANDP_TEST_NO_PAGE"

// TestNoPageKeepsNoOutput: where the kernel does not wipe a page in a forked
// child, the package keeps nothing on the Go side and draws every value
// directly (the README's "Forks, dumps and swap"). In a child process each,
// for each path's test binary, under the seccomp filter of
// TestFakedAdviceKeepsNoPage (the advice faked from the start), eight
// goroutines draw through every API: every P's shard must be noShard, every
// Buffered's page noBuffer, noShard and noBuffer must still hold nothing
// (no output, no key, no count: they are ordinary Go memory, shared by every
// P and every Buffered, and a forked child inherits them), and the values
// must be distinct. TestFakedAdviceKeepsNoPage checks mapPage alone; this
// checks that its callers keep nothing when it gives no page. Where no page
// is ever given (qemu-user), the test runs in its own process.
func TestNoPageKeepsNoOutput(t *testing.T) {
	if os.Getenv(noPageRole) != "" {
		noPageChild()
		return
	}
	if p := mapPage(); p == nil {
		// No page anywhere in this process (qemu-user, say): the draws
		// here take the path that the child's filter forces.
		if msg := noPageDraws(); msg != "" {
			t.Fatal(msg)
		}
		return
	} else {
		releasePage(p)
	}
	out, _ := rerun("TestNoPageKeepsNoOutput", noPageRole+"=1")
	switch got := string(out); {
	case strings.Contains(got, "no-page: kept nothing"):
	case strings.Contains(got, "no-page: no seccomp") && underQemuUser():
		t.Skipf("%s (qemu-user refuses seccomp filters)", strings.TrimSpace(got))
	default:
		t.Errorf("the child must keep no output on the Go side:\n%s", got)
	}
}

// noPageChild installs the faked advice, checks that mapPage refuses, draws,
// and reports.
func noPageChild() {
	runtime.LockOSThread() // the filter applies to this thread
	if len(*shards.Load()) != 0 {
		println("no-page: shards were made before the filter")
		os.Exit(1)
	}
	if err := fakeWipeOnFork(false); err != 0 {
		println("no-page: no seccomp filter:", err.Error())
		os.Exit(1)
	}
	if p := mapPage(); p != nil || !wipeRefused.Load() {
		println("no-page: a page was mapped under the filter")
		os.Exit(1)
	}
	if msg := noPageDraws(); msg != "" {
		println("no-page:", msg)
		os.Exit(1)
	}
	println("no-page: kept nothing")
	os.Exit(0)
}

// noPageDraws draws through every API from eight goroutines, with mapPage
// refusing every page, and says what went wrong, if anything.
func noPageDraws() string {
	const goroutines, rounds = 8, 300
	vals := make([][]uint64, goroutines)
	srcs := make([]*Buffered, goroutines)
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := Source()
			srcs[g] = s
			b := make([]byte, readDirectMin+64)
			var got []uint64
			for i := range rounds {
				got = append(got, Uint64(), s.Uint64(), uint64(s.Int63()), UnbufferedSource().Uint64())
				// Every length of each of Read's cases, 1 to 8 bytes apart.
				for _, k := range []int{8, 16, 24, 40, 64, 72, 256, readDirectMin - 8, readDirectMin + 64} {
					k -= i % 8
					clear(b)
					Read(b[:k])
					if k >= 8 {
						got = append(got, binary.LittleEndian.Uint64(b[k-8:]))
					}
				}
			}
			vals[g] = got
		}()
	}
	wg.Wait()
	for pid, sh := range *shards.Load() {
		if sh != &noShard {
			return "P " + strconv.Itoa(pid) + " has a shard of its own, not noShard"
		}
	}
	for _, s := range srcs {
		if s.mem != &noBuffer {
			return "a Buffered has a page of its own, not noBuffer"
		}
	}
	if !shardHeldNothing(&noShard) {
		return "noShard holds output or a count"
	}
	if !bufferHeldNothing(&noBuffer) {
		return "noBuffer holds output or a count"
	}
	seen := make(map[uint64]bool)
	for _, vs := range vals {
		for _, v := range vs {
			if seen[v] {
				return "a value was drawn twice"
			}
			seen[v] = true
		}
	}
	return ""
}
