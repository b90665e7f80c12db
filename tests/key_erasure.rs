//! Fast key erasure, tested the way an attacker who reads memory after the
//! fact would: after a refill, a direct fill or a word draw that needed a
//! refill, no half of the key that made the output, and none of its round
//! keys, is left anywhere in the thread's state or in the dead stack below
//! the caller, and no copy of what a fill handed out is left in that dead
//! stack (tests/output_registers.rs: nor in a register after the call).
//! The draw runs 32 KiB below the caller, and 160 KiB of stack
//! below the caller is read back through /proc/self/mem (on Windows with
//! ReadProcessMemory; reading it directly would be undefined behaviour).
//!
//! What runs where: every scan for the old key or for output, and the
//! control of the key scan, runs on every keystream backend the CPU runs
//! (on x86_64 with VAES-512: vaes512, vaes256, aesni and portable; on
//! aarch64: portable), each backend in a process of its own: this test
//! binary re-run for that test alone, with the backend forced before its
//! first draw (`support::on_each_backend`; the test draws nothing before
//! it). In that process each old-key scan runs twice where randp mixes the
//! kernel's output into the key at refills (the vDSO's getrandom): as
//! shipped (a refill then puts the key the scan looks for through the mix,
//! and its keystream kernel reads the mixed key, which the test never
//! sees), then with the mix switched off (the keystream kernel reads that
//! key). The control of the output scan runs once, in the test process, on
//! the default backend.
//! All of it runs in release and debug builds (`make test`): a debug build
//! keeps every temporary in a stack slot, which is where a key copied
//! through Rust code would show. On Windows the same scans run under wine
//! (`make test-windows`): the caller saves xmm6-xmm15 (callee-saved there)
//! around the `sysv64` kernels, which must leave no key in those saves
//! either. Under qemu-user (aarch64) only the portable backend runs.

use std::hint::black_box;
use std::sync::atomic::AtomicBool;
use std::sync::atomic::Ordering::Relaxed;

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
/// schedule. The portable backend keeps only the key, round keys 0 and 1:
/// the `aes` crate it calls expands the rest on the stack at every call,
/// and those are not looked for.
fn secrets(keys: &[[u8; 16]; 15]) -> Vec<[u8; 16]> {
    let n = if randp::keystream_backend() == "portable" { 2 } else { 15 };
    keys[..n].to_vec()
}

/// Reads the `SCAN` bytes of stack below `top` and the thread's state page
/// with the extension its buffer grows into, and counts, for each secret in
/// turn, the 16-byte windows (at every offset) equal to it: (on the stack,
/// in the state).
fn count_secrets(top: usize, secrets: &[[u8; 16]]) -> Vec<(usize, usize)> {
    let mut stack = vec![0u8; SCAN];
    read_memory(top - SCAN, &mut stack);
    let mut state = vec![0u8; randp::internals::STATE_MAPPING_LEN];
    assert!(randp::internals::copy_thread_state(&mut state));
    // One pass over each region, comparing in full only the windows whose
    // first two bytes begin a secret: a pass per secret took a debug build
    // a tenth of a second per scan, and each old-key test scans twice on
    // every backend.
    let prefix = |w: &[u8]| usize::from(u16::from_le_bytes([w[0], w[1]]));
    let mut starts = vec![false; 1 << 16];
    for s in secrets {
        starts[prefix(s)] = true;
    }
    let count = |mem: &[u8]| {
        let mut n = vec![0; secrets.len()];
        for w in mem.windows(16).filter(|w| starts[prefix(w)]) {
            for (i, s) in secrets.iter().enumerate() {
                n[i] += usize::from(w == s);
            }
        }
        n
    };
    count(&stack).into_iter().zip(count(&state)).collect()
}

/// Panics naming every secret found on the `SCAN` bytes of stack below
/// `top` or in the thread's state ([`count_secrets`]).
fn assert_gone(what: &str, top: usize, secrets: &[[u8; 16]]) {
    let found: Vec<String> = count_secrets(top, secrets)
        .into_iter()
        .enumerate()
        .filter(|&(_, (on_stack, in_state))| on_stack + in_state > 0)
        .map(|(i, (on_stack, in_state))| format!("round key {i}: {on_stack} on the stack, {in_state} in the state"))
        .collect();
    assert!(
        found.is_empty(),
        "{what} ({} backend, {}): the old key survives: {found:?}",
        randp::keystream_backend(),
        mix()
    );
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
fn on_big_stack(check: impl FnOnce() + Send + 'static) {
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

/// Runs `check` as [`on_big_stack`] does on every keystream backend this CPU
/// runs, each in a process of its own (`support::on_each_backend`: this
/// test binary re-run for test `test` alone with the backend forced before
/// its first draw); the calling test must not draw before. The parent says
/// which backends passed.
fn on_each_backend(test: &str, check: impl FnOnce() + Send + 'static) {
    if skipped(test) {
        return;
    }
    support::on_each_backend(test, || on_big_stack(check));
    if std::env::var_os(support::BACKEND).is_none() {
        let ran: Vec<_> =
            randp::internals::Backend::ALL.into_iter().filter(|b| b.supported()).map(|b| b.name()).collect();
        println!("{test}: passed on {}", ran.join(", "));
    }
}

/// Runs old-key scan `scan` on every backend ([`on_each_backend`]), in each
/// with the kernel mix and without it ([`with_and_without_mix`]).
fn old_key_scan(test: &str, scan: fn()) {
    on_each_backend(test, move || with_and_without_mix(scan));
}

/// Whether this test switched the kernel mix off ([`with_and_without_mix`]).
static MIX_OFF: AtomicBool = AtomicBool::new(false);

/// Which of [`with_and_without_mix`]'s runs this is, for a failure's message.
fn mix() -> &'static str {
    match (randp::internals::kernel_mix_available(), MIX_OFF.load(Relaxed)) {
        (false, _) => "no kernel mix here",
        (true, false) => "kernel mix on",
        (true, true) => "kernel mix switched off",
    }
}

/// Runs `scan` twice where this process mixes the kernel's output (the
/// vDSO's getrandom) into the key before refills and long direct fills
/// (`internals::kernel_mix_available`): as shipped, then with the mix
/// switched off; once where it has no mix. With the mix, the key a refill's
/// keystream kernel reads is the old key XORed with bytes the test never
/// sees, so only the mix's own expansion reads the key the scan looks for;
/// without it, the keystream kernel reads that key.
fn with_and_without_mix(scan: fn()) {
    scan();
    if randp::internals::kernel_mix_available() {
        MIX_OFF.store(true, Relaxed);
        randp::internals::set_kernel_mix_off(true);
        scan();
    }
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

/// Word draws until one refilled; then the key it replaced is gone.
#[test]
fn refill_by_word_draws_leaves_no_old_key() {
    old_key_scan("refill_by_word_draws_leaves_no_old_key", || {
        let marker = 0u8;
        let top = black_box(&marker) as *const u8 as usize;
        let _ = randp::u64();
        scan_after_first_refill("a word draw that refilled", top, 10_000, &mut || {
            black_box(randp::u64());
        });
    });
}

/// A fill written directly into the caller's buffer; then the key that
/// wrote it is gone.
#[test]
fn direct_fill_leaves_no_old_key() {
    old_key_scan("direct_fill_leaves_no_old_key", || {
        let marker = 0u8;
        let top = black_box(&marker) as *const u8 as usize;
        let mut out = vec![0u8; 16 * 1024];
        randp::fill_bytes(&mut out[..1]);
        scan_after_fill("a 16 KiB direct fill", top, &mut out);
    });
}

/// Fills from the buffer until one refilled; then the key it replaced is
/// gone.
#[test]
fn small_fill_that_refills_leaves_no_old_key() {
    old_key_scan("small_fill_that_refills_leaves_no_old_key", || {
        let marker = 0u8;
        let top = black_box(&marker) as *const u8 as usize;
        let mut out = vec![0u8; 1000];
        randp::fill_bytes(&mut out[..1]);
        scan_after_first_refill("a 1000-byte fill that refilled", top, 100, &mut || randp::fill_bytes(&mut out));
    });
}

/// A fill long enough to reseed; then the key from before it is gone.
#[test]
fn reseed_leaves_no_old_key() {
    old_key_scan("reseed_leaves_no_old_key", || {
        let marker = 0u8;
        let top = black_box(&marker) as *const u8 as usize;
        let mut out = vec![0u8; 2 << 20];
        randp::fill_bytes(&mut out[..1]);
        // Two MiB of output crosses at least one reseed.
        scan_after_fill("a 2 MiB fill with a reseed", top, &mut out);
    });
}

/// The control, on every backend: copies of every secret of the current
/// key ([`secrets`]) left in a dead frame below the caller are each found
/// on the stack, and each is found in the state (which holds the current
/// key), so the scans above can fail in either place. The current key is
/// searched for here, not an old one: the state always holds it, so only
/// the stack's count shows the copy.
#[test]
fn scan_finds_a_key_left_on_the_stack() {
    on_each_backend("scan_finds_a_key_left_on_the_stack", || {
        let marker = 0u8;
        let top = black_box(&marker) as *const u8 as usize;
        randp::fill_bytes(&mut [0u8; 1]);
        let secrets = secrets(&round_keys());
        at_depth(&mut || {
            let mut copy = [[0u8; 16]; 15];
            copy[..secrets.len()].copy_from_slice(&secrets);
            black_box(&copy);
        });
        let counts = count_secrets(top, &secrets);
        let backend = randp::keystream_backend();
        for (i, &(on_stack, in_state)) in counts.iter().enumerate() {
            assert!(on_stack > 0, "{backend} backend: the scan missed round key {i} copied onto the stack: {counts:?}");
            assert!(in_state > 0, "{backend} backend: the scan missed round key {i} in the state: {counts:?}");
        }
    });
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
    on_each_backend("fills_leave_no_output_on_the_stack", scan_fills_for_output);
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
