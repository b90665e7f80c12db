//! Fast key erasure and the nesting mark, at every instruction of a draw.
//!
//! A tracer (this test) runs a tracee (this binary again, under ptrace) that
//! makes one call. A first run single-steps the whole call and records each
//! step (its instruction and stack depth); then for every step k a fresh
//! tracee is run to step k (with a breakpoint) and SIGUSR1 is injected
//! there. Its handler either forks (both processes go on: the child's copy
//! of the state page is wiped under the interrupted call, which the child
//! then finishes) or drops the state page (MADV_PAGEOUT on a droppable page:
//! it reads back as zeroes), and then draws. A third family drops the page
//! at step k without drawing, lets the call go on over the dropped page, and
//! draws from a SIGUSR2 handler at the call's last step before its result is
//! final (the first step at which a fork hands the child the parent's
//! result ends the call's use of the state): a call running over a wiped
//! page must not let a handler use what it writes there. A fourth family
//! drops the page right after the path's last keystream kernel call
//! returned (the refill's words are then stored over the dropped page,
//! which reads as filled) and draws from a SIGUSR2 handler at each of the
//! next steps of that run and at steps spread to the call's return: while
//! the call throws the dropped state away (its wipe zeroes some 16 KiB),
//! a handler must read the OS, not use the half-wiped state (it did, and
//! output zero words, before the wipe kept the mark on). Afterwards, in the
//! parent and in the child, nothing a handler drew, the interrupted call
//! returned, or later draws returned appears twice or is zero, none of it
//! is CTR output of a wiped state (AES-256 under the all-zero key, or with
//! all-zero round keys), every process holds exactly one state (the `wf`
//! mappings of /proc/self/smaps: a page and its three-page extension per
//! thread that drew), and a page drop really dropped the state page (the
//! extension is locked and not droppable). A child that returns exactly its parent's
//! result is counted as a fork after the result was final, which only the
//! steps at the end of the call may show.
//!
//! A fifth family restores a VM snapshot at step k (a refill, and in
//! release the reseed's and the tail's fills; where the process has the
//! vDSO's getrandom): the
//! tracer saves the tracee's writable memory and registers there, lets it
//! finish the call, draw words over several refills and a direct fill of
//! several mix intervals, and report; writes the snapshot back, makes the
//! kernel reseed its RNG (as a restored VM's kernel does; not as root, it
//! zeroes the vDSO's state instead) and lets it run and report again. The
//! two runs may share at most the buffer (what the refill in flight writes,
//! or the unread buffer at the snapshot), and for a fill one mix interval
//! of direct output besides; what a fill wrote into the caller's memory
//! before the snapshot is in the snapshot and is left out. Controls at a
//! few steps: a restore with no reseed (the runs are the same) and, but
//! for the reseed path, one with the kernel mix off (they share more than
//! the bound). The same restores with VMClock: a tracee that reads a VM
//! generation counter from a file standing for the device (the kernel mix
//! off), whose counter the tracer bumps before the second run instead of
//! reseeding the kernel, on the word draw from the buffer (which then
//! takes the slow path that compares the counter), and in release the
//! refill and the fills: the runs may share nothing after the call in flight;
//! control, the counter left as it was: they share what they draw after it.
//!
//! The paths: a word draw's refill (`u64` with the buffer, extension
//! attached, empty), a reseed
//! (a 1 MiB fill with the reseed interval used up) and a thread's first
//! draw (where a handler's draw must not make the thread map a second
//! page), and the refill that first attaches a thread's
//! extension (a fork or a drop anywhere between its lock and its record),
//! a word draw's fast path (`u64` with bytes in the buffer), and a fill of
//! 2 KiB and 8 bytes, whose slow path takes its last 8 bytes from the
//! buffer under the thread-local counts word (a wipe between the fast path,
//! which declines the fill, and the slow path leaves those counts stale).
//! In a release tracee (`make test-rust`) every step of each path is a
//! case; in a debug one (`make test-rust-debug`, every path but the reseed,
//! traced by the release build: `RANDP_SINGLE_STEP_TRACEE_EXE` names the
//! debug binary) each (instruction, stack depth) pair is a case at its
//! first and its last time, which covers every instruction at a third of
//! the cases; the keystream
//! kernels are stepped over (a single-step
//! trap aborts their restartable sequence at every step, so stepping into
//! them never ends) and the signal is injected at each kernel's entry as
//! well. The lookup of the thread's stack bounds in /proc/self/maps that a
//! thread's first keystream call makes is run as one step too: it keeps no
//! state but the two thread-local words it stores at its end, and its steps
//! (some hundred thousand in debug) would each be a case. So is the wipe of
//! the stack below a keystream call, which runs after every kernel where
//! signals are blocked around it (no rseq: musl): it writes only dead
//! stack, and its `rep stosb` would be a step per byte. A signal sent where
//! the tracee has it blocked (around a kernel, there) waits until the
//! tracee unblocks it, and the tracer follows it there; the output counts
//! those steps, and an early drop at one must find it blocked as the
//! recording did; a recording must find signals blocked at some step
//! exactly where the thread has no rseq (musl, or glibc with
//! `glibc.pthread.rseq=0`, which `make test-rust` runs too). The output
//! names the steps covered per path. Where the state pages are not
//! droppable (Linux < 6.11) only the forks run, and the output says so. Linux on x86_64 (glibc and musl) only; tracees run
//! without address randomisation.

#![cfg(all(target_os = "linux", target_arch = "x86_64"))]

mod protocol;
mod ptrace;
mod state_pages;
#[path = "../support/mod.rs"]
mod support;
mod tracee;

use aes::Aes256;
use aes::cipher::{BlockCipherEncrypt, KeyInit};
use protocol::{Action, BUILD_ROLE, Path, REPORT, ROLE, Report};
use ptrace::{ADDR_NO_RANDOMIZE, Step, Tracee, describe, tracee_debug};
use std::collections::HashSet;
use std::hint::black_box;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

/// Blocks of the all-zero key's keystream that no output may contain.
const ZERO_KEY_BLOCKS: u128 = 8192;
/// Tracees run side by side (each traced by the thread that started it).
const WORKERS: usize = 2;

fn write_words(fd: i32, words: &[u64]) {
    // SAFETY: the slice covers exactly the words' memory, which is
    // initialised; u64 has no padding and u8 any alignment. (A debug
    // tracee spent a tenth of its time converting word by word.)
    let bytes = unsafe { std::slice::from_raw_parts(words.as_ptr().cast::<u8>(), size_of_val(words)) };
    support::write_all(fd, bytes);
}

/// The 8-byte halves of the first blocks of CTR-mode output of a wiped
/// state, from counter 0, sorted: AES-256 under the all-zero key (a zeroed
/// key, expanded), and AES-256 with all 15 round keys zero (a zeroed
/// schedule, used as it is).
fn zero_key_words() -> Vec<u64> {
    let aes = Aes256::new(&[0u8; 32].into());
    assert!(std::arch::is_x86_feature_detected!("aes"), "the x86_64 keystream kernels need AES-NI");
    let mut set = Vec::new();
    for ctr in 0..ZERO_KEY_BLOCKS {
        let mut b = ctr.to_be_bytes().into();
        aes.encrypt_block(&mut b);
        let b: [u8; 16] = b.into();
        // SAFETY: the CPU has AES-NI (checked above); loads and stores of
        // 16-byte arrays.
        let z: [u8; 16] = unsafe {
            use std::arch::x86_64::*;
            let zero = _mm_setzero_si128();
            let mut st = _mm_loadu_si128(ctr.to_be_bytes().as_ptr().cast());
            for _ in 0..13 {
                st = _mm_aesenc_si128(st, zero);
            }
            st = _mm_aesenclast_si128(st, zero);
            let mut out = [0u8; 16];
            _mm_storeu_si128(out.as_mut_ptr().cast(), st);
            out
        };
        for block in [b, z] {
            set.push(u64::from_ne_bytes(block[..8].try_into().unwrap()));
            set.push(u64::from_ne_bytes(block[8..].try_into().unwrap()));
        }
    }
    set.sort_unstable();
    set
}

/// The steps of one path, from a run that single-steps through the whole
/// call and injects nothing: each step's instruction, its stack pointer
/// (from the call's), and how many times before that pair was reached.
#[derive(PartialEq)]
struct Trace {
    steps: Vec<(u64, u64, usize)>,
    /// The steps at which the tracee had SIGUSR1 blocked (around the
    /// keystream kernels, where there is no rseq: musl), in order.
    blocked: Vec<usize>,
    kernel_calls: usize,
    /// The step right after the last keystream kernel call returned.
    after_kernel: Option<usize>,
}

impl Trace {
    fn distinct(&self) -> usize {
        self.steps.iter().map(|s| s.0).collect::<HashSet<_>>().len()
    }
}

/// The steps of `steps` (a recording, as [`record`] makes it) that are
/// cases: all of them in a release tracee; in a debug one each
/// (instruction, stack depth) pair's first and last time (a debug build's
/// loops run their body some thousand times over, and the cases at the
/// repeats between the first and the last find nothing the two ends do
/// not, each costing a tracee). Sorted.
fn covered(steps: &[(u64, u64, usize)]) -> Vec<usize> {
    if !tracee_debug() {
        return (0..steps.len()).collect();
    }
    let mut last = std::collections::HashMap::new();
    for (i, &(rip, depth, _)) in steps.iter().enumerate() {
        last.insert((rip, depth), i);
    }
    let ends: HashSet<usize> = last.into_values().collect();
    (0..steps.len()).filter(|&i| steps[i].2 == 0 || ends.contains(&i)).collect()
}

/// How the cases were chosen, for the output.
fn coverage(cases: usize, steps: usize) -> String {
    if cases == steps {
        "every step".into()
    } else {
        format!("{cases} of {steps} steps (each instruction and stack depth's first and last time)")
    }
}

/// The recording of `path` with `action`'s tracee, which two runs agree on.
fn trace(path: Path, action: Action) -> Trace {
    agreed(path.name(), || {
        let mut t = Tracee::start(path, action);
        let recording = record(&t, usize::MAX);
        // A restore's tracee stops after its report, for the tracer.
        let report = if action.restores() { t.run_to_report() } else { Vec::new() };
        let (mut words, status) = t.release(0);
        words.extend(report);
        assert!(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0, "{}: {}", path.name(), describe(status));
        assert!(words.contains(&REPORT));
        recording
    })
}

/// A recording that two runs in a row agree on. A keystream kernel that is
/// preempted while it runs is aborted and run again (it is a restartable
/// sequence: see `Tracee::step`), which adds steps to that run alone; the
/// cases, which find their step by counting, would then aim past the end of
/// every run without the preemption: "the tracee ended while traced" (a
/// run of `make test` on a loaded machine failed so).
fn agreed<T: PartialEq>(what: &str, mut run: impl FnMut() -> T) -> T {
    let mut last = run();
    for _ in 0..8 {
        let next = run();
        if next == last {
            return next;
        }
        last = next;
    }
    panic!("{what}: no two recordings in a row agreed in ten runs");
}

/// Single-steps `t` from where it stands to the call's return, or for
/// `max` steps: each step's instruction, stack pointer (from the call's)
/// and how many times before that pair was reached from the start, and the
/// steps with SIGUSR1 blocked; how many keystream kernel calls were stepped
/// over, and the step after the last.
fn record(t: &Tracee, max: usize) -> Trace {
    let mut tr = Trace { steps: Vec::new(), blocked: Vec::new(), kernel_calls: 0, after_kernel: None };
    let mut seen = std::collections::HashMap::new();
    while tr.steps.len() < max {
        let regs = t.regs();
        let at = (regs.rip, t.entry_rsp().wrapping_sub(regs.rsp));
        let n = seen.entry(at).or_insert(0);
        if t.blocks(libc::SIGUSR1) {
            tr.blocked.push(tr.steps.len());
        }
        tr.steps.push((at.0, at.1, *n));
        *n += 1;
        match t.step() {
            Step::Returned => break,
            Step::Kernel => {
                tr.kernel_calls += 1;
                tr.after_kernel = Some(tr.steps.len());
            }
            Step::Instruction => {}
        }
    }
    tr
}

/// The steps after a late drop (`after_drop`) at which a draw is made at
/// every step: enough to reach past the call's look at `live` and into its
/// wipe of the dropped state; after them, [`AFTER_DROP_SPREAD`] more,
/// spread evenly to the call's return (the wipe zeroes some 16 KiB).
fn after_drop_steps() -> usize {
    if tracee_debug() { 1500 } else { 600 }
}
const AFTER_DROP_SPREAD: usize = 32;

/// A fourth family: the state page dropped right after the path's last
/// keystream kernel call returned (its refill's words are then stored over
/// the dropped page, which reads as filled: a handler that used it before
/// the call has wiped it would hand out the zeroed buffer), and a draw from
/// SIGUSR2 at each of the next steps of that run, and at steps spread over
/// the rest of the call, through its throwing away of the state. Returns
/// each case's step (counted from the drop) and outcome, how many steps
/// the call took after the drop, and which of the first steps were cases.
fn after_drop(tr: &Trace, path: Path, zero: &[u64]) -> (Vec<StepOutcome>, usize, String) {
    let Some(k) = tr.after_kernel else { return (Vec::new(), 0, String::new()) };
    let start = |t: &Tracee| {
        let (rip, depth, nth) = tr.steps[k];
        t.run_to_instance(rip, t.entry_rsp().wrapping_sub(depth), nth);
        t.signal_here();
    };
    let rest = agreed(path.name(), || {
        let t = Tracee::start(path, Action::DropEarly);
        start(&t);
        let rest = record(&t, usize::MAX).steps;
        let _ = t.release(0);
        rest
    });
    let every = after_drop_steps();
    let spread = rest.len().saturating_sub(every).div_ceil(AFTER_DROP_SPREAD).max(1);
    let first = covered(&rest[..rest.len().min(every)]);
    let chosen = coverage(first.len(), rest.len().min(every));
    let at: Vec<usize> = first.into_iter().chain((every..rest.len()).step_by(spread)).collect();
    let outcomes = on_workers(&at, |&j| {
        let (rip, depth, nth) = rest[j];
        let t = Tracee::start(path, Action::DropEarly);
        start(&t);
        t.run_to_instance(rip, t.entry_rsp().wrapping_sub(depth), nth);
        t.probe();
        let (words, status) = t.release(0);
        (j, judge(path, Action::DropEarly, &words, status, zero, 1))
    });
    (outcomes, rest.len(), chosen)
}

/// Runs one case: SIGUSR1 at step `k` of the trace, and for an early drop
/// SIGUSR2 at step `probe_at` of the trace (reached by its instruction and
/// stack pointer, whatever the call did after the drop). Returns a failure,
/// or whether a fork came after the call had its result.
fn case(tr: &Trace, path: Path, action: Action, k: usize, probe_at: usize, zero: &[u64]) -> Result<bool, String> {
    let t = Tracee::start(path, action);
    let go = |i: usize| {
        let (rip, depth, nth) = tr.steps[i];
        t.run_to_instance(rip, t.entry_rsp().wrapping_sub(depth), nth);
    };
    if k > 0 {
        go(k);
    }
    let (words, status, probes) = match action {
        Action::Fork | Action::Drop => {
            let (words, status) = t.release(libc::SIGUSR1);
            (words, status, 0)
        }
        Action::DropEarly => {
            // Where signals are blocked, the drop comes where they are
            // unblocked: at the same steps as in the recording.
            if t.signal_here() != tr.blocked.binary_search(&k).is_ok() {
                return Err(format!(
                    "SIGUSR1 blocked at step {k} in this run and not in the recording, or the reverse"
                ));
            }
            let (rip, depth, _) = tr.steps[probe_at];
            t.run_to_instance(rip, t.entry_rsp().wrapping_sub(depth), 0);
            t.probe();
            let (words, status) = t.release(0);
            (words, status, 1)
        }
        Action::Restore
        | Action::RestoreFaithful
        | Action::RestoreMixOff
        | Action::RestoreVmClock
        | Action::RestoreVmClockSame => {
            unreachable!("restores are run by restore_case")
        }
    };
    judge(path, action, &words, status, zero, probes)
}

/// A finished tracee's outcome, from what it wrote and its wait status (see
/// [`check`]).
fn judge(path: Path, action: Action, words: &[u64], status: i32, zero: &[u64], probes: usize) -> Result<bool, String> {
    if !(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0) {
        return Err(format!("the tracee ended with {}", describe(status)));
    }
    let reports = parse(words).ok_or("unreadable reports")?;
    check(path, action, &reports, zero, probes)
}

fn parse(mut words: &[u64]) -> Option<Vec<Report>> {
    let mut reports = Vec::new();
    while !words.is_empty() {
        if words[0] != REPORT {
            return None;
        }
        let (r, used) = Report::decode(&words[1..])?;
        reports.push(r);
        words = &words[1 + used..];
    }
    Some(reports)
}

/// How many values two sorted lists share.
fn sorted_common(a: &[u64], b: &[u64]) -> usize {
    let (mut i, mut j, mut n) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                n += 1;
                i += 1;
                j += 1;
            }
        }
    }
    n
}

/// Checks one case's reports; returns whether the fork came after the call
/// had its result (the child's result is the parent's).
fn check(path: Path, action: Action, reports: &[Report], zero: &[u64], probes: usize) -> Result<bool, String> {
    let parents: Vec<&Report> = reports.iter().filter(|r| !r.child).collect();
    let children: Vec<&Report> = reports.iter().filter(|r| r.child).collect();
    let [parent] = parents[..] else { return Err(format!("{} parent reports", parents.len())) };
    match action {
        Action::Fork => {
            if children.len() != 1 {
                return Err(format!("{} reports from the handler's child", children.len()));
            }
            let st = parent.child_status;
            if !(libc::WIFEXITED(st) && libc::WEXITSTATUS(st) == 0) {
                return Err(format!("the handler's child ended with {}", describe(st)));
            }
        }
        Action::Drop | Action::DropEarly if !children.is_empty() => return Err("a child report without a fork".into()),
        // The page exists from the start of these paths: it must be gone.
        Action::Drop | Action::DropEarly if path != Path::FirstDraw && parent.dropped != 1 => {
            return Err(format!("{} state pages dropped, not 1", parent.dropped));
        }
        Action::Drop | Action::DropEarly => {}
        Action::Restore
        | Action::RestoreFaithful
        | Action::RestoreMixOff
        | Action::RestoreVmClock
        | Action::RestoreVmClockSame => {
            unreachable!("restores are checked by restore_case")
        }
    }
    for r in reports {
        let who = if r.child { "child" } else { "parent" };
        if r.signals != 1 {
            return Err(format!("{who}: {} signals handled, not 1", r.signals));
        }
        let state_pages = randp::internals::STATE_MAPPING_LEN / 4096;
        if r.pages != state_pages {
            return Err(format!(
                "{who}: {} state pages mapped at the end, not {state_pages} (one state: its page and extension)",
                r.pages
            ));
        }
    }
    if parent.probes != probes {
        return Err(format!("{} SIGUSR2 draws made, {probes} signals sent", parent.probes));
    }
    // The child's `before` is its copy of the parent's, drawn before the
    // fork. A fork after the call's last look at the state (the return
    // sequence) gives both processes its whole result, exactly as a fork
    // just after the call would: the child's result may equal the
    // parent's as a whole, and is then left out; any other overlap counts.
    let mut all: Vec<u64> = parent.all().collect();
    let mut late = false;
    for c in &children {
        late = c.call == parent.call;
        let call = if late { &[][..] } else { &c.call[..] };
        all.extend(c.handler.iter().chain(call).chain(&c.later));
    }
    check_fresh(&mut all, zero)?;
    Ok(late)
}

/// Sorts `words` and checks that none is zero, none appears twice, and none
/// is CTR output of a wiped state (`zero`, sorted).
fn check_fresh(words: &mut [u64], zero: &[u64]) -> Result<(), String> {
    words.sort_unstable();
    if words.first() == Some(&0) {
        return Err("a zero word was output".into());
    }
    let repeated = words.windows(2).filter(|w| w[0] == w[1]).count();
    if repeated > 0 {
        return Err(format!("{repeated} repeated words"));
    }
    let under_zero = sorted_common(words, zero);
    if under_zero > 0 {
        return Err(format!(
            "{under_zero} words of CTR output under the all-zero key or all-zero round keys (a wiped state)"
        ));
    }
    Ok(())
}

/// A restore case's step, and what [`restore_case`] returned.
type RestoreOutcome = (usize, Result<(usize, &'static str), String>);

/// Control cases of the restore family per path (each kind), at steps
/// spread over the call.
const RESTORE_CONTROLS: usize = 8;

/// `n` of `steps`, spread evenly from the first to the last.
fn spread(steps: &[usize], n: usize) -> Vec<usize> {
    if steps.len() <= n {
        return steps.to_vec();
    }
    (0..n).map(|i| steps[i * (steps.len() - 1) / (n - 1)]).collect()
}

/// One restore case: a snapshot of the tracee at step `k` of the trace (its
/// writable memory and registers), a run to its report, the snapshot
/// written back, the kernel's RNG reseeded (not for a faithful restore),
/// and a run again. Returns the bytes the two runs' draws share (the call's
/// and those after it), after checking each run with [`check_fresh`], and
/// how the kernel's RNG was reseeded.
fn restore_case(
    tr: &Trace,
    path: Path,
    action: Action,
    k: usize,
    zero: &[u64],
) -> Result<(usize, &'static str), String> {
    let mut t = Tracee::start(path, action);
    if k > 0 {
        let (rip, depth, nth) = tr.steps[k];
        t.run_to_instance(rip, t.entry_rsp().wrapping_sub(depth), nth);
    }
    let snap = support::snapshot::snapshot(t.pid);
    // What a fill has written into the caller's memory by the snapshot is
    // in the snapshot, and in both runs' results: it is left out.
    let written: Vec<u64> = if path.fills() {
        let b = snap.bytes_at(t.arg as usize, tracee::LARGEST_FILL).expect("the fill's destination is in the snapshot");
        b.chunks_exact(8).map(|c| u64::from_ne_bytes(c.try_into().unwrap())).collect()
    } else {
        Vec::new()
    };
    let first = t.run_to_report();
    support::snapshot::restore(t.pid, &snap);
    let how = match action {
        Action::RestoreFaithful | Action::RestoreVmClockSame => "none",
        Action::RestoreVmClock => {
            support::vm_clock::bump_generation(&protocol::vm_clock_path(t.pid as u32));
            "none, the VMClock counter bumped"
        }
        _ => support::snapshot::reseed_kernel(t.pid),
    };
    let second = t.run_to_report();
    let (rest, status) = t.release(0);
    if !(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0 && rest.is_empty()) {
        return Err(format!("the tracee ended with {} after {} more words", describe(status), rest.len()));
    }
    let [a, b] = [&first, &second].map(|w| parse(w).and_then(|mut r| (r.len() == 1).then(|| r.remove(0))));
    let (Some(a), Some(b)) = (a, b) else { return Err("unreadable reports".into()) };
    if a.before != b.before {
        return Err("the restored run drew otherwise before the call: the snapshot was not written back".into());
    }
    let mut runs = Vec::new();
    for (r, which) in [(&a, "first run"), (&b, "restored run")] {
        if r.child || r.signals != 0 || r.probes != 0 {
            return Err(format!("{which}: child {}, {} signals, {} probes", r.child, r.signals, r.probes));
        }
        // With VMClock the call in flight may finish alike in both runs;
        // what comes after it is compared.
        let in_flight = if action.vm_clock() { 0 } else { r.call.len() };
        let call = r.call[..in_flight].iter().enumerate().filter(|&(i, w)| written.get(i) != Some(w)).map(|(_, w)| w);
        let mut run: Vec<u64> = call.chain(&r.later).copied().collect();
        check_fresh(&mut run, zero).map_err(|e| format!("{which}: {e}"))?;
        runs.push(run);
    }
    Ok((8 * sorted_common(&runs[0], &runs[1]), how))
}

/// The restore family of one path: a restore at every case step, whose two
/// runs may share at most `bound` bytes; controls at a few steps: a
/// faithful restore (no reseed: the runs are the same) and, on the paths
/// with no reseed from getrandom(2) in the call, a restore with the kernel
/// mix off (the runs share more than `bound`). Returns the cases passed,
/// failed, and the failures.
fn restores(tr: &Trace, path: Path, bound: usize, zero: &[u64]) -> (usize, usize, Vec<String>) {
    let start = std::time::Instant::now();
    let steps = covered(&tr.steps);
    let n = tr.steps.len() - 1;
    let outcomes = on_workers(&steps, |&k| (k, restore_case(tr, path, Action::Restore, k, zero)));
    let mut failures = Vec::new();
    let mut over = Vec::new();
    let (mut most, mut none, mut reseeded_by) = (0, 0, "no case");
    let mut failed: Vec<Outcome> = Vec::new();
    for (k, r) in outcomes {
        if let Ok((_, how)) = r {
            reseeded_by = how;
        }
        match r {
            Ok((shared, _)) if shared > bound => over.push((k, shared)),
            Ok((shared, _)) => {
                most = most.max(shared);
                none += usize::from(shared == 0);
            }
            Err(e) => failed.push((Action::Restore, k, Err(e))),
        }
    }
    failures.extend(failures_of(path, &failed));
    failures.extend(over_bound(&format!("{} restore", path.name()), bound, &mut over));
    // The controls. The faithful restores run one at a time, after the
    // others: a reseed of the kernel's RNG by another case would change
    // what the vDSO gives the second run.
    let mix_off = if path == Path::Reseed {
        Vec::new()
    } else {
        let off_trace = trace(path, Action::RestoreMixOff);
        let at = spread(&(0..off_trace.steps.len()).collect::<Vec<_>>(), RESTORE_CONTROLS);
        on_workers(&at, |&k| (k, restore_case(&off_trace, path, Action::RestoreMixOff, k, zero)))
    };
    let faithful: Vec<RestoreOutcome> = spread(&steps, RESTORE_CONTROLS)
        .into_iter()
        .map(|k| (k, restore_case(tr, path, Action::RestoreFaithful, k, zero)))
        .collect();
    let control_failed = controls(path, "faithful restore", bound, &faithful, &mut failures)
        + controls(path, "restore with the mix off", bound, &mix_off, &mut failures);
    let bad = failed.len() + over.len();
    println!(
        "single step: {}: a restore (a snapshot of memory and registers, a run, the snapshot written back, the \
         kernel's RNG reseeded by {}, a run again) at {} (0..={n}): the runs share at most {most} B (bound \
         {bound}), nothing at {none} steps; {bad} failed, {:.1} s; controls: a faithful restore at {} steps shares \
         at least {}; {}; {control_failed} failed",
        path.name(),
        reseeded_by,
        coverage(steps.len(), n + 1),
        start.elapsed().as_secs_f64(),
        faithful.len(),
        least_shared(&faithful),
        if mix_off.is_empty() {
            "none with the mix off (the call reseeds from getrandom(2), which no restore repeats)".to_string()
        } else {
            format!("one with the mix off at {} steps at least {}", mix_off.len(), least_shared(&mix_off))
        },
    );
    let cases = steps.len() + faithful.len() + mix_off.len();
    (cases - bad - control_failed, bad + control_failed, failures)
}

/// The VMClock restore family of one path: in a tracee that reads a VM
/// generation counter (with the kernel mix off), a restore at every case
/// step whose second run finds the counter bumped: the runs may share
/// nothing after the call in flight. Control at a few steps: the counter
/// left as it was, the runs share what they draw after the call. Returns
/// the cases passed, failed, and the failures.
fn vm_clock_restores(path: Path, zero: &[u64]) -> (usize, usize, Vec<String>) {
    let start = std::time::Instant::now();
    let tr = trace(path, Action::RestoreVmClock);
    let steps = covered(&tr.steps);
    let n = tr.steps.len() - 1;
    let outcomes = on_workers(&steps, |&k| (k, restore_case(&tr, path, Action::RestoreVmClock, k, zero)));
    let same: Vec<RestoreOutcome> = on_workers(&spread(&steps, RESTORE_CONTROLS), |&k| {
        (k, restore_case(&tr, path, Action::RestoreVmClockSame, k, zero))
    });
    let mut failures = Vec::new();
    let mut shared_at = Vec::new();
    let mut bad = 0;
    for (k, r) in &outcomes {
        match r {
            Ok((0, _)) => {}
            Ok((shared, _)) => shared_at.push((*k, *shared)),
            Err(e) => failures.push(format!("{} restore with VMClock at step {k}: {e}", path.name())),
        }
        bad += usize::from(!matches!(r, Ok((0, _))));
    }
    failures.extend(over_bound(&format!("{} restore with VMClock", path.name()), 0, &mut shared_at));
    bad += controls(path, "restore with the VMClock counter unchanged", 0, &same, &mut failures);
    let cases = outcomes.len() + same.len();
    println!(
        "single step: {}: a restore with VMClock (the tracee reads the counter from a page file, the kernel mix off; \
         the snapshot written back and the counter bumped, no reseed) at {} (0..={n}): the runs share at most {} B \
         after the call (bound 0); {bad} failed, {:.1} s; control: the counter unchanged at {} steps shares at least {}",
        path.name(),
        coverage(steps.len(), n + 1),
        outcomes.iter().filter_map(|r| r.1.as_ref().ok()).map(|r| r.0).max().unwrap_or(0),
        start.elapsed().as_secs_f64(),
        same.len(),
        least_shared(&same),
    );
    (cases - bad, bad, failures)
}

/// The failure for the restore cases `over` (step, bytes shared) of `what`
/// whose runs share more than `bound` bytes, if there are any.
fn over_bound(what: &str, bound: usize, over: &mut [(usize, usize)]) -> Option<String> {
    let worst = over.iter().map(|o| o.1).max()?;
    over.sort_unstable();
    let ks: Vec<usize> = over.iter().map(|o| o.0).collect();
    Some(format!("{what}: the runs share more than {bound} bytes (up to {worst}) at steps {}", ranges(&ks)))
}

/// Checks the control restores `outcomes` (a `what` on `path`), whose runs
/// must share more than `bound` bytes (the harness sees a repeat); adds a
/// failure for each that does not, and returns how many.
fn controls(path: Path, what: &str, bound: usize, outcomes: &[RestoreOutcome], failures: &mut Vec<String>) -> usize {
    let mut failed = 0;
    for (k, r) in outcomes {
        let failure = match r {
            Ok((shared, _)) if *shared > bound => continue,
            Ok((shared, _)) => format!("the runs share only {shared} bytes (the harness sees no repeat)"),
            Err(e) => e.clone(),
        };
        failed += 1;
        failures.push(format!("{} control: a {what} at step {k}: {failure}", path.name()));
    }
    failed
}

/// The least that the restores `outcomes` share, as the output says it.
fn least_shared(outcomes: &[RestoreOutcome]) -> String {
    match outcomes.iter().filter_map(|r| r.1.as_ref().ok()).map(|r| r.0).min() {
        Some(n) => format!("{n} B"),
        None => "nothing".into(),
    }
}

/// `[1, 2, 3, 7]` as "1-3 7".
fn ranges(v: &[usize]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < v.len() {
        let mut j = i;
        while j + 1 < v.len() && v[j + 1] == v[j] + 1 {
            j += 1;
        }
        out.push(if i == j { v[i].to_string() } else { format!("{}-{}", v[i], v[j]) });
        i = j + 1;
    }
    if out.is_empty() { "none".into() } else { out.join(" ") }
}

type Outcome = (Action, usize, Result<bool, String>);

/// A case's step and outcome, where the action is implied.
type StepOutcome = (usize, Result<bool, String>);

/// Runs `cases` (SIGUSR1's action and step) on `WORKERS` threads.
fn run_cases(tr: &Trace, path: Path, cases: &[(Action, usize)], probe_at: usize, zero: &[u64]) -> Vec<Outcome> {
    on_workers(cases, |&(a, k)| (a, k, case(tr, path, a, k, probe_at, zero)))
}

/// Runs `f` on every item on `WORKERS` threads, which take the items in
/// turn; the results come in no set order.
fn on_workers<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let next = AtomicUsize::new(0);
    std::thread::scope(|s| {
        let workers: Vec<_> = (0..WORKERS)
            .map(|_| {
                s.spawn(|| {
                    let mut out = Vec::new();
                    while let Some(item) = items.get(next.fetch_add(1, Relaxed)) {
                        out.push(f(item));
                    }
                    out
                })
            })
            .collect();
        workers.into_iter().flat_map(|w| w.join().unwrap()).collect()
    })
}

/// The failed outcomes, one line per action and failure, with their steps.
fn failures_of(path: Path, outcomes: &[Outcome]) -> Vec<String> {
    let mut by: std::collections::BTreeMap<(&str, &str), Vec<usize>> = Default::default();
    for (a, k, r) in outcomes {
        if let Err(e) = r {
            by.entry((a.name(), e)).or_default().push(*k);
        }
    }
    by.into_iter()
        .map(|((a, e), mut ks)| {
            ks.sort_unstable();
            format!("{} {a}: {e}: {} cases, at steps {}", path.name(), ks.len(), ranges(&ks))
        })
        .collect()
}

/// Every case of one path; returns its failures.
fn test_path(path: Path, droppable: bool, zero: &[u64]) -> (usize, usize, Vec<String>) {
    let tr = trace(path, Action::Drop);
    let n = tr.steps.len() - 1;
    // The path is the one meant: a refill runs a keystream kernel; a reseed
    // mixes the seed in first.
    let kernels = path.kernel_calls();
    assert!(
        tr.kernel_calls >= kernels,
        "{}: {} keystream kernel calls, not the path under test",
        path.name(),
        tr.kernel_calls
    );
    // Signals are blocked around the kernels exactly where the tracee's
    // thread keeps keys out of signal frames that way (no rseq: musl, or
    // glibc with glibc.pthread.rseq=0), so that the cases at those steps
    // take the blocked branch of the tracer. This process runs the same C
    // library and GLIBC_TUNABLES as its tracees.
    let protection = randp::internals::signal_frame_protection();
    assert_eq!(
        !tr.blocked.is_empty(),
        tr.kernel_calls > 0 && protection == "blocked signals",
        "{}: signals blocked at {} steps with {} kernel calls, where the protection is {protection:?}",
        path.name(),
        tr.blocked.len(),
        tr.kernel_calls
    );
    let start = std::time::Instant::now();
    // A fork and a drop (each with a draw) at every step.
    let actions: &[Action] = if droppable { &[Action::Fork, Action::Drop] } else { &[Action::Fork] };
    let steps = covered(&tr.steps);
    let cases: Vec<(Action, usize)> = actions.iter().flat_map(|&a| steps.iter().map(move |&k| (a, k))).collect();
    let mut outcomes = run_cases(&tr, path, &cases, 0, zero);
    let mut late: Vec<usize> = outcomes.iter().filter(|o| matches!(o.2, Ok(true))).map(|o| o.1).collect();
    late.sort_unstable();
    let mut failures = Vec::new();
    // Only a suffix of the path may hand the child the parent's result:
    // the instructions after the call's last look at the state.
    let final_from = late.first().copied().unwrap_or(n);
    let suffix: Vec<usize> = steps.iter().copied().filter(|&k| k >= final_from).collect();
    let scattered = late != suffix && !late.is_empty();
    if scattered {
        failures.push(format!(
            "{}: a fork handed the child the parent's result at steps {} (not only at the end of the call)",
            path.name(),
            ranges(&late)
        ));
    }
    // A drop at every step before that, and a draw at the last step
    // before it, after the call went on over the dropped page.
    let probe_at = final_from.saturating_sub(1);
    let early: Vec<(Action, usize)> = if droppable {
        steps.iter().filter(|&&k| k < probe_at).map(|&k| (Action::DropEarly, k)).collect()
    } else {
        Vec::new()
    };
    outcomes.extend(run_cases(&tr, path, &early, probe_at, zero));
    failures.extend(failures_of(path, &outcomes));
    let (late_drop, after, chosen) =
        if droppable { after_drop(&tr, path, zero) } else { (Vec::new(), 0, String::new()) };
    let mut late_failed: std::collections::BTreeMap<&str, Vec<usize>> = Default::default();
    for (j, r) in &late_drop {
        if let Err(e) = r {
            late_failed.entry(e).or_default().push(*j);
        }
    }
    for js in late_failed.values_mut() {
        js.sort_unstable();
    }
    for (e, js) in &late_failed {
        failures.push(format!(
            "{} drop after the last kernel call: {e}: {} cases, with the draw at steps {} after the drop",
            path.name(),
            js.len(),
            ranges(js)
        ));
    }
    let late_bad = late_failed.values().map(Vec::len).sum::<usize>();
    let failed = outcomes.iter().filter(|o| o.2.is_err()).count() + usize::from(scattered);
    println!(
        "single step: {}: {} steps ({} distinct instructions, {} keystream kernel calls stepped over); \
         {} cases: {} at {} (0..={}){}{}; \
         {failed} failed, {:.1} s; a fork after the result was final (the child returns it too) at steps {}",
        path.name(),
        n,
        tr.distinct(),
        tr.kernel_calls,
        outcomes.len(),
        if droppable { "a fork and a page drop, each with a draw," } else { "a fork with a draw" },
        coverage(steps.len(), n + 1),
        n,
        if droppable {
            format!(", a page drop at those before {probe_at} with a draw at step {probe_at}")
        } else {
            String::new()
        },
        blocked_note(&tr),
        start.elapsed().as_secs_f64(),
        ranges(&late),
    );
    if !late_drop.is_empty() {
        println!(
            "single step: {}: a page drop right after the last keystream kernel call, then a draw at {} of the \
             {after} steps the call takes after it (of the first {}: {chosen}, through its look at the \
             dropped state; then spread to its return): {late_bad} failed",
            path.name(),
            late_drop.len(),
            after_drop_steps().min(after),
        );
    }
    let (mut passed, mut failed) = (outcomes.len() + late_drop.len() - failed - late_bad, failed + late_bad);
    if path.restored_with_vm_clock(tracee_debug()) {
        let (ok, bad, why) = vm_clock_restores(path, zero);
        passed += ok;
        failed += bad;
        failures.extend(why);
    }
    if path.restored(tracee_debug()) {
        if let Some(bound) = restore_bound(path) {
            let (ok, bad, why) = restores(&tr, path, bound, zero);
            passed += ok;
            failed += bad;
            failures.extend(why);
        } else {
            println!(
                "single step: {}: restores NOT TESTED: no vDSO getrandom here, so randp keeps no bound after a \
                 restore but its reseed interval",
                path.name()
            );
        }
    }
    (passed, failed, failures)
}

/// The steps of `tr` with signals blocked, as the output says them: a
/// signal sent at one of them waits and comes in where they are unblocked
/// (the early drops check that each does so where the recording had it
/// blocked).
fn blocked_note(tr: &Trace) -> String {
    if tr.blocked.is_empty() {
        return String::new();
    }
    format!(
        "; signals blocked at {} steps (around the keystream kernels, without rseq), where a signal comes in \
         where they are unblocked",
        tr.blocked.len()
    )
}

/// What two runs from one snapshot may share on `path` at most: the buffer
/// (the refill in flight), and for the paths that write directly a mix
/// interval of direct output besides; `None` where the process has no vDSO
/// getrandom to mix in.
fn restore_bound(path: Path) -> Option<usize> {
    if !randp::internals::kernel_mix_available() {
        return None;
    }
    let buffer = randp::internals::thread_buffer_len().expect("a userspace state");
    assert!(buffer > randp::internals::DEFAULT_BLOCKS * 16, "the extension is attached in the tracer");
    Some(if path == Path::Refill { buffer } else { buffer + randp::internals::MIX_DIRECT })
}

fn main() {
    if let Ok(role) = std::env::var(ROLE) {
        if role == BUILD_ROLE {
            println!("{}", if cfg!(debug_assertions) { "debug" } else { "release" });
            return;
        }
        let (path, action) = role.split_once(',').unwrap();
        tracee::run(Path::from_name(path), Action::from_name(action));
    }
    // The tracees run without address randomisation (ptrace.rs), which a
    // seccomp filter may refuse: Docker's default profile allows
    // personality(2) only for a few personas, ADDR_NO_RANDOMIZE not among
    // them. Say so plainly rather than fail on the first tracee.
    // SAFETY: personality(2) with 0xffffffff only reads this process's
    // persona; the second call sets it with the flag and the third restores
    // it, before any child is started.
    unsafe {
        let persona = libc::personality(0xffff_ffff) as libc::c_ulong;
        if libc::personality(persona | ADDR_NO_RANDOMIZE) == -1 {
            panic!(
                "single step: personality(ADDR_NO_RANDOMIZE) is refused here ({}): the tracees must run \
                 without address randomisation; under Docker's default seccomp profile run the tests with \
                 --security-opt seccomp=unconfined",
                std::io::Error::last_os_error()
            );
        }
        libc::personality(persona);
    }
    // A dropped page reads back as zeroes only where it is droppable.
    black_box(randp::u64());
    black_box(randp::u64());
    let mapping = randp::internals::state_mapping();
    let droppable = mapping == Some("droppable");
    if !droppable {
        println!(
            "single step: page drops NOT TESTED: the state pages are {mapping:?}, not droppable (Linux < 6.11); forks only"
        );
    }
    let zero = zero_key_words();
    let (mut passed, mut failed, mut failures) = (0, 0, Vec::new());
    // RANDP_SINGLE_STEP_PATHS=refill,reseed runs only those paths.
    let only = std::env::var("RANDP_SINGLE_STEP_PATHS").ok();
    for path in Path::ALL {
        if only.as_deref().is_some_and(|o| !o.split(',').any(|p| p == path.name())) {
            println!("single step: {}: not run (RANDP_SINGLE_STEP_PATHS={})", path.name(), only.as_deref().unwrap());
            continue;
        }
        let (ok, bad, why) = test_path(path, droppable, &zero);
        passed += ok;
        failed += bad;
        failures.extend(why);
    }
    for f in &failures {
        println!("FAIL {f}");
    }
    println!("single_step: {passed} passed, {failed} failed");
    assert!(failures.is_empty(), "single step: failed");
}
