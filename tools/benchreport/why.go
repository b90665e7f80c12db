package main

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// The profiles behind the targets this run misses where the peer does
// less than randp's guarantees require, from measurements of the same run:
// the C fills against planet36/randp (3 AES rounds, a 256 B pool), the Go
// rand/v2 Source against PCG (a predictable leaf), the goroutine-safe Go
// Read against a reader of one goroutine's own, Rust u32 and lt_u32
// against ThreadRng (whose buffer keeps what it hands out), and randp_u64
// through dlopen against its bound; the last two beside a thread-local
// word loaded and zeroed with no generator. templates/why.tmpl computes
// and words each profile from the run's rows.

// misses is what "Misses explained" profiles in this run: each missed
// target whose profile the run has the rows for.
type misses struct {
	Fill []fillFloor // the C fill sizes missed against planet36/randp
	// The other profiles of data/targets.toml (v2, read, word, rust), each
	// with the sizes of its targets' missed rows ("" for a target without
	// sizes), as targetBar found them.
	Profiled map[string][]string
	Ceil     bool    // whether the run measured the widest 14-round aes-ceiling kernel: Kernel
	Kernel   string  // (the ceiling), whose best time per byte in ns is PerByte:
	PerByte  float64 // the least a byte of AES-256 keystream takes on this CPU
}

// Any reports whether the run profiles any miss.
func (m *misses) Any() bool { return len(m.Fill) > 0 || len(m.Profiled) > 0 }

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
	Keystream  float64 // the size's keystream at the widest 14-round loop's best rate, ns
	Direct     bool    // written in place: no copy out of a buffer
	CopyZero   stat    // randp's copy out of the buffer and zeroing behind it (Rust copy_zero); unset when direct
	Call       float64 // randp's call without its bytes: see misses
	CallKnown  bool    // whether the run has the rows the call's cost needs
}

// Floor is the keystream, the copy (none when written in place) and the
// call, each at the low end of its interval: a bound no randp call of that
// size goes below, not a typical time.
func (f fillFloor) Floor() float64 { return f.Keystream + f.CopyZero.Lo + f.Call }

const pcgUint64 = "math/rand/v2.(*PCG).Uint64"

// bufferedUint64 is the name the compiler gives randp's Buffered.Uint64.
func (r *report) bufferedUint64() string {
	i := slices.IndexFunc(r.res.opcount.Order, func(f string) bool { return strings.HasSuffix(f, ".(*Buffered).Uint64") })
	if i < 0 {
		return ""
	}
	return r.res.opcount.Order[i]
}

// misses is the run's profiled misses, once targetTables has judged the
// targets.
func (r *report) misses() *misses {
	m := &misses{Fill: r.fillFloors(), Profiled: r.profiled}
	m.Kernel, _ = r.res.widest()
	m.PerByte, m.Ceil = r.res.perByte()
	return m
}

// fillFloors is the C fill sizes at which randp is slower than
// planet36/randp (whatever the target's bound), each with its floor, when
// the run has the ceiling and, below directFrom, the copy_zero row. The
// call's cost is `randp_u64` (the same library, the same function pointer,
// its thread-local state, the marks that keep signal handlers and forks
// out) at the low end of its interval, less the keystream of its 8 bytes
// and the copy-and-zero of 16 (copy_zero's smallest size, itself with a
// call): an underestimate, as a floor needs.
func (r *report) fillFloors() []fillFloor {
	perByte, ceil := r.res.perByte()
	if r.res.peers["planet36-randp"] != "" || !ceil {
		return nil
	}
	u64, cz := r.stat("c:u64/randp"), r.stat("rust:copy_zero/16")
	call, callKnown := 0.0, u64.ok() && cz.ok()
	if callKnown {
		call = math.Max(0, u64.Lo-8*perByte-cz.Lo)
	}
	var fill []fillFloor
	for _, n := range sweepSizes() {
		v := r.fill(n).Ratio
		name := "c:" + r.fillTable(n)
		f := fillFloor{Size: n, P36: r.stat(name + "planet36"), Randp: r.stat(name + "randp"), Keystream: n * perByte,
			Direct: n >= directFrom, Call: call, CallKnown: callKnown}
		if !f.Direct {
			f.CopyZero = r.stat(fmt.Sprint("rust:copy_zero/", int(n)))
		}
		if v != 0 && v < 1 && (f.Direct || f.CopyZero.ok()) {
			fill = append(fill, f)
		}
	}
	return fill
}

// canProfile reports whether the run has the rows that the "Misses
// explained" profile p (v2, read, word, rust) needs beyond its targets'
// own: go-opcount.txt's counts and frames, the ReadGuard rows, copyzero_u64
// and the ceiling, copyzero_u32.
func (r *report) canProfile(p string) bool {
	o := r.res.opcount
	_, a := o.PerCall["buffered-v2"]
	_, b := o.PerCall["pcg-v2"]
	_, ceil := r.res.perByte()
	return map[string]bool{
		"v2":   a && b && o.Frames[pcgUint64] != "" && o.Frames[r.bufferedUint64()] != "",
		"read": r.stat("go:ReadGuard/op=none").ok() && r.stat("go:ReadGuard/op=pin").ok(),
		"word": r.stat("c:copyzero_u64/copyzero").ok() && ceil,
		"rust": r.stat("rust:u32/copyzero_u32").ok(),
	}[p]
}

// frameKind says what a frame line from the compiler costs each call: a
// leaf's has no stack-bound check (nosplit) and no locals.
func frameKind(frame string) string {
	nosplit := strings.HasPrefix(frame, "nosplit ")
	switch {
	case nosplit && strings.Contains(frame, "locals=0x0"):
		return "yes: no frame, no stack-bound check"
	case nosplit:
		return "no: a frame, no stack-bound check"
	}
	return "no: a frame and a stack-bound check"
}
