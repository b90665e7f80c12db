package main

import (
	"fmt"
	"math"
	"strings"
)

// The profiles behind the targets this run misses where the peer does
// less than randp's guarantees require, from measurements of the same run:
// the C fills against planet36/randp (3 AES rounds, a 256 B pool), the Go
// rand/v2 Source against PCG (a predictable leaf), the goroutine-safe Go
// Read against a reader of one goroutine's own, Rust u32 and lt_u32
// against ThreadRng (whose buffer keeps what it hands out), and randp_u64
// through dlopen against its bound; the last two beside a thread-local
// word loaded and zeroed with no generator.

const (
	hWhy     = "Misses explained"
	hWhyFill = "C fills against planet36/randp"
	hWhyV2   = "Go rand/v2 Source against PCG"
	hWhyWord = "C randp_u64 through a dlopen'ed library"
	hWhyRust = "Rust u32 and lt_u32 against ThreadRng"
	hWhyRead = "Go Read of a few bytes against a per-goroutine reader"
)

// rustWords is the Rust word rows with targets beside copyzero_u32, which
// bounds any generator that hands out words from a per-thread buffer and
// erases them.
type rustWords struct {
	u32, thread, handout stat // randp_u32, ThreadRng next_u32, copyzero_u32 (group u32)
	lt, threadLt         stat // randp_lt_u32 and ThreadRng random_range (group lt_u32)
}

// rustWordMiss returns the Rust word rows when the run misses the u32 or
// the lt_u32 target (by wordRatio, as their rows judge them) and has
// copyzero_u32.
func (r *report) rustWordMiss() (w rustWords, u32Missed, ltMissed bool) {
	cr := r.res.crit
	w = rustWords{u32: cr.get("u32", "randp_u32").Time, thread: cr.get("u32", "rand_ThreadRng").Time, handout: cr.get("u32", "copyzero_u32").Time,
		lt: cr.get("lt_u32", "randp_lt_u32").Time, threadLt: cr.get("lt_u32", "rand_random_range").Time}
	if !w.handout.ok() {
		return w, false, false
	}
	v, _, _, _ := r.wordRatio("u32", "randp_u32", "rand_ThreadRng")
	lt, _, _, _ := r.wordRatio("lt_u32", "randp_lt_u32", "rand_random_range")
	return w, v > rustU32Target, lt > rustLtTarget
}

// wordFloor is the dlopen'ed `randp_u64` row beside what any call that
// hands out a word of AES-256 keystream from a per-thread buffer, and erases
// it, costs on this CPU, measured in the same processes.
type wordFloor struct {
	dlopen, static stat    // u64/randp_dlopen and u64/randp
	handout        stat    // copyzero_u64/copyzero: a thread-local index, one word loaded and zeroed, no generator
	handoutDlopen  stat    // the same code in a dlopen'ed object (copyzero_u64/copyzero_dlopen); unset in older runs
	empty          stat    // empty_u64/empty: a call that does nothing, in the executable
	emptyDlopen    stat    // empty_u64/empty_dlopen: the same in a dlopen'ed object
	keystream      float64 // 8 bytes at the widest 14-round loop's best rate, ns
}

// floorHandout is the handout reached as the row's call is, through a
// dlopen'ed object, when the run has that row; else the executable's.
func (w wordFloor) floorHandout() stat {
	if w.handoutDlopen.ok() {
		return w.handoutDlopen
	}
	return w.handout
}

// floor is the handout at the fast end of its interval plus its keystream
// at the ceiling: a bound no randp_u64 call goes below, not a typical time.
func (w wordFloor) floor() float64 { return w.floorHandout().Lo + w.keystream }

// wordMiss returns the word floor when the run misses the dlopen target by
// the medians and has the rows that bound it.
func (r *report) wordMiss() (wordFloor, bool) {
	c := r.res.c
	w := wordFloor{dlopen: c.get("u64/randp_dlopen"), static: c.get("u64/randp"), handout: c.get("copyzero_u64/copyzero"),
		handoutDlopen: c.get("copyzero_u64/copyzero_dlopen"), empty: c.get("empty_u64/empty"), emptyDlopen: c.get("empty_u64/empty_dlopen")}
	perByte, ceilKnown := r.res.ceil.perByte()
	if !w.dlopen.ok() || w.dlopen.Center <= wordTarget || !w.handout.ok() || !ceilKnown {
		return w, false
	}
	w.keystream = 8 * perByte
	return w, true
}

// directFrom is the C call size from which randp writes whole blocks
// straight into the caller's memory instead of handing them out of its
// buffer (the generator's DIRECT with the default buffer), and
// directFromText says it in the report's words.
const (
	directFrom     = 1280
	directFromText = "1,280 bytes"
)

// fillFloor is one C fill size at which randp misses its target against
// planet36/randp, with the least such a call costs on this CPU: served from
// a buffer of AES-256 keystream below directFrom, written in place from it.
type fillFloor struct {
	size       float64
	p36, randp stat
	keystream  float64 // the size's keystream at the widest 14-round loop's best rate (its interval's low time), ns
	direct     bool    // written in place: no copy out of a buffer
	copyZero   stat    // randp's copy out of the buffer and zeroing behind it (Rust copy_zero); unset when direct
	call       float64 // randp's call without its bytes: see callCost
	callKnown  bool    // whether the run has the rows callCost needs
}

// callCell renders the call's part of the floor: "0 ns" where randp_u64 at
// its fastest costs no more than its bytes, "—" where the run lacks it.
func (f fillFloor) callCell() string {
	switch {
	case !f.callKnown:
		return "—"
	case f.call == 0:
		return "0 ns"
	}
	return ns(f.call)
}

// copyCell renders the copy's part of the floor.
func (f fillFloor) copyCell() string {
	if f.direct {
		return "none (written in place)"
	}
	return ns(f.copyZero.Lo)
}

// floor is the keystream, the copy (none when written in place) and the
// call, each at the low end of its interval: a bound no randp call of that
// size goes below, not a typical time.
func (f fillFloor) floor() float64 {
	if f.direct {
		return f.keystream + f.call
	}
	return f.keystream + f.copyZero.Lo + f.call
}

// callCost is what a C call into randp costs beyond its bytes, at its
// fastest: the word draw `randp_u64` (the same library, the same function
// pointer, its thread-local state, the marks that keep signal handlers and
// forks out) at the low end of its interval, less the keystream of its 8
// bytes and the copy-and-zero of 16 (copy_zero's smallest size, itself with
// a call): an underestimate, as a floor needs. 0 when the run lacks a row.
func (r *report) callCost(perByte float64) (float64, bool) {
	u64 := r.res.c.get("u64/randp")
	cz := r.res.crit.get("copy_zero", "16").Time
	if !u64.ok() || !cz.ok() {
		return 0, false
	}
	return math.Max(0, u64.Lo-8*perByte-cz.Lo), true
}

// fillFloors lists the sizes whose target (planet36/randp's time at least
// randp's) this run misses, when the run has the ceiling (and, below
// directFrom, the copy_zero measurement) that bounds them.
func (r *report) fillFloors() (floors []fillFloor, kernel string, perByte float64) {
	res := r.res
	if res.peers["planet36-randp"] != "" {
		return nil, "", 0
	}
	kernel, _ = res.ceil.widest()
	perByte, ceilKnown := res.ceil.perByte()
	if !ceilKnown {
		return nil, "", 0
	}
	call, callKnown := r.callCost(perByte)
	for n := 16.0; n <= 1<<20; n *= 2 {
		name := res.c.fillTable(n)
		p36, rp := res.c.get(name+"planet36"), res.c.get(name+"randp")
		v, _, _ := r.fillRatio(n)
		f := fillFloor{size: n, p36: p36, randp: rp, keystream: n * perByte, direct: n >= directFrom, call: call, callKnown: callKnown}
		if !f.direct {
			f.copyZero = res.crit.get("copy_zero", fmt.Sprint(int(n))).Time
		}
		if v == 0 || v >= 1 || (!f.direct && !f.copyZero.ok()) {
			continue
		}
		floors = append(floors, f)
	}
	return floors, kernel, perByte
}

// v2Explained reports whether the run has the counts and frames that
// explain the rand/v2 Source's target against PCG.
func (r *report) v2Explained() bool {
	o := r.res.opcount
	_, a := o.perCall["buffered-v2"]
	_, b := o.perCall["pcg-v2"]
	return a && b && o.frames[pcgUint64] != "" && o.frames[r.bufferedUint64()] != ""
}

const pcgUint64 = "math/rand/v2.(*PCG).Uint64"

// bufferedUint64 is the name the compiler gives randp's Buffered.Uint64.
func (r *report) bufferedUint64() string {
	for _, f := range r.res.opcount.order {
		if strings.HasSuffix(f, ".(*Buffered).Uint64") {
			return f
		}
	}
	return ""
}

// missesExplained is the section after the targets: each explained miss
// with its profile. Nothing when the run misses neither target.
func (r *report) missesExplained() {
	floors, kernel, perByte := r.fillFloors()
	v2 := r.v2Explained() && r.v2Missed()
	word, wordMissed := r.wordMiss()
	rust, u32Missed, ltMissed := r.rustWordMiss()
	reads := r.goReadMissed()
	if len(floors) == 0 && !v2 && !wordMissed && !u32Missed && !ltMissed && len(reads) == 0 {
		return
	}
	r.p("## %s\n\n", hWhy)
	if len(floors) > 0 {
		r.fillWhy(floors, kernel, perByte)
	}
	if v2 {
		r.v2Why()
	}
	if len(reads) > 0 {
		r.goReadWhy(reads)
	}
	if wordMissed {
		r.wordWhy(word)
	}
	if u32Missed || ltMissed {
		r.rustWhy(rust)
	}
}

// v2Missed reports whether the rand/v2 Source is slower than PCG, judged as
// its row is (goRatio).
func (r *report) v2Missed() bool {
	v, _, _, _ := goRatio(r.res.goRandp, "V2Uint64/src=RandpSource", "V2Uint64/src=PCG")
	return v > 1
}

func (r *report) fillWhy(floors []fillFloor, kernel string, perByte float64) {
	res := r.res
	r.p("### %s\n\n", hWhyFill)
	r.p("A C call below %s is served from randp's buffer, which each refill fills with 15,808 bytes of keystream under a new key ", directFromText)
	r.p("(the 3,520 of the thread's state page and the 12,288 of its extension, once the thread has locked it); from %s on, its whole ", directFromText)
	r.p("blocks are written straight into the caller's memory under a key that serves that call alone. ")
	r.p("The parts of its cost that randp's guarantees fix: the keystream of its bytes (AES-256, 14 rounds), below %s the copy out of ", directFromText)
	r.p("the buffer with the zeroing behind it (no byte handed out stays in the state), and the call itself (the thread's state, the marks ")
	r.p("that keep signal handlers and forks out of a running call). The table puts each at its best on the %s: ", r.cpuName())
	r.p("the keystream at the rate of the plainest 14-round loop this CPU runs, aes-ceiling's `%s` (%.1f GB/s at best, one key, no key changes); ", kernel, 1/perByte)
	r.p("randp's own copy-and-zero code alone in a loop, with its call (Rust `copy_zero`); and the C call `randp_u64` less its 8 bytes' ")
	r.p("keystream and the copy-and-zero of 16 bytes, itself with a call (so an underestimate, 0 where that is all the call costs). ")
	r.p("Each is taken at the fast end of its 95%% interval, ")
	r.p("so that their sum is a floor, not a typical time, for a randp call that erases what it hands out")
	if note := res.c.turnsNote(); note != "" {
		r.p(" (the two whole calls: %s)", note)
	}
	r.p(":\n\n")
	t := &table{head: []string{"Size", "planet36/randp, whole call", "randp", "keystream at the ceiling", "copy and zero", "call", "floor", "planet36/randp ÷ floor"}}
	for _, f := range floors {
		t.row(fmtBytes(f.size), ns(f.p36.Center), ns(f.randp.Center), ns(f.keystream), f.copyCell(), f.callCell(), ns(f.floor()),
			sig(f.p36.Center/f.floor())+"×")
	}
	r.p("%s\n", t)
	r.p("Below 1.0× in the last column, no randp call that makes AES-256 keystream and erases what it hands out beats planet36/randp at ")
	r.p("that size on this CPU, however large its buffer. Above it, the column is the most a faster call could win there; randp's time beyond ")
	r.p("the floor is the run's spread and its key rotations: below %s its share of each refill's, from %s on one per call", directFromText, directFromText)
	if rot := res.crit.get("fill_256B", "randp_keystream").Time; rot.ok() {
		r.p(" (one rotation with 16 blocks, Rust `randp_keystream` at 256 B: %s)", ns(rot.Center))
		if p := res.c.get("fill_256B/planet36"); p.ok() {
			r.p(". Writing the calls below %s straight into the caller's memory as well would skip the copy but pay a rotation at every ", directFromText)
			if rot.Center > p.Center {
				r.p("call, which at 256 B alone takes longer than planet36/randp's whole call (%s)", ns(p.Center))
			} else {
				r.p("call, against planet36/randp's whole 256 B call of %s", ns(p.Center))
			}
		}
	}
	r.p(".\n\n")
	var edge []string
	for _, name := range res.ceil.Order {
		if strings.HasPrefix(name, "3-aesenc") && strings.Contains(name, " xmm ") {
			if s := res.ceil.Kernel(name); s.ok() {
				edge = append(edge, fmt.Sprintf("aes-ceiling's `%s` runs at %.1f GB/s on this CPU", name, (1<<20)/s.Center))
			}
		}
	}
	if c := res.c.get("copyzero_1KiB/copyzero"); c.ok() {
		edge = append(edge, fmt.Sprintf("its copy and zeroing go through libc's memcpy and explicit_bzero (%s per KiB in the C program: the `copyzero` rows of the raw results)", ns(c.Center)))
	}
	r.p("planet36/randp makes each block with 3 AES-128 rounds where AES-256 makes 14, and refills a 256 B pool without changing its key")
	if len(edge) > 0 {
		r.p("; %s", strings.Join(edge, "; "))
	}
	r.p(".\n\n")
}

func (r *report) v2Why() {
	o := r.res.opcount
	r.p("### %s\n\n", hWhyV2)
	r.p("`rand.New(randp.Source()).Uint64()` and `rand.New(rand.NewPCG(1, 2)).Uint64()` both make one interface call to the Source's `Uint64` per value. ")
	r.p("Instructions per value, counted by callgrind in this run (`make go-opcount`; counts, so the load does not change them): ")
	r.p("randp's `Buffered` %d, PCG %d", o.perCall["buffered-v2"], o.perCall["pcg-v2"])
	if n, ok := o.perCall["chacha8-v2"]; ok {
		r.p(", ChaCha8 %d", n)
	}
	r.p(". The stack frames the compiler gives each `Uint64` (`go build -gcflags=-S`):\n\n")
	t := &table{head: []string{"Method", "Frame", "Leaf"}}
	for _, f := range o.order {
		t.row("`"+f+"`", "`"+o.frames[f]+"`", frameKind(o.frames[f]))
	}
	r.p("%s\n", t)
	r.p("PCG's `Uint64` computes its value and calls nothing, so it is a leaf: no frame and no stack-bound check. ")
	r.p("A Source that hands out a buffer must be able to call its refill, and for that call the compiler gives the method a frame, ")
	r.p("set up and torn down at every value, refill or not, and a stack-bound check: ChaCha8's `Uint64` has both. ")
	if f := o.frames[r.bufferedUint64()]; strings.HasPrefix(f, "nosplit ") {
		r.p("randp's is marked nosplit, which drops the check (its one call, the refill, checks the stack itself) but not the frame. ")
	}
	r.p("randp's fast path beyond the frame is a load, the zeroing store that erasure needs and the count's update.\n\n")
}

func (r *report) wordWhy(w wordFloor) {
	r.p("### %s\n\n", hWhyWord)
	r.p("`randp_u64` through a dlopen'ed librandp.so took %s (median of %d processes), %s over the target of %s. ",
		ns(w.dlopen.Center), w.dlopen.N, ns(w.dlopen.Center-wordTarget), ns(wordTarget))
	r.p("Beside it, in the same processes on the %s, through the same function pointer:\n\n", r.cpuName())
	t := &table{head: []string{"Call", "Time"}}
	t.row("`randp_u64` through a dlopen'ed librandp.so", spread(w.dlopen))
	if w.static.ok() {
		t.row("`randp_u64` linked statically", spread(w.static))
	}
	if w.handoutDlopen.ok() {
		t.row("a thread-local word loaded and zeroed, no generator (`copyzero_u64`), in a dlopen'ed object", spread(w.handoutDlopen))
		t.row("the same, linked statically", spread(w.handout))
	} else {
		t.row("a thread-local word loaded and zeroed, no generator (`copyzero_u64`)", spread(w.handout))
	}
	calls := w.empty.ok() && w.emptyDlopen.ok()
	if calls {
		t.row("a function that does nothing, in a dlopen'ed object", spread(w.emptyDlopen))
		t.row("the same, linked statically", spread(w.empty))
	}
	t.row("the keystream of 8 bytes at the ceiling", ns(w.keystream))
	if w.handoutDlopen.ok() {
		t.row("floor: the dlopen'ed handout at the fast end of its interval and the keystream", ns(w.floor()))
	} else {
		t.row("floor: the handout at the fast end of its interval and the keystream", ns(w.floor()))
	}
	r.p("%s\n", t)
	r.p("`copyzero_u64` is the least a call to any generator that keeps its buffer per thread and erases what it hands out costs, ")
	r.p("keystream aside: it loads a thread-local index, loads one word and zeroes it, and stores the index back, and the next call's ")
	r.p("load of the index waits for that store. ")
	switch {
	case calls && w.emptyDlopen.Lo > w.empty.Hi:
		r.p("A call that does nothing takes %s more in a dlopen'ed object than linked statically: on this CPU the call itself, ", ns(w.emptyDlopen.Center-w.empty.Center))
		r.p("from the executable into another object through the same pointer, costs more, whatever the function does")
		if w.handoutDlopen.ok() {
			r.p(", and the dlopen'ed handout pays it too (%s more than its static copy)", ns(w.handoutDlopen.Center-w.handout.Center))
		}
		r.p(". ")
	case calls:
		r.p("A call that does nothing costs the same in a dlopen'ed object as linked statically on this CPU (their intervals overlap). ")
	}
	r.p("randp's call adds the guards that keep signal handlers and forks out of a running call ")
	r.p("(two stores to the thread's word and a load of the state's `live` word) and its share of each refill; ")
	if gap := w.dlopen.Center - w.floor(); gap > 0 {
		r.p("together %s above the floor", ns(gap))
	} else {
		r.p("this run measured no time for them above the floor")
	}
	if w.floor() >= wordTarget {
		r.p(". The floor alone, %s, is at or above the target of %s on this CPU: no call of this kind through a dlopen'ed object meets it here.\n\n",
			ns(w.floor()), ns(wordTarget))
		return
	}
	r.p(". The floor takes %s of the target's %s on this CPU. ", ns(w.floor()), ns(wordTarget))
	if w.dlopen.Lo <= wordTarget {
		r.p("The row's interval reaches below the target (its fast end is %s): which side its median falls on is the run's spread.\n\n", ns(w.dlopen.Lo))
	} else {
		r.p("The row's whole interval lies above the target: randp's part beyond the floor misses it, not the run's spread.\n\n")
	}
}

func (r *report) rustWhy(w rustWords) {
	r.p("### %s\n\n", hWhyRust)
	r.p("Per call on the %s, in the same processes (criterion, median of each process's median):\n\n", r.cpuName())
	t := &table{head: []string{"Call", "Time", "÷ ThreadRng"}}
	per := func(s stat, of stat) string {
		if !s.ok() || !of.ok() {
			return ""
		}
		return sig(s.Center/of.Center) + "×"
	}
	t.row("randp `u32`", spread(w.u32), per(w.u32, w.thread))
	t.row("rand `ThreadRng` `next_u32`", spread(w.thread), "1×")
	t.row("no generator: a thread-local word loaded and zeroed (`copyzero_u32`)", spread(w.handout), per(w.handout, w.thread))
	if w.lt.ok() && w.threadLt.ok() {
		t.row("randp `lt_u32`", spread(w.lt), "")
		t.row("rand `ThreadRng` `random_range` (u32)", spread(w.threadLt), "")
	}
	r.p("%s\n", t)
	r.p("`copyzero_u32` is the least a draw costs that hands out words from a per-thread buffer and erases them, keystream aside: ")
	r.p("a thread-local index, one word loaded and zeroed, the index stored back, and the next call's load of the index waits for that store. ")
	r.p("`ThreadRng` hands out words from its buffer too, but leaves them there. ")
	if f := w.handout.Center / w.thread.Center; f > rustU32Target {
		r.p("On this CPU that floor alone takes %s× `ThreadRng`'s time, above the target of %s×: no generator that erases what it hands out ", sig(f), sig(rustU32Target))
		r.p("from a per-thread buffer meets the `u32` target here. ")
	} else {
		r.p("On this CPU that floor takes %s× `ThreadRng`'s time, below the target of %s×. ", sig(f), sig(rustU32Target))
	}
	r.p("randp's `u32` adds %s to it: the guards that keep signal handlers and forks out of a running call (two stores to the thread's word ", ns(w.u32.Center-w.handout.Center))
	r.p("around the handout and, after it, a load of the state's `live` word, which a fork or a dropped page zeroes) and its share of each refill")
	if perByte, ok := r.res.ceil.perByte(); ok {
		ks := 4 * perByte
		r.p(", of which the keystream of its 4 bytes at the ceiling alone is %s. ", ns(ks))
		floor := w.handout.Center + ks
		r.p("The handout and that keystream together take %s, %s× `ThreadRng`'s time", ns(floor), sig(floor/w.thread.Center))
		if left := rustU32Target*w.thread.Center - floor; left > 0 {
			r.p(": the target leaves %s for the guards and the rest of the refill, which take %s here.", ns(left), ns(w.u32.Center-floor))
		} else {
			r.p(", above the target: no generator of AES-256 keystream that erases what it hands out from a per-thread buffer meets it here.")
		}
	} else {
		r.p(".")
	}
	if w.lt.ok() && w.threadLt.ok() {
		r.p(" `lt_u32` is one such word and Lemire's multiply (rarely, a second word): randp's `lt_u32` takes %s more than its `u32`, ", ns(w.lt.Center-w.u32.Center))
		r.p("`ThreadRng`'s `random_range` %s more than its `next_u32`.", ns(w.threadLt.Center-w.thread.Center))
	}
	r.p("\n\n")
}

// frameKind says what a frame line from the compiler costs each call.
func frameKind(frame string) string {
	switch {
	case leaf(frame):
		return "yes: no frame, no stack-bound check"
	case strings.HasPrefix(frame, "nosplit "):
		return "no: a frame, no stack-bound check"
	}
	return "no: a frame and a stack-bound check"
}

// goReadMissed returns the Go Read sizes whose target this run misses (randp
// slower than the reader, as goBar judges it), when the run has the
// ReadGuard rows that explain them.
func (r *report) goReadMissed() []string {
	g := r.res.goRandp
	if !g.get("ReadGuard/op=none").ok() || !g.get("ReadGuard/op=pin").ok() {
		return nil
	}
	var missed []string
	for _, sz := range goReadTargets {
		if v, _, _, _ := goRatio(g, "RandpRead/"+sz, "AESCTRRead/"+sz); v > 1 {
			missed = append(missed, sz)
		}
	}
	return missed
}

func (r *report) goReadWhy(missed []string) {
	g := r.res.goRandp
	none, pin, swap := g.get("ReadGuard/op=none"), g.get("ReadGuard/op=pin"), g.get("ReadGuard/op=swap")
	r.p("### %s\n\n", hWhyRead)
	r.p("`randp.Read` is safe for concurrent use. A read below 1,008 bytes (a quarter of the buffer) takes its bytes from the buffer of the calling goroutine's P ")
	r.p("(the runtime's scheduling context), pinned to it with `runtime.procPin` and `procUnpin`, two calls into the runtime, so that no ")
	r.p("other goroutine uses that buffer meanwhile. The pure-Go AES-CTR reader belongs to one goroutine and synchronises nothing. ")
	r.p("Per call on the %s, in the same processes, each called through a func value with the slice of the Read rows ", r.cpuName())
	r.p("(`ReadGuard`: functions of `Read`'s signature that do nothing but their synchronisation, on 4 bytes):\n\n")
	t := &table{head: []string{"Call", "Time"}}
	for _, sz := range missed {
		n := fmtBytes(parseSize(sz))
		t.row("randp `Read`, "+n, spread(g.get("RandpRead/"+sz)))
		t.row("pure-Go AES-CTR reader, "+n, spread(g.get("AESCTRRead/"+sz)))
	}
	t.row("an empty function (`ReadGuard/op=none`)", spread(none))
	t.row("`procPin` and `procUnpin`, as `Read` makes them (`ReadGuard/op=pin`)", spread(pin))
	if swap.ok() {
		t.row("an atomic swap and a store on a word of its own (`ReadGuard/op=swap`)", spread(swap))
	}
	r.p("%s\n", t)
	cost := pin.Center - none.Center
	r.p("The pin pair costs %s per call beyond an empty call", ns(cost))
	if swap.ok() {
		r.p("; owning a shared buffer with an atomic swap instead costs %s", ns(swap.Center-none.Center))
	}
	r.p(". Go has no goroutine-local storage, so a goroutine-safe `Read` that hands out bytes from a shared buffer owns it for the ")
	r.p("length of the call in one of these two ways, and a reader of one goroutine's own pays neither. Less the pin pair, randp's `Read` takes ")
	var parts []string
	within := true
	for _, sz := range missed {
		less, rd := g.get("RandpRead/"+sz).Center-cost, g.get("AESCTRRead/"+sz).Center
		parts = append(parts, fmt.Sprintf("%s at %s (the reader %s)", ns(less), fmtBytes(parseSize(sz)), ns(rd)))
		within = within && less <= rd
	}
	r.p("%s", strings.Join(parts, ", "))
	if within {
		r.p(": what the row misses by is the pin pair, the price of goroutine safety.\n\n")
	} else {
		r.p(": above the reader even without the pin pair, so part of the miss is randp's handout itself.\n\n")
	}
}
