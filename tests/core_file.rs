//! Fast key erasure in a crash dump: a child process draws (256 KiB fills and
//! word draws that refill) under an interval-timer signal storm, sends the
//! parent every key it used (copied with `copy_thread_round_keys`, with the
//! storm masked), and then calls abort(). The parent reads the core file the
//! kernel wrote and looks for every round key of every one of those keys:
//! without randp's protection, signals that land in a keystream call leave
//! them in signal frames on the stack, which a core file keeps (randp's own
//! page is left out of it). Where the machine's core_pattern does not let a
//! test write a core file (a pipe to a crash handler, a path elsewhere), the
//! test says so. Either way the child also stops itself at the same point in
//! a second run and the parent reads its memory through /proc/<pid>/mem (the
//! mappings a core file would hold). The control switches the protection off
//! and must find keys. Runs with glibc's restartable sequences and without
//! them (the blocked-signals fallback), on this CPU's keystream backend.

#![cfg(all(target_os = "linux", target_arch = "x86_64"))]

mod support;
use support::scan::{Secrets, at_depth, chain, mask_signal};

use randp::internals;
use std::collections::HashSet;
use std::hint::black_box;
use std::io::Read;
use std::os::unix::fs::FileExt;
use std::os::unix::process::ExitStatusExt;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

const ROLE: &str = "RANDP_CORE_FILE_CHILD";
/// Rounds of drawing: fills and word draws, alternately (a fill last).
const ROUNDS: usize = 41;
const FILL: usize = 256 * 1024;
const INTERVAL_US: i64 = 20;
/// A key snapshot: 15 round keys.
const SNAPSHOT: usize = 15 * 16;

// The child.

static SIGNALS: AtomicUsize = AtomicUsize::new(0);

extern "C" fn on_alarm(_: libc::c_int) {
    SIGNALS.fetch_add(1, Relaxed);
}

fn set_timer(us: i64) {
    let t = libc::timeval { tv_sec: 0, tv_usec: us };
    let it = libc::itimerval { it_interval: t, it_value: t };
    // SAFETY: a valid itimerval; the old value is not wanted.
    assert_eq!(unsafe { libc::setitimer(libc::ITIMER_REAL, &it, std::ptr::null_mut()) }, 0);
}

/// Sends this thread's round keys to the parent, then zeroes the copy
/// (volatile stores), so that the child's memory keeps no key of its own
/// making. The storm is masked.
fn send_keys() {
    let mut k = [[0u8; 16]; 15];
    assert!(internals::copy_thread_round_keys(&mut k), "no userspace state");
    support::write_all(1, k.as_flattened());
    zeroize::Zeroize::zeroize(&mut k);
}

fn child(role: &str) -> ! {
    let (end, protected) = role.split_once(',').unwrap();
    internals::set_signal_frame_protection_off(protected == "0");
    // The key chain this test follows from the key before a call to the
    // key after it is fast key erasure's alone: the mix of the kernel's
    // output at refills (tests/vm_restore.rs tests it) would break it.
    internals::set_kernel_mix_off(true);
    // SAFETY: plain system calls on this process: allow a core file of any
    // size (up to the hard limit), keep the process dumpable, and install a
    // handler that only counts.
    unsafe {
        let mut lim: libc::rlimit = std::mem::zeroed();
        assert_eq!(libc::getrlimit(libc::RLIMIT_CORE, &mut lim), 0);
        lim.rlim_cur = lim.rlim_max;
        assert_eq!(libc::setrlimit(libc::RLIMIT_CORE, &lim), 0);
        libc::prctl(libc::PR_SET_DUMPABLE, 1, 0, 0, 0);
        let mut sa: libc::sigaction = std::mem::zeroed();
        sa.sa_sigaction = on_alarm as extern "C" fn(libc::c_int) as usize;
        sa.sa_flags = libc::SA_RESTART;
        assert_eq!(libc::sigaction(libc::SIGALRM, &sa, std::ptr::null_mut()), 0);
    }
    mask_signal(libc::SIGALRM, true);
    let mut buf = vec![0u8; FILL];
    black_box(randp::u64());
    // A buffer's worth of words and more, so that every words round refills
    // (this call attaches the thread's extension where it can).
    let words = internals::thread_buffer_len().expect("a userspace state") / 8 + 100;
    send_keys();
    set_timer(INTERVAL_US);
    for round in 0..ROUNDS {
        mask_signal(libc::SIGALRM, false);
        at_depth(&mut || {
            if round % 2 == 0 {
                randp::fill_bytes(&mut buf);
            } else {
                for _ in 0..words {
                    black_box(randp::u64());
                }
            }
        });
        mask_signal(libc::SIGALRM, true);
        send_keys();
    }
    set_timer(0);
    support::write_all(1, &(SIGNALS.load(Relaxed) as u64).to_ne_bytes());
    // SAFETY: ends (or stops) this process as the test needs.
    unsafe {
        if end == "abort" {
            libc::abort();
        }
        libc::raise(libc::SIGSTOP);
        libc::_exit(0)
    }
}

// The parent.

/// Every round key of every key the child used: along the chain from each
/// snapshot's key to the next snapshot's.
fn secrets(snapshots: &[[u8; SNAPSHOT]]) -> Secrets {
    let (mut s, mut followed) = (HashSet::new(), 0);
    for pair in snapshots.windows(2) {
        let (first, last) = (pair[0][..32].try_into().unwrap(), pair[1][..32].try_into().unwrap());
        let keys = chain(first, last, 80);
        followed += usize::from(keys.len() < 80);
        for k in keys {
            s.extend(internals::round_keys_of(&k).expect("AES-NI"));
        }
    }
    // A chain that cannot be followed gives keys the child never had.
    assert!(2 * followed > snapshots.len() - 1, "only {followed} key chains followed");
    Secrets::new(s)
}

/// What one child run showed.
struct Run {
    keys: usize,
    signals: u64,
    found: usize,
    scanned: usize,
}

/// Runs a child that ends with `end` ("abort": the parent reads its core
/// file; "stop": the parent reads its memory while it is stopped).
fn run(end: &str, protected: bool, rseq: bool) -> Run {
    let dir =
        std::env::temp_dir().join(format!("randp-core-file-{}-{end}-{}", std::process::id(), u8::from(protected)));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut cmd = Command::new(std::env::current_exe().unwrap());
    cmd.env(ROLE, format!("{end},{}", u8::from(protected))).current_dir(&dir).stdout(Stdio::piped());
    if !rseq {
        cmd.env("GLIBC_TUNABLES", "glibc.pthread.rseq=0");
    }
    let mut child = cmd.spawn().unwrap();
    let pid = child.id() as libc::pid_t;
    let mut out = child.stdout.take().unwrap();
    let mut snapshots = Vec::new();
    for _ in 0..=ROUNDS {
        let mut s = [0u8; SNAPSHOT];
        out.read_exact(&mut s).expect("the child's keys");
        snapshots.push(s);
    }
    let mut n = [0u8; 8];
    out.read_exact(&mut n).expect("the child's signal count");
    let secrets = secrets(&snapshots);
    let (found, scanned) = if end == "abort" {
        let status = child.wait().unwrap();
        assert_eq!(status.signal(), Some(libc::SIGABRT), "{status}");
        assert!(status.core_dumped(), "the child's core was not dumped");
        let core = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|p| p.file_name().unwrap().to_string_lossy().starts_with("core"))
            .expect("no core file in the child's directory");
        let mem = std::fs::read(&core).unwrap();
        (secrets.count_in(&mem), mem.len())
    } else {
        let mut status = 0;
        // SAFETY: waits for our own child to stop (without reaping it).
        assert_eq!(unsafe { libc::waitpid(pid, &mut status, libc::WUNTRACED) }, pid);
        assert!(libc::WIFSTOPPED(status), "status {status:#x}");
        let r = scan_memory(pid, &secrets);
        child.kill().unwrap();
        child.wait().unwrap();
        r
    };
    std::fs::remove_dir_all(&dir).unwrap();
    Run { keys: secrets.len() / 15, signals: u64::from_ne_bytes(n), found, scanned }
}

/// Scans what a core file of `pid` would hold: every readable mapping that
/// is not marked "do not dump" (`dd`, which randp's state pages are, as
/// droppable or MADV_DONTDUMP memory). Returns what it found and how many
/// bytes it read.
fn scan_memory(pid: libc::pid_t, secrets: &Secrets) -> (usize, usize) {
    let smaps = std::fs::read_to_string(format!("/proc/{pid}/smaps")).unwrap();
    let mem = std::fs::File::open(format!("/proc/{pid}/mem")).unwrap();
    let (mut found, mut scanned) = (0, 0);
    let mut current: Option<(u64, u64, bool)> = None;
    for line in smaps.lines() {
        let first = line.split_whitespace().next().unwrap_or("");
        if let Some((lo, hi)) = first.split_once('-')
            && let (Ok(lo), Ok(hi)) = (u64::from_str_radix(lo, 16), u64::from_str_radix(hi, 16))
        {
            let perms = line.split_whitespace().nth(1).unwrap_or("");
            current = Some((lo, hi, perms.starts_with('r')));
        } else if let Some(flags) = line.strip_prefix("VmFlags:")
            && let Some((lo, hi, readable)) = current.take()
        {
            if !readable || flags.split_whitespace().any(|f| f == "dd") {
                continue;
            }
            let mut buf = vec![0u8; (hi - lo) as usize];
            if mem.read_exact_at(&mut buf, lo).is_ok() {
                found += secrets.count_in(&buf);
                scanned += buf.len();
            }
        }
    }
    (found, scanned)
}

/// Where a core file of a process goes, from core_pattern: `Ok` when it is
/// written into the process's directory, `Err` with the reason otherwise.
fn core_files_land_here() -> Result<(), String> {
    let pattern = std::fs::read_to_string("/proc/sys/kernel/core_pattern").unwrap_or_default();
    let pattern = pattern.trim();
    if pattern.starts_with('|') {
        return Err(format!("core_pattern is {pattern:?}, a pipe to a crash handler"));
    }
    if pattern.contains('/') || pattern.is_empty() {
        return Err(format!("core_pattern is {pattern:?}, outside the process's directory"));
    }
    Ok(())
}

fn main() {
    if let Ok(role) = std::env::var(ROLE) {
        child(&role);
    }
    let backend = randp::keystream_backend();
    let mut ends = vec!["stop"];
    match core_files_land_here() {
        Ok(()) => ends.insert(0, "abort"),
        Err(why) => println!(
            "core_file: NOT TESTED with a core file: {why}; the child's memory is read through /proc/<pid>/mem instead"
        ),
    }
    let mut passed = 0;
    for end in ends {
        let what = if end == "abort" { "core file" } else { "memory of the stopped child" };
        for rseq in [true, false] {
            let r = run(end, true, rseq);
            println!(
                "core_file: {what}, backend {backend}, rseq {}: {} keys used under {} signals, {} bytes scanned, {} round keys found",
                u8::from(rseq),
                r.keys,
                r.signals,
                r.scanned,
                r.found
            );
            assert!(r.signals > 0 && r.keys > ROUNDS, "the storm or the draws did not happen");
            assert_eq!(r.found, 0, "round keys of used keys in the {what}");
            passed += 1;
        }
        // The control: without the protection the same storm leaves keys in
        // the dump (a few tries: where the last signals landed is chance).
        let control = (0..5).map(|_| run(end, false, true)).find(|r| r.found > 0);
        let found = control.as_ref().map_or(0, |r| r.found);
        println!("core_file: control without the protection, {what}: {found} round keys found");
        assert!(found > 0, "the control found no key in the {what} in 5 tries: the scan cannot fail");
        passed += 1;
    }
    println!("core_file: {passed} passed, 0 failed");
}
