//! Fast key erasure, tested the way an attacker who reads memory after the
//! fact would: after a refill, a direct fill or a word draw that needed a
//! refill, no half of the key that made the output, and none of its round
//! keys, is left anywhere in the thread's state or in the dead stack below
//! the caller, and no copy of what a fill handed out is left in that dead
//! stack (tests/output_registers.rs: nor in a register after the call).
//! The draw runs 32 KiB below the caller, and 160 KiB of stack
//! below the caller is read back through /proc/self/mem (on Windows with
//! ReadProcessMemory; reading it directly would be undefined behaviour). Run
//! in release and debug builds (`make test`): a debug build keeps every
//! temporary in a stack slot, which is where a key copied through Rust code
//! would show. On Windows the same scans run under wine (`make
//! test-windows`): the caller saves xmm6-xmm15 (callee-saved there) around
//! the `sysv64` kernels, which must leave no key in those saves either.

use std::hint::black_box;

mod support;

/// How far below the caller the draw runs, and how much stack is read back.
const DEPTH: usize = 32 * 1024;
const SCAN: usize = 160 * 1024;

/// Runs `f` with its frame at least `DEPTH` bytes below the caller's.
#[inline(never)]
fn at_depth(f: &mut dyn FnMut()) {
    let pad = [0u8; DEPTH];
    black_box(&pad);
    f();
    black_box(&pad);
}

/// The 16-byte values that must not be found: every round key of the old
/// schedule (the portable backend keeps only the key, round keys 0 and 1).
fn secrets(keys: &[[u8; 16]; 15]) -> Vec<[u8; 16]> {
    let n = if randp::keystream_backend() == "portable" { 2 } else { 15 };
    keys[..n].to_vec()
}

/// Reads the `SCAN` bytes of stack below `top` and the thread's state page
/// with the extension its buffer grows into, and panics naming every secret
/// found in either.
fn assert_gone(what: &str, top: usize, secrets: &[[u8; 16]]) {
    let mut stack = vec![0u8; SCAN];
    read_memory(top - SCAN, &mut stack);
    let mut state = vec![0u8; randp::internals::STATE_MAPPING_LEN];
    assert!(randp::internals::copy_thread_state(&mut state));
    let mut found = Vec::new();
    for (i, s) in secrets.iter().enumerate() {
        let on_stack = stack.windows(16).filter(|w| w == s).count();
        let in_state = state.windows(16).filter(|w| w == s).count();
        if on_stack + in_state > 0 {
            found.push(format!("round key {i}: {on_stack} on the stack, {in_state} in the state"));
        }
    }
    assert!(found.is_empty(), "{what} ({} backend): the old key survives: {found:?}", randp::keystream_backend());
}

/// Copies the process's memory at `addr` into `buf`.
#[cfg(unix)]
fn read_memory(addr: usize, buf: &mut [u8]) {
    use std::os::unix::fs::FileExt;
    let mem = std::fs::File::open("/proc/self/mem").expect("open /proc/self/mem");
    mem.read_exact_at(buf, addr as u64).expect("read the dead stack");
}

/// Copies the process's memory at `addr` into `buf`.
#[cfg(windows)]
fn read_memory(addr: usize, buf: &mut [u8]) {
    use windows_sys::Win32::System::Diagnostics::Debug::ReadProcessMemory;
    use windows_sys::Win32::System::Threading::GetCurrentProcess;
    let mut n = 0usize;
    // SAFETY: the system copies `buf.len()` bytes of this process's memory
    // into `buf`, failing (rather than faulting) on anything unreadable.
    let ok =
        unsafe { ReadProcessMemory(GetCurrentProcess(), addr as *const _, buf.as_mut_ptr().cast(), buf.len(), &mut n) };
    assert!(ok != 0 && n == buf.len(), "read the dead stack: {}", std::io::Error::last_os_error());
}

/// Windows commits a thread's stack as it grows, and ReadProcessMemory
/// cannot read what is not committed: the scanned region is committed (by
/// the compiler's stack probes for this frame) before the draws.
#[cfg(windows)]
#[inline(never)]
fn commit_scanned_stack() {
    let pad = [0u8; SCAN + DEPTH];
    black_box(&pad);
}

fn round_keys() -> Box<[[u8; 16]; 15]> {
    let mut k = Box::new([[0u8; 16]; 15]);
    assert!(randp::internals::copy_thread_round_keys(&mut k), "no userspace state");
    k
}

/// Under qemu-user, which ignores MADV_WIPEONFORK, randp keeps no userspace
/// state unless told to (`keep_state_under_emulator`, which this test does:
/// it does not fork); if it still keeps none there is no key to look for:
/// says so and returns true there.
fn skipped(what: &str) -> bool {
    #[cfg(target_os = "linux")]
    support::keep_state_under_emulator();
    support::skip_under_emulator(
        what,
        !randp::uses_userspace_generator(),
        "randp keeps no userspace state here (qemu-user ignores MADV_WIPEONFORK), so there is no key to look for",
    )
}

/// Runs `check` on a thread with a 1 MiB stack, so that the whole scanned
/// region is mapped.
fn on_big_stack(check: fn()) {
    if skipped("key erasure scan") {
        return;
    }
    std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(move || {
            #[cfg(windows)]
            commit_scanned_stack();
            check()
        })
        .unwrap()
        .join()
        .unwrap();
}

/// Repeats `draw` (at depth) until one call changed the key, then scans
/// for the key it replaced.
fn scan_after_first_refill(what: &str, top: usize, tries: usize, draw: &mut dyn FnMut()) {
    for _ in 0..tries {
        let before = round_keys();
        at_depth(draw);
        if *round_keys() != *before {
            assert_gone(what, top, &secrets(&before));
            return;
        }
    }
    panic!("{what}: no refill in {tries} calls");
}

/// Fills `out` once (at depth), which must change the key, then scans for
/// the key it replaced.
fn scan_after_fill(what: &str, top: usize, out: &mut [u8]) {
    let before = round_keys();
    at_depth(&mut || randp::fill_bytes(out));
    assert_ne!(*round_keys(), *before, "{what}: the key did not change");
    assert_gone(what, top, &secrets(&before));
}

#[test]
fn refill_by_word_draws_leaves_no_old_key() {
    on_big_stack(|| {
        let marker = 0u8;
        let top = black_box(&marker) as *const u8 as usize;
        let _ = randp::u64();
        scan_after_first_refill("a word draw that refilled", top, 10_000, &mut || {
            black_box(randp::u64());
        });
    });
}

#[test]
fn direct_fill_leaves_no_old_key() {
    on_big_stack(|| {
        let marker = 0u8;
        let top = black_box(&marker) as *const u8 as usize;
        let mut out = vec![0u8; 16 * 1024];
        randp::fill_bytes(&mut out[..1]);
        scan_after_fill("a 16 KiB direct fill", top, &mut out);
    });
}

#[test]
fn small_fill_that_refills_leaves_no_old_key() {
    on_big_stack(|| {
        let marker = 0u8;
        let top = black_box(&marker) as *const u8 as usize;
        let mut out = vec![0u8; 1000];
        randp::fill_bytes(&mut out[..1]);
        scan_after_first_refill("a 1000-byte fill that refilled", top, 100, &mut || randp::fill_bytes(&mut out));
    });
}

#[test]
fn reseed_leaves_no_old_key() {
    on_big_stack(|| {
        let marker = 0u8;
        let top = black_box(&marker) as *const u8 as usize;
        let mut out = vec![0u8; 2 << 20];
        randp::fill_bytes(&mut out[..1]);
        // Two MiB of output crosses at least one reseed.
        scan_after_fill("a 2 MiB fill with a reseed", top, &mut out);
    });
}

/// The control: a copy of the key left in a dead frame below the caller is
/// found, so the scan above can fail.
#[test]
fn scan_finds_a_key_left_on_the_stack() {
    on_big_stack(|| {
        let marker = 0u8;
        let top = black_box(&marker) as *const u8 as usize;
        randp::fill_bytes(&mut [0u8; 1]);
        let keys = round_keys();
        at_depth(&mut || {
            let copy: [u8; 16] = keys[1];
            black_box(&copy);
        });
        let result = std::panic::catch_unwind(|| assert_gone("control", top, &secrets(&keys)));
        assert!(result.is_err(), "the scan missed a key copied onto the stack");
    });
}

/// The portable backend (the `aes` crate, which expands keys on the stack)
/// passes the same scans once the stack it used is wiped: run in a child
/// process that picks it before its first draw.
#[test]
fn portable_backend_leaves_no_old_key() {
    const ROLE: &str = "RANDP_KEY_ERASURE_PORTABLE";
    if std::env::var_os(ROLE).is_some() {
        return; // the child runs portable_child only
    }
    if skipped("portable_backend_leaves_no_old_key") {
        return;
    }
    let out = support::command(std::env::current_exe().unwrap())
        .args(["--exact", "portable_child", "--test-threads=1", "--nocapture"])
        .env(ROLE, "1")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("portable child: 3 scans passed"), "{stdout}");
}

/// The child half of `portable_backend_leaves_no_old_key`: does nothing
/// unless run by it.
#[test]
fn portable_child() {
    if std::env::var_os("RANDP_KEY_ERASURE_PORTABLE").is_none() {
        return;
    }
    assert!(randp::internals::force_backend(randp::internals::Backend::Portable));
    assert_eq!(randp::keystream_backend(), "portable");
    on_big_stack(|| {
        let marker = 0u8;
        let top = black_box(&marker) as *const u8 as usize;
        let mut out = vec![0u8; 16 * 1024];
        randp::fill_bytes(&mut out[..1]);
        scan_after_fill("portable: a 16 KiB direct fill", top, &mut out);
        let before = round_keys();
        at_depth(&mut || randp::fill_bytes(&mut out[..3000]));
        at_depth(&mut || randp::fill_bytes(&mut out[..3000]));
        assert_ne!(*round_keys(), *before);
        assert_gone("portable: refills", top, &secrets(&before));
        let mut big = vec![0u8; 2 << 20];
        scan_after_fill("portable: a reseed", top, &mut big);
    });
    println!("portable child: 3 scans passed");
}

/// Every 16-byte window of `out` found in the `SCAN` bytes of dead stack
/// below `top`, as the offsets in `out` where a found window starts.
fn output_on_stack(top: usize, out: &[u8]) -> Vec<usize> {
    let mut stack = vec![0u8; SCAN];
    read_memory(top - SCAN, &mut stack);
    let windows: std::collections::HashMap<&[u8], usize> = out.windows(16).enumerate().map(|(i, w)| (w, i)).collect();
    let mut found: Vec<usize> = stack.windows(16).filter_map(|w| windows.get(w).copied()).collect();
    found.sort_unstable();
    found.dedup();
    found
}

/// Fills of every path, each repeated at depth, after which no 16-byte
/// window of what it handed out may be on the dead stack.
fn scan_fills_for_output() {
    let marker = 0u8;
    let top = black_box(&marker) as *const u8 as usize;
    let mut out = vec![0u8; 16 * 1024];
    randp::fill_bytes(&mut out[..1]);
    // Inline word moves (up to 128 bytes), the vector move, refills from a
    // fill (1000 and 3000 bytes cross the 3,328-byte buffer within a few
    // calls), and direct fills (4000 and 16 KiB).
    for len in [16, 17, 48, 100, 127, 128, 129, 200, 1000, 3000, 4000, 16 * 1024] {
        for _ in 0..8 {
            at_depth(&mut || randp::fill_bytes(&mut out[..len]));
            let found = output_on_stack(top, &out[..len]);
            assert!(
                found.is_empty(),
                "{} backend: a {len}-byte fill left its output on the stack, from offsets {found:?}",
                randp::keystream_backend()
            );
        }
    }
}

/// What a fill hands out is left nowhere but in the caller's memory (and
/// zeroed in the buffer): no copy of it on the dead stack, on every backend
/// the CPU runs, each in a child process that picks it before its first
/// draw (the backends move bytes out of the buffer with vectors of their
/// own width). A debug build moves them with string instructions, as its
/// vector moves would keep what they load in stack slots.
#[test]
fn fills_leave_no_output_on_the_stack() {
    if skipped("fills_leave_no_output_on_the_stack") {
        return;
    }
    support::on_each_backend("fills_leave_no_output_on_the_stack", || on_big_stack(scan_fills_for_output));
}

/// The control: a copy of the output left in a dead frame below the caller
/// is found, so the scan above can fail.
#[test]
fn scan_finds_output_left_on_the_stack() {
    on_big_stack(|| {
        let marker = 0u8;
        let top = black_box(&marker) as *const u8 as usize;
        let mut out = [0u8; 48];
        randp::fill_bytes(&mut out);
        at_depth(&mut || {
            let mut copy = [0u8; 48];
            copy.copy_from_slice(black_box(&out));
            black_box(&copy);
        });
        assert!(!output_on_stack(top, &out).is_empty(), "the scan missed output copied onto the stack");
    });
}
