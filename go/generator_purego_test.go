//go:build !cgo || randp_purego || !linux || android || !(amd64 || arm64)

package randp

import (
	crand "crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
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
// mixEpochs-th refill until t ends, so that the output is ChaCha8's for a
// known key.
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

// TestGeneratorZeroesAndErases checks after every value that the words
// handed out, the scratch words and the reseed's bytes are zero, that the
// unused words are not, and that no word of the state equals a word of a key
// that has made output.
func TestGeneratorZeroesAndErases(t *testing.T) {
	s, g := seededSource(t, [4]uint64{5, 6, 7, 8})
	g.refills = 3
	used := map[uint64]bool{5: true, 6: true, 7: true, 8: true}
	for n := range 3 * epochWords {
		if g.i == g.n {
			for _, k := range g.w[keyAt : keyAt+4] {
				used[k] = true // the key the next refill uses up
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
			if w != 0 && used[w] && j >= keyAt+4 || w != 0 && used[w] && j < keyAt {
				t.Fatalf("value %d: word %d holds a word of a used key", n, j)
			}
		}
		if g.fresh != [4]uint64{} {
			t.Fatal("the reseed's bytes were left in the state")
		}
	}
}

func TestGeneratorReseeds(t *testing.T) {
	key := [4]uint64{9, 10, 11, 12}
	s, g := seededSource(t, key)
	g.refills = 1
	ref := chacha8(key)
	for range epochWords {
		if s.Uint64() != ref.Uint64() {
			t.Fatal("the last epoch before a reseed is not ChaCha8's")
		}
	}
	if g.refills != 0 {
		t.Fatalf("refills = %d after the last refill, want 0", g.refills)
	}
	// Without the reseed the next value would be ChaCha8's.
	if s.Uint64() == ref.Uint64() {
		t.Fatal("the reseed did not change the key")
	}
	if g.refills != reseedEpochs-1 {
		t.Fatalf("refills = %d after a reseed and a refill, want %d", g.refills, reseedEpochs-1)
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
	if s.mem.refills != reseedEpochs-1 {
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
	if s.mem.refills != reseedEpochs-1 {
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
// word, up to the next reseed; nothing here uses reseedEpochs.
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
		if g.fresh != [4]uint64{} {
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
	fresh := unsafe.Pointer(&sh.fresh)
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
	if sh.busy != 0 || sh.refills != reseedEpochs {
		t.Fatalf("after the reseed: busy %d, refills %d; want 0, %d", sh.busy, sh.refills, reseedEpochs)
	}
	if Uint64() == 0 || sh.i != 1 {
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
	return g.w == [len(generator{}.w)]uint64{} && g.i == 0 && g.n == 0 && g.fresh == [4]uint64{} &&
		g.refills == 0 && g.busy == 0
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

// TestMixesCryptoRandEverySixteenRefills follows a generator with a known
// key: its output is ChaCha8's up to the refill at which the reseed
// countdown is a multiple of mixEpochs, and then differs (16 bytes from
// crypto/rand went into the key), so that two copies of one state part
// ways within mixEpochs refills. Control: with the mix off, the same
// generator stays ChaCha8's.
func TestMixesCryptoRandEverySixteenRefills(t *testing.T) {
	for _, off := range []bool{false, true} {
		key := [4]uint64{21, 22, 23, 24}
		s, g := seededSource(t, key)
		mixOff.Store(off)
		g.refills = 3*mixEpochs + 1 // the 2nd refill from here is mixed
		ref := chacha8(key)
		same := 0
		for s.Uint64() == ref.Uint64() {
			same++
			if same > 2*mixEpochs*epochWords {
				break
			}
		}
		if !off && same != epochWords {
			t.Fatalf("the output left ChaCha8's after %d values, not at the first mixed refill (%d)", same, epochWords)
		}
		if off && same <= 2*mixEpochs*epochWords {
			t.Fatalf("control: with the mix off the output left ChaCha8's after %d values", same)
		}
		if g.fresh != [4]uint64{} {
			t.Fatal("the mixed bytes were left in the state")
		}
	}
}
