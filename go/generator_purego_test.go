//go:build !cgo || randp_purego || !linux || android || !(amd64 || arm64)

package randp

import (
	crand "crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"
)

// These white-box tests look inside the pure-Go generators: the output is
// math/rand/v2's ChaCha8 stream for the generator's key, every word handed
// out is zeroed, and no key that made handed-out output stays in the state.

// chacha8 returns math/rand/v2's ChaCha8 seeded with key, the reference the
// generator's output must equal word for word.
func chacha8(key [4]uint64) *rand.ChaCha8 {
	var seed [32]byte
	for i, k := range key {
		binary.LittleEndian.PutUint64(seed[8*i:], k)
	}
	return rand.NewChaCha8(seed)
}

// seededSource returns a Buffered whose generator has its page and whose
// next refill runs under key.
func seededSource(t *testing.T, key [4]uint64) (*Buffered, *generator) {
	t.Helper()
	withoutMix(t)
	s := Source()
	s.Uint64()
	g := s.mem
	needPage(t, g != &noBuffer, "generator page")
	clear(g.w[:])
	copy(g.w[keyAt:], key[:])
	g.i, g.n = 0, 0
	return s, g
}

// withoutMix switches off the mix of crypto/rand's output into every
// refill until t ends, so that the output is ChaCha8's for a known key.
func withoutMix(t *testing.T) {
	mixOff.Store(true)
	t.Cleanup(func() { mixOff.Store(false) })
}

// exhaust hands out (zeroes) g's unused words and makes it due for a
// reseed, so that its next draw reseeds and refills.
func (g *generator) exhaust() {
	clear(g.w[g.i:g.n])
	g.refills, g.i = 0, g.n
}

// TestGeneratorIsChaCha8Rand checks 10 epochs of a generator's output
// against math/rand/v2's ChaCha8 with the same key, and that the state holds
// the key of the next epoch, never the current one.
func TestGeneratorIsChaCha8Rand(t *testing.T) {
	key := [4]uint64{0x0123456789abcdef, 2, 3, 4}
	s, g := seededSource(t, key)
	ref := chacha8(key)
	keys := map[[4]uint64]bool{key: true}
	for n := range 10 * epochWords {
		want := ref.Uint64()
		if got := s.Uint64(); got != want {
			t.Fatalf("value %d: got %#x, want ChaCha8's %#x", n, got, want)
		}
		if g.i == 1 {
			next := [4]uint64(g.w[keyAt : keyAt+4])
			if keys[next] {
				t.Fatalf("value %d: after a refill the state holds a key already used, %x", n, next)
			}
			keys[next] = true
		}
	}
}

// epochKeys returns the keys of the first n epochs of math/rand/v2's ChaCha8
// seeded with key, read from its state as it runs (the first is key).
func epochKeys(key [4]uint64, n int) [][4]uint64 {
	ref := chacha8(key)
	// SAFETY: checkChaChaLayout has proved that chachaState describes
	// rand.ChaCha8.
	m := (*chachaState)(unsafe.Pointer(ref))
	var keys [][4]uint64
	for range n {
		ref.Uint64() // the epoch's first word: its key is now the state's
		keys = append(keys, m.seed)
		for range epochWords - 1 {
			ref.Uint64()
		}
	}
	return keys
}

// TestGeneratorZeroesAndErases checks after every value that the words
// handed out, the scratch words and the reseed's bytes are zero, that the
// unused words are not, and that no word of the state equals a word of a key
// that has made output: the key of each of a refill's epochs, those that
// lived only during the refill included.
func TestGeneratorZeroesAndErases(t *testing.T) {
	key := [4]uint64{5, 6, 7, 8}
	s, g := seededSource(t, key)
	g.refills = 3
	const refills = 3
	keys := epochKeys(key, refills*refillEpochs+1)
	used := map[uint64]bool{}
	for n := range refills * refillWords {
		if g.i == g.n {
			// The next refill uses up its epochs' keys.
			r := n / refillWords
			if [4]uint64(g.w[keyAt:keyAt+4]) != keys[r*refillEpochs] {
				t.Fatalf("value %d: the state's key is not ChaCha8's epoch %d's", n, r*refillEpochs)
			}
			for _, k := range keys[r*refillEpochs : (r+1)*refillEpochs] {
				for _, w := range k {
					used[w] = true
				}
			}
		}
		s.Uint64()
		for j, w := range g.w {
			unused := uint32(j) >= g.i && uint32(j) < g.n
			if !unused && j < keyAt && w != 0 {
				t.Fatalf("value %d: word %d is %#x, not zero (i = %d)", n, j, w, g.i)
			}
			if unused && w == 0 {
				t.Fatalf("value %d: unused word %d is zero", n, j)
			}
			if j >= keyAt+4 && w != 0 {
				t.Fatalf("value %d: scratch word %d is %#x, not zero", n, j, w)
			}
			if w != 0 && used[w] && (j >= keyAt+4 || j < keyAt) {
				t.Fatalf("value %d: word %d holds a word of a used key", n, j)
			}
		}
		if *g.fresh() != [4]uint64{} {
			t.Fatal("the reseed's bytes were left in the state")
		}
	}
	if [4]uint64(g.w[keyAt:keyAt+4]) != keys[refills*refillEpochs] {
		t.Fatal("after the last refill the state's key is not ChaCha8's next epoch's")
	}
}

func TestGeneratorReseeds(t *testing.T) {
	key := [4]uint64{9, 10, 11, 12}
	s, g := seededSource(t, key)
	g.refills = 1
	ref := chacha8(key)
	for range refillWords {
		if s.Uint64() != ref.Uint64() {
			t.Fatal("the last refill before a reseed is not ChaCha8's")
		}
	}
	if g.refills != 0 {
		t.Fatalf("refills = %d after the last refill, want 0", g.refills)
	}
	// Without the reseed the next value would be ChaCha8's.
	if s.Uint64() == ref.Uint64() {
		t.Fatal("the reseed did not change the key")
	}
	if g.refills != reseedRefills-1 {
		t.Fatalf("refills = %d after a reseed and a refill, want %d", g.refills, reseedRefills-1)
	}
}

// TestZeroGeneratorReseeds wipes a generator as a forked child finds it:
// its next value must come from a key drawn from crypto/rand, not from the
// all-zero key.
func TestZeroGeneratorReseeds(t *testing.T) {
	s := Source()
	s.Uint64()
	needPage(t, s.mem != &noBuffer, "generator page")
	*s.mem = generator{}
	if v := s.Uint64(); v == chacha8([4]uint64{}).Uint64() {
		t.Fatal("a wiped generator produced the all-zero key's output")
	}
	if s.mem.refills != reseedRefills-1 {
		t.Fatalf("a wiped generator was not reseeded: refills %d", s.mem.refills)
	}
}

func TestSharedGeneratorsZeroConsumed(t *testing.T) {
	b := make([]byte, readDirectMin+100)
	for i := range 5000 {
		Uint64()
		Read(b[:i%len(b)])
	}
	checkAllShards(t)
}

// TestSharedGeneratorsReseedUnderLoad makes every per-P generator due for a
// reseed at its next refill, then lets 8 goroutines draw several epochs
// each, so that reseeds (made unpinned, with the generator marked busy)
// overlap other goroutines' draws; 20 rounds. No value may be handed out
// twice, and in each round a generator must have been reseeded.
func TestSharedGeneratorsReseedUnderLoad(t *testing.T) {
	Uint64()
	needPage(t, !slices.ContainsFunc(*shards.Load(), func(sh *shard) bool { return sh == &noShard }), "per-P generator page")
	const goroutines, rounds, draws = 8, 20, 2 * epochWords
	seen := make(map[uint64]bool)
	for range rounds {
		// Only seeded generators: refills != 0 means "seeded" to the
		// refill, and a generator made for a P that never drew still holds
		// the zero key (a test that set it would make that key's output).
		for _, sh := range *shards.Load() {
			if sh != &noShard && sh.refills != 0 {
				sh.refills = 1
			}
		}
		vals := make([][]uint64, goroutines)
		var wg sync.WaitGroup
		for g := range goroutines {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var b [24]byte
				for range draws {
					vals[g] = append(vals[g], Uint64())
					Read(b[:])
					vals[g] = append(vals[g], binary.LittleEndian.Uint64(b[:]),
						binary.LittleEndian.Uint64(b[8:]), binary.LittleEndian.Uint64(b[16:]))
					runtime.Gosched()
				}
			}()
		}
		wg.Wait()
		checkDistinct(t, seen, vals)
		reseeded := 0
		for _, sh := range *shards.Load() {
			if sh != &noShard && sh.refills > 1 {
				reseeded++
			}
		}
		if reseeded == 0 {
			t.Fatal("no per-P generator was reseeded in a round")
		}
	}
}

// TestReseedIgnoresReplacedCryptoRandReader replaces crypto/rand.Reader with
// randp's Reader, as a program may, and makes every generator reseed: the
// reseeds must still read the operating system (reading crypto/rand.Read
// would now read randp itself, and recurse without end).
func TestReseedIgnoresReplacedCryptoRandReader(t *testing.T) {
	old := crand.Reader
	crand.Reader = Reader
	defer func() { crand.Reader = old }()
	s := Source()
	s.Uint64()
	needPage(t, s.mem != &noBuffer, "generator page")
	s.mem.exhaust()
	s.Uint64()
	Uint64()
	for _, sh := range *shards.Load() {
		if sh != &noShard {
			sh.exhaust()
		}
	}
	var b [100]byte
	for range 3 {
		Uint64()
		Read(b[:])
	}
	if s.mem.refills != reseedRefills-1 {
		t.Fatalf("the Buffered did not reseed: refills %d", s.mem.refills)
	}
}

// TestTakeCopiesAndZeroes hands out every size of short read from a
// generator of the test's own, filled with random words, as Read does: b
// receives the first len(b) bytes of the next (len(b)+7)/8 unused words, as
// they lie in memory (on a big-endian host too, whatever len(b)), nothing
// past b is written, those words are zeroed and the others are left as they
// were.
func TestTakeCopiesAndZeroes(t *testing.T) {
	g := new(generator)
	for k := 1; k < readDirectMin; k++ {
		for i := range g.w[:epochWords] {
			g.w[i] = rand.Uint64()
		}
		before := g.w
		g.i, g.n = 3, epochWords // the first word is not always where a take starts
		words := (k + 7) / 8
		const guard = 16
		full := make([]byte, k+guard)
		for i := range full {
			full[i] = 0xA5
		}
		b := full[:k:k]
		src, ok := g.take(k)
		if !ok {
			t.Fatalf("take(%d) refused a generator holding %d words", k, epochWords-3)
		}
		takeOut(b, src)
		if g.i != uint32(3+words) {
			t.Fatalf("take(%d): i = %d, want %d", k, g.i, 3+words)
		}
		// The bytes of the words handed out, as they lie in memory: on a
		// big-endian host too, every length of read hands out those.
		want := unsafe.Slice((*byte)(unsafe.Pointer(&before[3])), words*8)
		for j := range k {
			if b[j] != want[j] {
				t.Fatalf("take(%d): byte %d is %#x, want %#x", k, j, b[j], want[j])
			}
		}
		for j := k; j < len(full); j++ {
			if full[j] != 0xA5 {
				t.Fatalf("take(%d) wrote past the end of b", k)
			}
		}
		for j := range g.w {
			if handed := j >= 3 && j < 3+words; handed && g.w[j] != 0 || !handed && g.w[j] != before[j] {
				t.Fatalf("take(%d): word %d is %#x (handed out: %v)", k, j, g.w[j], handed)
			}
		}
	}
	// A generator holding fewer words than wanted hands out nothing.
	g.i, g.n = 10, 11
	if _, ok := g.take(9); ok || g.i != 10 {
		t.Fatalf("take(9) from a generator with one word left: ok = %v, i = %d", ok, g.i)
	}
}

// TestBufferedInt63ZeroesAndMatches draws through Int63, whose fast path
// repeats Uint64's, across refills: each value is ChaCha8's word with the top
// bit cleared, and every word handed out is zeroed in the state, as Uint64
// zeroes it (TestGeneratorZeroesAndErases draws through Uint64 only).
func TestBufferedInt63ZeroesAndMatches(t *testing.T) {
	key := [4]uint64{13, 14, 15, 16}
	s, g := seededSource(t, key)
	ref := chacha8(key)
	for n := range 2*epochWords + 5 {
		want := int64(ref.Uint64() &^ (1 << 63))
		if got := s.Int63(); got != want {
			t.Fatalf("value %d: Int63 = %#x, want ChaCha8's word without its top bit, %#x", n, got, want)
		}
		for j, w := range g.w[:keyAt] {
			if (uint32(j) < g.i || uint32(j) >= g.n) && w != 0 {
				t.Fatalf("value %d: word %d was handed out by Int63 and is %#x, not zero (i = %d)", n, j, w, g.i)
			}
		}
	}
}

// TestReseedsEveryMiB counts the output a Buffered hands out from a reseed
// to the next: at most 1 MiB (the package documentation: after every 1 MiB,
// 32 bytes from crypto/rand are XORed into the key), and no less than 1 MiB
// less one refill. The first refill after a reseed leaves the next key in the
// state, so the output from there on is ChaCha8's for that key, word for
// word, up to the next reseed; nothing here uses reseedRefills.
func TestReseedsEveryMiB(t *testing.T) {
	withoutMix(t)
	s := Source()
	s.Uint64() // a new generator reseeds, refills and hands out one word
	g := s.mem
	needPage(t, g != &noBuffer, "generator page")
	ref := chacha8([4]uint64(g.w[keyAt : keyAt+4]))
	since := 1 // values handed out since the reseed
	for g.i < g.n {
		s.Uint64()
		since++
	}
	for s.Uint64() == ref.Uint64() {
		since++
		if since*8 > 1<<20 {
			t.Fatalf("more than 1 MiB of output (%d values) since the last reseed", since)
		}
	}
	if since*8 <= 1<<20-BufferSize {
		t.Fatalf("reseeded after %d bytes of output, not after 1 MiB", since*8)
	}
}

// TestReseedXorsWholeKey reseeds a generator whose key is zero, as a new or
// wiped one holds, then reseeds it again three times: each reseed must change
// every word of the key (32 bytes from the OS, not fewer). A word left as it
// was has probability 2^-64.
func TestReseedXorsWholeKey(t *testing.T) {
	_, g := seededSource(t, [4]uint64{})
	for r := range 4 {
		before := [4]uint64(g.w[keyAt : keyAt+4])
		g.reseed()
		for i, k := range g.w[keyAt : keyAt+4] {
			if k == before[i] {
				t.Fatalf("reseed %d left word %d of the key as it was, %#x", r, i, k)
			}
		}
		if *g.fresh() != [4]uint64{} {
			t.Fatal("the reseed's bytes were left in the state")
		}
	}
}

// readerFunc is an io.Reader made of a function.
type readerFunc func([]byte) (int, error)

func (f readerFunc) Read(b []byte) (int, error) { return f(b) }

// TestReseedingGeneratorIsLeftAlone holds a per-P generator's reseed, which a
// goroutine makes unpinned, inside its read of the OS (osReader, wrapped so
// that the read of that generator's fresh words waits for the test; the
// bytes still come from the OS), and meanwhile draws from the same P, with
// GOMAXPROCS 1: those draws must leave the generator alone (marked busy,
// empty) and take their values from the OS. A second reseed of the
// generator while the first is reading would share its fresh words (two
// reads into them, two XORs of what is there, which can cancel and leave a
// new generator's all-zero key) and refill from a key still being written.
func TestReseedingGeneratorIsLeftAlone(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	Uint64() // makes P 0's generator
	sh := (*shards.Load())[0]
	needPage(t, sh != &noShard, "per-P generator page")
	sh.exhaust() // due for a reseed at its next draw
	fresh := unsafe.Pointer(sh.fresh())
	entered, release := make(chan struct{}), make(chan struct{})
	var reads atomic.Int32 // reads into the generator's fresh words
	old := osReader
	osReader = readerFunc(func(b []byte) (int, error) {
		if len(b) > 0 && unsafe.Pointer(&b[0]) == fresh && reads.Add(1) == 1 {
			close(entered)
			<-release
		}
		return old.Read(b)
	})
	defer func() { osReader = old }()
	done := make(chan uint64)
	go func() { done <- Uint64() }() // runs on P 0: reseeds its generator
	select {
	case <-entered:
	case v := <-done:
		t.Fatalf("Uint64 returned %#x without reading the generator's fresh words from osReader", v)
	case <-time.After(10 * time.Second):
		t.Fatal("the generator's reseed did not read osReader in 10 s")
	}
	seen := make(map[uint64]bool)
	var b [24]byte
	for n := range 3 * epochWords {
		vs := []uint64{Uint64()}
		Read(b[:])
		vs = append(vs, binary.LittleEndian.Uint64(b[:]), binary.LittleEndian.Uint64(b[8:]), binary.LittleEndian.Uint64(b[16:]))
		checkDistinct(t, seen, [][]uint64{vs})
		if reads.Load() != 1 || atomic.LoadUint32(&sh.busy) != 1 || sh.i != 0 || sh.n != 0 {
			close(release)
			<-done
			t.Fatalf("draw %d on the P of a generator being reseeded: %d reads into its fresh words, busy %d, i %d, n %d; want 1, 1, 0, 0",
				n, reads.Load(), sh.busy, sh.i, sh.n)
		}
	}
	close(release)
	checkDistinct(t, seen, [][]uint64{{<-done}})
	// The goroutine that reseeded, back on P 0, refilled the generator and
	// took the first word.
	if sh.busy != 0 || sh.refills != reseedRefills-1 || sh.i != 1 {
		t.Fatalf("after the reseed: busy %d, refills %d, i %d; want 0, %d, 1", sh.busy, sh.refills, sh.i, reseedRefills-1)
	}
	if Uint64() == 0 || sh.i != 2 {
		t.Fatalf("the reseeded generator was not used: i = %d", sh.i)
	}
}

// checkAllShards checks every per-P generator: not left busy, and every word
// of output outside the unused ones, w[i:n], zero. The caller's goroutine
// must be the only one drawing.
func checkAllShards(t *testing.T) {
	t.Helper()
	p := shards.Load()
	if len(*p) == 0 {
		t.Fatal("no per-P generators exist after package-level calls")
	}
	for i, sh := range *p {
		if sh.busy != 0 {
			t.Fatalf("generator %d is left marked busy", i)
		}
		for j, w := range sh.w[:keyAt] {
			if (uint32(j) < sh.i || uint32(j) >= sh.n) && w != 0 {
				t.Fatalf("generator %d: consumed word %d is %#x, not zero (i = %d, n = %d)", i, j, w, sh.i, sh.n)
			}
		}
	}
}

// heldNothing reports whether g, noShard or noBuffer, holds no output, no key
// and no count: nothing ever drew from it.
func heldNothing(g *generator) bool {
	return g.w == [len(generator{}.w)]uint64{} && g.i == 0 && g.n == 0 &&
		g.refills == 0 && g.mixed == 0 && g.busy == 0
}

func shardHeldNothing(sh *shard) bool  { return heldNothing(sh) }
func bufferHeldNothing(m *bufMem) bool { return heldNothing(m) }

// osFailsRole tells a re-run test binary to make osReader fail and draw.
const osFailsRole = "RANDP_TEST_OS_READER_FAILS"

// TestOSReaderFailureEndsProcess: a failed read of the OS source ends the
// process (status 2, the message), and a caller that recovers from panics
// cannot go on: in a child, osReader returns an error, and a draw that must
// reseed runs under a deferred recover. The child must print neither a value
// nor that it recovered.
func TestOSReaderFailureEndsProcess(t *testing.T) {
	if os.Getenv(osFailsRole) != "" {
		osReader = readerFunc(func([]byte) (int, error) { return 0, errors.New("the test's reader failed") })
		defer func() {
			if r := recover(); r != nil {
				println("osfail: recovered:", fmt.Sprint(r))
				os.Exit(0)
			}
		}()
		v := Uint64()
		println("osfail: drew", v)
		os.Exit(0)
	}
	if underQemuUser() {
		t.Skip("qemu-user (RANDP_TEST_EMULATOR) cannot start a program of the guest's architecture by itself")
	}
	out, err := rerun("TestOSReaderFailureEndsProcess", osFailsRole+"=1")
	var exit *exec.ExitError
	switch {
	case strings.Contains(string(out), "osfail:"):
		t.Fatalf("the child went on after osReader failed:\n%s", out)
	case !errors.As(err, &exit) || exit.ExitCode() != 2:
		t.Fatalf("the child ended with %v, want exit status 2:\n%s", err, out)
	case !strings.Contains(string(out), "randp: the operating system's entropy source failed: the test's reader failed"):
		t.Fatalf("the child's output lacks the message:\n%s", out)
	}
}

// drawCase is a generator and the call that draws one word from it.
type drawCase struct {
	name string
	g    *generator
	draw func() uint64
}

// bothGenerators sets GOMAXPROCS to 1 until t ends, so that every
// package-level draw uses P 0's generator, and the mix of crypto/rand's
// output back on when t ends; it returns a new Buffered's generator and P
// 0's, both seeded, each with the call that draws from it.
func bothGenerators(t *testing.T) []drawCase {
	t.Helper()
	procs := runtime.GOMAXPROCS(1)
	t.Cleanup(func() {
		runtime.GOMAXPROCS(procs)
		mixOff.Store(false)
	})
	Uint64()
	sh := (*shards.Load())[0]
	needPage(t, sh != &noShard, "per-P generator page")
	s := Source()
	s.Uint64()
	needPage(t, s.mem != &noBuffer, "generator page")
	return []drawCase{{"Buffered", s.mem, s.Uint64}, {"per-P", sh, Uint64}}
}

// TestMixesCryptoRandIntoEveryRefill follows a generator through 6 refills,
// both a Buffered's and a per-P one: the output of each refill differs from
// ChaCha8's for the key the state held before it from the first word on (16
// bytes from crypto/rand went into the key), so that two copies of one state
// share no output past what it held unread. Control: with the mix off, every
// refill is ChaCha8's for that key.
func TestMixesCryptoRandIntoEveryRefill(t *testing.T) {
	for _, c := range bothGenerators(t) {
		for _, off := range []bool{false, true} {
			mixOff.Store(off)
			g := c.g
			g.refills = reseedRefills // no reseed in the way of the control
			for r := range 6 {
				// Hand out what the state holds, so that the next draw
				// refills.
				for g.i < g.n {
					c.draw()
				}
				ref := chacha8([4]uint64(g.w[keyAt : keyAt+4]))
				same := 0
				for range refillWords {
					if c.draw() == ref.Uint64() {
						same++
					}
				}
				if !off && same != 0 {
					t.Fatalf("%s: refill %d: %d of its words are ChaCha8's for the key before it", c.name, r, same)
				}
				if off && same != refillWords {
					t.Fatalf("%s: control: with the mix off refill %d has %d of ChaCha8's %d words", c.name, r, same, refillWords)
				}
				if *g.fresh() != [4]uint64{} {
					t.Fatalf("%s: the mixed bytes were left in the state", c.name)
				}
			}
		}
		mixOff.Store(false)
	}
}

// TestRestoredStateRepeatsOnlyItsUnreadOutput copies a generator's state,
// as a VM snapshot does, lets it draw 3 refills, writes the copy back and
// lets it draw again, for a Buffered and a per-P generator, with the state
// copied at several points of a refill: the second run repeats exactly the
// words the state held unread at the copy and then nothing of the first,
// since each refill mixes crypto/rand's current output into its key (here
// fresh bytes after the restore, as the kernel's are once it has reseeded).
// Control: with the mix off the second run repeats the first whole.
func TestRestoredStateRepeatsOnlyItsUnreadOutput(t *testing.T) {
	for _, c := range bothGenerators(t) {
		for _, off := range []bool{false, true} {
			mixOff.Store(off)
			for _, at := range []int{1, 2, refillWords / 2, refillWords} {
				// Move to the point of a refill where the copy is taken
				// (a draw that refills hands out the first word), far
				// from a reseed, which would part the runs of the control.
				c.g.refills = reseedRefills
				for c.g.i != uint32(at) || c.g.n == 0 {
					c.draw()
				}
				saved, unread := *c.g, int(c.g.n-c.g.i)
				run := func() []uint64 {
					vs := make([]uint64, 3*refillWords)
					for i := range vs {
						vs[i] = c.draw()
					}
					return vs
				}
				first := run()
				*c.g = saved
				second := run()
				if off {
					if !slices.Equal(first, second) {
						t.Fatalf("%s, copy at word %d: control: with the mix off the restored state did not repeat its output", c.name, at)
					}
					continue
				}
				if !slices.Equal(first[:unread], second[:unread]) {
					t.Fatalf("%s, copy at word %d: the unread words were not handed out again", c.name, at)
				}
				seen := make(map[uint64]bool)
				for _, v := range first {
					seen[v] = true
				}
				for i, v := range second[unread:] {
					if seen[v] {
						t.Fatalf("%s, copy at word %d: value %d after the unread ones repeats the first run", c.name, at, unread+i)
					}
				}
			}
		}
	}
}

// TestLargeReadReusesOnlyItsOwnMix follows the mixes of crypto/rand's output
// (counted by a replaced crypto/rand.Reader, which crypto/rand.Read calls)
// through one Read of 150 refills on a per-P generator: the Read mixes before
// its first refill, then at least every readMixRefills refills, and before
// its last refill, which it does not take whole and so leaves output of in
// the generator. Control: the same bytes read 3 KiB at a time, each Read
// shorter than a refill, mix before every refill.
func TestLargeReadReusesOnlyItsOwnMix(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	Uint64()
	sh := (*shards.Load())[0]
	needPage(t, sh != &noShard, "per-P generator page")
	var at []uint32 // the reseed countdown at each mix
	hookMix(t, func(b []byte) {
		if len(b) == 16 {
			at = append(at, sh.refills)
		}
	})
	const size = 150*BufferSize - 100
	buf := make([]byte, size)
	for _, piece := range []int{size, 3 << 10} {
		sh.exhaust()
		Uint64() // reseeds, refills and takes a word
		sh.i = sh.n
		at = at[:0]
		start := sh.refills
		for b := buf; len(b) > 0; b = b[min(len(b), piece):] {
			Read(b[:min(len(b), piece)])
		}
		made := start - sh.refills
		if made != 150 || len(at) == 0 {
			t.Fatalf("Read in pieces of %d: %d refills and %d mixes, want 150 and some", piece, made, len(at))
		}
		if at[0] != start {
			t.Fatalf("Read in pieces of %d: no mix before the first refill", piece)
		}
		if last := at[len(at)-1]; last != sh.refills+1 {
			t.Fatalf("Read in pieces of %d: the last refill, which leaves output in the generator, was not mixed", piece)
		}
		for j := 1; j < len(at); j++ {
			if gap := at[j-1] - at[j]; gap > readMixRefills || piece < BufferSize && gap != 1 {
				t.Fatalf("Read in pieces of %d: %d refills between two mixes", piece, gap)
			}
		}
		if piece == size && len(at) > 150/readMixRefills+2 {
			t.Fatalf("one Read of %d bytes mixed %d times: it did not reuse its own mix", size, len(at))
		}
	}
}

// TestRestoredStateRepeatsOnlyItsUnreadOutputThroughRead is
// TestRestoredStateRepeatsOnlyItsUnreadOutput for Reads of 3 refills and a
// half, which take most refills whole: the first refill of each Read gets
// fresh bytes, so the second run repeats only the bytes the generator held
// unread at the copy. Control: with the mix off it repeats the first whole.
func TestRestoredStateRepeatsOnlyItsUnreadOutputThroughRead(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	defer mixOff.Store(false)
	Uint64()
	sh := (*shards.Load())[0]
	needPage(t, sh != &noShard, "per-P generator page")
	for _, off := range []bool{false, true} {
		mixOff.Store(off)
		for _, at := range []int{1, refillWords / 2, refillWords} {
			sh.refills = reseedRefills // far from a reseed, as above
			for sh.i != uint32(at) || sh.n == 0 {
				Uint64()
			}
			saved, unread := *sh, 8*int(sh.n-sh.i)
			run := func() []byte {
				b := make([]byte, 3*BufferSize+BufferSize/2)
				Read(b)
				return b
			}
			first := run()
			*sh = saved
			second := run()
			if off {
				if !slices.Equal(first, second) {
					t.Fatalf("copy at word %d: control: with the mix off the restored state did not repeat its output", at)
				}
				continue
			}
			if !slices.Equal(first[:unread], second[:unread]) {
				t.Fatalf("copy at word %d: the unread bytes were not handed out again", at)
			}
			seen := make(map[uint64]bool)
			for i := 0; i+8 <= len(first); i += 8 {
				seen[binary.LittleEndian.Uint64(first[i:])] = true
			}
			for i := unread; i+8 <= len(second); i += 8 {
				if seen[binary.LittleEndian.Uint64(second[i:])] {
					t.Fatalf("copy at word %d: the word at byte %d after the unread ones repeats the first run", at, i)
				}
			}
		}
	}
}

// TestPreparerBackOnAnotherPCountsNoMix makes the goroutine that mixes
// crypto/rand's output into a per-P generator (unpinned, the generator
// marked busy) come back on another P: it must leave that generator not
// busy, empty, and with its mix not counted (mixed 0), so that whoever
// refills it next reads fresh bytes of its own; otherwise a VM snapshot
// taken between the mix and that refill would repeat the refill in every
// clone. The mix's reader sleeps until its goroutine runs on another P;
// the test fails unless that happens in one of 50 attempts.
func TestPreparerBackOnAnotherPCountsNoMix(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	procPin()
	pinSlow() // unpins and makes every P's generator
	all := *shards.Load()
	needPage(t, !slices.Contains(all, &noShard), "per-P generator page")
	var target *shard // the generator being mixed, once the reader moved
	hookMix(t, func(b []byte) {
		if len(b) == 16 && target == nil {
			var busy *shard
			for _, sh := range all {
				if atomic.LoadUint32(&sh.busy) != 0 {
					busy = sh
				}
			}
			for range 1000 {
				time.Sleep(10 * time.Microsecond)
				pid := procPin()
				procUnpin()
				if busy != nil && pid < len(all) && all[pid] != busy {
					target = busy
					break
				}
			}
		}
	})
	for attempt := 0; attempt < 50 && target == nil; attempt++ {
		// Every generator seeded and empty, without fresh bytes: the next
		// draw mixes.
		for _, sh := range all {
			if sh.refills == 0 {
				sh.refills = reseedRefills
			}
			clear(sh.w[sh.i:sh.n])
			sh.i = sh.n
		}
		done := make(chan struct{})
		go func() { Uint64(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatal("Uint64 did not return in 10 s")
		}
	}
	if target == nil {
		t.Fatal("in 50 attempts no goroutine came back from a mix on another P")
	}
	if target.busy != 0 || target.mixed != 0 || target.i != 0 || target.n != 0 {
		t.Fatalf("after the preparer came back on another P: busy %d, mixed %d, i %d, n %d; want all 0",
			target.busy, target.mixed, target.i, target.n)
	}
}

// hookReader is a crypto/rand.Reader that calls see with each buffer it
// fills from Go's own reader.
type hookReader struct {
	see func([]byte)
	own io.Reader
}

func (h *hookReader) Read(b []byte) (int, error) {
	n, err := h.own.Read(b)
	h.see(b)
	return n, err
}

// hookMix replaces crypto/rand.Reader, until t ends, with a hookReader
// that calls see, and has the mix read it as it reads Go's own (goReader):
// so a test sees every mix.
func hookMix(t *testing.T, see func([]byte)) *hookReader {
	t.Helper()
	own, goOwn := crand.Reader, goReader
	h := &hookReader{see, own}
	crand.Reader, goReader = h, h
	t.Cleanup(func() { crand.Reader, goReader = own, goOwn })
	return h
}

// TestMixReadsNoReplacedReader replaces crypto/rand.Reader with a reader
// that counts its reads (and passes them on to Go's own): every refill of a
// Buffered's and a per-P generator still mixes (its first word is not
// ChaCha8's for the key before it), and none reads the replacement, which
// crypto/rand.Read would read and, were it a test's fixture that runs out,
// end the process over. Control: with goReader taken to be the replacement,
// as without the check, the refills read it.
func TestMixReadsNoReplacedReader(t *testing.T) {
	own := crand.Reader
	var reads atomic.Int64
	counting := hookMix(t, func([]byte) { reads.Add(1) })
	if goOwnReader(own) == nil || goOwnReader(counting) != nil {
		t.Fatalf("goOwnReader(%T) = %v, goOwnReader(%T) = %v; want Go's own reader recognised, the replacement not",
			own, goOwnReader(own), counting, goOwnReader(counting))
	}
	for _, control := range []bool{false, true} {
		// crypto/rand.Reader is the counting reader; the mix reads it only
		// when goReader names it (the control).
		goReader = goOwnReader(own)
		if control {
			goReader = counting
		}
		for _, c := range bothGenerators(t) {
			g, before := c.g, reads.Load()
			g.refills = reseedRefills // no reseed in the way
			const refills = 4
			for r := range refills {
				for g.i < g.n {
					c.draw()
				}
				if c.draw() == chacha8([4]uint64(g.w[keyAt:keyAt+4])).Uint64() {
					t.Fatalf("%s: refill %d did not mix", c.name, r)
				}
			}
			switch reads := reads.Load() - before; {
			case !control && reads != 0:
				t.Fatalf("%s: %d refills read the replaced crypto/rand.Reader %d times", c.name, refills, reads)
			case control && reads < refills:
				t.Fatalf("%s: control: %d refills read the reader goReader names %d times, not once each", c.name, refills, reads)
			}
		}
	}
}
