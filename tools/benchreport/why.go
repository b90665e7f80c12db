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

// rustWords is the Rust word rows with targets beside copyzero_u32, which
// bounds any generator that hands out words from a per-thread buffer and
// erases them.
type rustWords struct {
	U32, Thread, Handout stat // randp_u32, ThreadRng next_u32, copyzero_u32 (group u32)
	Lt, ThreadLt         stat // randp_lt_u32 and ThreadRng random_range (group lt_u32)
}

// rustWordMiss returns the Rust word rows when the run misses the u32 or
// the lt_u32 target (by ratio, as their rows judge them) and has
// copyzero_u32.
func (r *report) rustWordMiss() (w rustWords, u32Missed, ltMissed bool) {
	cr := r.res.crit
	w = rustWords{U32: cr.get("u32", "randp_u32").Time, Thread: cr.get("u32", "rand_ThreadRng").Time, Handout: cr.get("u32", "copyzero_u32").Time,
		Lt: cr.get("lt_u32", "randp_lt_u32").Time, ThreadLt: cr.get("lt_u32", "rand_random_range").Time}
	if !w.Handout.ok() {
		return w, false, false
	}
	v, _, _, _ := r.ratio("rust:u32/randp_u32", "rust:u32/rand_ThreadRng")
	lt, _, _, _ := r.ratio("rust:lt_u32/randp_lt_u32", "rust:lt_u32/rand_random_range")
	return w, v > rustU32Target, lt > rustLtTarget
}

// wordFloor is the dlopen'ed `randp_u64` row beside what any call that
// hands out a word of AES-256 keystream from a per-thread buffer, and erases
// it, costs on this CPU, measured in the same processes.
type wordFloor struct {
	Dlopen, Static stat    // u64/randp_dlopen and u64/randp
	Handout        stat    // copyzero_u64/copyzero: a thread-local index, one word loaded and zeroed, no generator
	HandoutDlopen  stat    // the same code in a dlopen'ed object (copyzero_u64/copyzero_dlopen); unset in older runs
	Empty          stat    // empty_u64/empty: a call that does nothing, in the executable
	EmptyDlopen    stat    // empty_u64/empty_dlopen: the same in a dlopen'ed object
	Keystream      float64 // 8 bytes at the widest 14-round loop's best rate, ns
}

// floorHandout is the handout reached as the row's call is, through a
// dlopen'ed object, when the run has that row; else the executable's.
func (w wordFloor) floorHandout() stat {
	if w.HandoutDlopen.ok() {
		return w.HandoutDlopen
	}
	return w.Handout
}

// floor is the handout at the fast end of its interval plus its keystream
// at the ceiling: a bound no randp_u64 call goes below, not a typical time.
func (w wordFloor) Floor() float64 { return w.floorHandout().Lo + w.Keystream }

// wordMiss returns the word floor when the run misses the dlopen target by
// the medians and has the rows that bound it.
func (r *report) wordMiss() (wordFloor, bool) {
	c := r.res.c
	w := wordFloor{Dlopen: c.get("u64/randp_dlopen"), Static: c.get("u64/randp"), Handout: c.get("copyzero_u64/copyzero"),
		HandoutDlopen: c.get("copyzero_u64/copyzero_dlopen"), Empty: c.get("empty_u64/empty"), EmptyDlopen: c.get("empty_u64/empty_dlopen")}
	perByte, ceilKnown := r.res.ceil.perByte()
	if !w.Dlopen.ok() || w.Dlopen.Center <= wordTarget || !w.Handout.ok() || !ceilKnown {
		return w, false
	}
	w.Keystream = 8 * perByte
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
	Size       float64
	P36, Randp stat
	Keystream  float64 // the size's keystream at the widest 14-round loop's best rate (its interval's low time), ns
	Direct     bool    // written in place: no copy out of a buffer
	CopyZero   stat    // randp's copy out of the buffer and zeroing behind it (Rust copy_zero); unset when direct
	Call       float64 // randp's call without its bytes: see callCost
	CallKnown  bool    // whether the run has the rows callCost needs
}

// callCell renders the call's part of the floor: "0 ns" where randp_u64 at
// its fastest costs no more than its bytes, "—" where the run lacks it.
func (f fillFloor) CallCell() string {
	switch {
	case !f.CallKnown:
		return "—"
	case f.Call == 0:
		return "0 ns"
	}
	return ns(f.Call)
}

// copyCell renders the copy's part of the floor.
func (f fillFloor) CopyCell() string {
	if f.Direct {
		return "none (written in place)"
	}
	return ns(f.CopyZero.Lo)
}

// floor is the keystream, the copy (none when written in place) and the
// call, each at the low end of its interval: a bound no randp call of that
// size goes below, not a typical time.
func (f fillFloor) Floor() float64 {
	if f.Direct {
		return f.Keystream + f.Call
	}
	return f.Keystream + f.CopyZero.Lo + f.Call
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
		f := fillFloor{Size: n, P36: p36, Randp: rp, Keystream: n * perByte, Direct: n >= directFrom, Call: call, CallKnown: callKnown}
		if !f.Direct {
			f.CopyZero = res.crit.get("copy_zero", fmt.Sprint(int(n))).Time
		}
		if v == 0 || v >= 1 || (!f.Direct && !f.CopyZero.ok()) {
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
	r.p("## %s\n\n", h("Why"))
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
// its row is (ratio).
func (r *report) v2Missed() bool {
	v, _, _, _ := r.ratio("go:V2Uint64/src=RandpSource", "go:V2Uint64/src=PCG")
	return v > 1
}

func (r *report) fillWhy(floors []fillFloor, kernel string, perByte float64) {
	res := r.res
	var rot, p36 string
	rotStat, p := res.crit.get("fill_256B", "randp_keystream").Time, res.c.get("fill_256B/planet36")
	if rotStat.ok() {
		rot = ns(rotStat.Center)
		if p.ok() {
			p36 = ns(p.Center)
		}
	}
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
	r.text("why_fill", "Direct", directFromText, "Kernel", kernel, "GBps", fmt.Sprintf("%.1f", 1/perByte), "Turns", res.c.turnsNote(),
		"Floors", floors, "Rot", rot, "P36", p36, "RotSlower", rotStat.Center > p.Center, "Edge", strings.Join(edge, "; "))
}

func (r *report) v2Why() {
	o := r.res.opcount
	chacha8, ok := o.perCall["chacha8-v2"]
	r.text("why_v2", "Buffered", o.perCall["buffered-v2"], "PCG", o.perCall["pcg-v2"], "HasChaCha8", ok, "ChaCha8", chacha8,
		"Order", o.order, "Frames", o.frames, "Nosplit", strings.HasPrefix(o.frames[r.bufferedUint64()], "nosplit "))
}

func (r *report) wordWhy(w wordFloor) {
	gap := ""
	if d := w.Dlopen.Center - w.Floor(); d > 0 {
		gap = ns(d)
	}
	calls := w.Empty.ok() && w.EmptyDlopen.ok()
	r.text("why_word", "W", w, "Over", ns(w.Dlopen.Center-wordTarget), "Target", ns(wordTarget), "Calls", calls,
		"CallCostsMore", calls && w.EmptyDlopen.Lo > w.Empty.Hi, "CallExtra", ns(w.EmptyDlopen.Center-w.Empty.Center),
		"HandoutExtra", ns(w.HandoutDlopen.Center-w.Handout.Center), "Gap", gap, "FloorOver", w.Floor() >= wordTarget, "Reaches", w.Dlopen.Lo <= wordTarget)
}

func (r *report) rustWhy(w rustWords) {
	f := w.Handout.Center / w.Thread.Center
	var ks, floor, floorF, left, rest string
	if perByte, ok := r.res.ceil.perByte(); ok {
		fl := w.Handout.Center + 4*perByte
		ks, floor, floorF = ns(4*perByte), ns(fl), sig(fl/w.Thread.Center)
		if l := rustU32Target*w.Thread.Center - fl; l > 0 {
			left, rest = ns(l), ns(w.U32.Center-fl)
		}
	}
	r.text("why_rust", "W", w, "FloorOver", f > rustU32Target, "F", sig(f), "Target", sig(rustU32Target),
		"Adds", ns(w.U32.Center-w.Handout.Center), "KS", ks, "Floor", floor, "FloorF", floorF, "Left", left, "Rest", rest,
		"Lt", w.Lt.ok() && w.ThreadLt.ok(), "LtMore", ns(w.Lt.Center-w.U32.Center), "ThreadLtMore", ns(w.ThreadLt.Center-w.Thread.Center))
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
// slower than the reader, as its row judges it), when the run has the
// ReadGuard rows that explain them.
func (r *report) goReadMissed() []string {
	g := r.res.goRandp
	if !g.get("ReadGuard/op=none").ok() || !g.get("ReadGuard/op=pin").ok() {
		return nil
	}
	var missed []string
	for _, sz := range goReadTargets {
		if v, _, _, _ := r.ratio("go:RandpRead/"+sz, "go:AESCTRRead/"+sz); v > 1 {
			missed = append(missed, sz)
		}
	}
	return missed
}

func (r *report) goReadWhy(missed []string) {
	g := r.res.goRandp
	none, pin, swap := g.get("ReadGuard/op=none"), g.get("ReadGuard/op=pin"), g.get("ReadGuard/op=swap")
	swapCost := ""
	if swap.ok() {
		swapCost = ns(swap.Center - none.Center)
	}
	cost := pin.Center - none.Center
	var parts []string
	within := true
	for _, sz := range missed {
		less, rd := g.get("RandpRead/"+sz).Center-cost, g.get("AESCTRRead/"+sz).Center
		parts = append(parts, fmt.Sprintf("%s at %s (the reader %s)", ns(less), fmtBytes(parseSize(sz)), ns(rd)))
		within = within && less <= rd
	}
	r.text("why_read", "Missed", missed, "Cost", ns(cost), "Swap", swapCost, "Parts", strings.Join(parts, ", "), "Within", within)
}
