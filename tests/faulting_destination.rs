//! Fills into memory whose writes fault, as a program's own memory can: a
//! page kept read-only until its first write, which a SIGSEGV handler then
//! makes writable before it returns (how programs track the pages they
//! write, map memory lazily, or let a collector watch a heap). memcpy into
//! such memory works, and so must a fill: each page's first write faults
//! once, the program's handler runs, and the fill completes with the
//! keystream it would have written anyway.
//!
//! That breaks where a keystream call runs with signals blocked (no rseq
//! area: musl, older glibc, `glibc.pthread.rseq=0`; the portable backend):
//! a fault that the kernel cannot deliver because the signal is blocked
//! kills the process. So those calls first write every page they will write
//! (`signal_frames::touch_pages`), where the handler runs as usual. With
//! rseq the fault lands inside the call, whose restartable sequence is
//! aborted, wiped and resumed. Where the thread has no userspace state and
//! a fill is getrandom(2) straight into the caller's memory, the kernel
//! would return EFAULT instead of faulting, which randp treats as an
//! entropy failure and aborts on: those pages are written first too.
//!
//! After each fill, the test also reads the thread's dead stack, where the
//! handler's signal frames were, for every round key of every key the fill
//! used: the handler's frames must hold none. The control switches the
//! protection off: the faults then land inside the keystream calls, and
//! their frames hold the keys.

#![cfg(target_os = "linux")]

use randp::internals::{self, Backend};
use std::collections::HashSet;
use std::fs::File;
use std::hint::black_box;
use std::os::unix::fs::FileExt;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

mod support;
use support::field;
use support::scan::{DEPTH, Secrets, at_depth, chain};

/// The child's role: `backend,mode`.
const ROLE: &str = "RANDP_FAULTING_DESTINATION_CHILD";

/// How each child runs its keystream calls.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Mode {
    /// As the process comes: rseq where glibc registers it.
    Default,
    /// No rseq area (`glibc.pthread.rseq=0`): signals blocked around calls.
    NoRseq,
    /// No userspace state (madvise faked by seccomp): getrandom(2).
    Os,
    /// The control: the protection off.
    Off,
}

impl Mode {
    const ALL: [Mode; 4] = [Mode::Default, Mode::NoRseq, Mode::Os, Mode::Off];

    fn name(self) -> &'static str {
        match self {
            Mode::Default => "default",
            Mode::NoRseq => "no-rseq",
            Mode::Os => "os",
            Mode::Off => "off",
        }
    }
}

/// Pages per fill, and fills per child.
const PAGES: usize = 16;
const ROUNDS: usize = 8;
/// How much dead stack is read back below the fill's caller: from where
/// `at_depth` runs the fill ([`DEPTH`] below the caller, so that the test's
/// own frames, which hold its copies of the keys, are not read) down.
const SCAN: usize = 160 * 1024;

fn page_size() -> usize {
    // SAFETY: sysconf has no preconditions.
    unsafe { libc::sysconf(libc::_SC_PAGESIZE) as usize }
}

/// Runs the child for `backend` in `mode`; returns its summary line.
fn run_child(backend: Backend, mode: Mode) -> String {
    let mut cmd = support::command(std::env::current_exe().unwrap());
    cmd.args(["--exact", "child", "--test-threads=1", "--nocapture"]);
    cmd.env(ROLE, format!("{},{}", backend.name(), mode.name()));
    if mode == Mode::NoRseq {
        cmd.env("GLIBC_TUNABLES", "glibc.pthread.rseq=0");
    }
    let out = cmd.output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{} in mode {}: the child {}, where a handled fault must let the fill complete\n{stdout}\n{}",
        backend.name(),
        mode.name(),
        match support::signal(&out) {
            Some(s) => format!("was killed by signal {s}"),
            None => format!("failed ({})", out.status),
        },
        String::from_utf8_lossy(&out.stderr)
    );
    let at = stdout.find("faulting destination:").unwrap_or_else(|| panic!("{stdout}"));
    let line = stdout[at..].lines().next().unwrap().to_owned();
    eprintln!("{line}");
    line
}

fn backends() -> Vec<Backend> {
    Backend::ALL.into_iter().filter(|b| b.supported()).collect()
}

#[test]
fn a_fill_into_memory_that_faults_completes_with_the_handler_run_and_leaves_no_key() {
    if std::env::var_os(ROLE).is_some() {
        return;
    }
    for b in backends() {
        for mode in [Mode::Default, Mode::NoRseq, Mode::Os] {
            if mode == Mode::Os
                && support::skip_under_emulator(
                    "the fill without userspace state",
                    true,
                    "qemu-user refuses seccomp filters",
                )
            {
                continue;
            }
            let line = run_child(b, mode);
            assert_eq!(field(&line, "faults"), PAGES * ROUNDS, "every page must fault once, in the handler: {line}");
            assert_eq!(field(&line, "leaks"), 0, "{line}");
            // A fill whose key chain cannot be followed looks for keys the
            // call never had (where there is a userspace state to have any).
            let keyless = line.contains("protection none");
            assert!(keyless || 2 * field(&line, "followed") > ROUNDS, "key chains not followed: {line}");
            // Under qemu-user the child keeps a userspace state although
            // the kernel's wipe on fork cannot be verified
            // (`keep_state_under_emulator`): the portable backend's calls,
            // with signals blocked.
            let expected = match mode {
                Mode::Os => "none",
                _ if b == Backend::Portable || mode == Mode::NoRseq || !cfg!(target_env = "gnu") => "blocked-signals",
                _ => "rseq",
            };
            assert!(line.contains(&format!("protection {expected} ")), "{line}");
        }
    }
}

/// The control: with the protection off the faults land inside the
/// keystream calls, and the handler's frames hold the keys, so the scan
/// above can fail. On the x86_64 kernels, which keep every round key in
/// registers while they write.
#[test]
fn control_without_the_protection_the_handlers_frames_hold_keys() {
    if std::env::var_os(ROLE).is_some() {
        return;
    }
    let kernels: Vec<Backend> = backends().into_iter().filter(|b| *b != Backend::Portable).collect();
    if support::skip_under_emulator("the control", kernels.is_empty(), "only the portable backend runs here") {
        return;
    }
    for b in kernels {
        let line = run_child(b, Mode::Off);
        assert_eq!(field(&line, "faults"), PAGES * ROUNDS, "{line}");
        assert!(field(&line, "leaks") > 0, "the scan found no key in the handler's frames: {line}");
    }
}

/// Faults taken by the handler.
static FAULTS: AtomicUsize = AtomicUsize::new(0);

/// The handler: makes the page of the faulting address writable, counts the
/// fault and returns, so that the write is made again and succeeds.
extern "C" fn on_fault(_: libc::c_int, info: *mut libc::siginfo_t, _: *mut libc::c_void) {
    let page = page_size();
    // SAFETY: the kernel passes a valid siginfo for SIGSEGV; mprotect is
    // async-signal-safe and changes a page of the test's own mapping.
    unsafe {
        let addr = (*info).si_addr() as usize & !(page - 1);
        if libc::mprotect(addr as *mut libc::c_void, page, libc::PROT_READ | libc::PROT_WRITE) != 0 {
            libc::abort();
        }
    }
    FAULTS.fetch_add(1, Relaxed);
}

fn key_of(rk: &[[u8; 16]; 15]) -> [u8; 32] {
    let mut k = [0u8; 32];
    k[..16].copy_from_slice(&rk[0]);
    k[16..].copy_from_slice(&rk[1]);
    k
}

/// The thread's current key, if it has a userspace state. The copy passes
/// through this test's own vector registers, which are zeroed after it: a
/// fault taken before the next keystream call (in `prefault`) would
/// otherwise save them in its signal frame, and the scan would find the
/// test's copy.
fn current_key() -> Option<[u8; 32]> {
    let mut rk = [[0u8; 16]; 15];
    let key = internals::copy_thread_round_keys(&mut rk).then(|| key_of(&rk));
    rk = [[0u8; 16]; 15];
    black_box(&mut rk);
    zero_vector_registers();
    key
}

/// Zeroes the vector registers that compiled Rust code uses.
#[inline(never)]
fn zero_vector_registers() {
    // SAFETY: only zeroes registers, each declared clobbered.
    #[cfg(target_arch = "x86_64")]
    unsafe {
        core::arch::asm!(
            "xorps xmm0, xmm0", "xorps xmm1, xmm1", "xorps xmm2, xmm2", "xorps xmm3, xmm3",
            "xorps xmm4, xmm4", "xorps xmm5, xmm5", "xorps xmm6, xmm6", "xorps xmm7, xmm7",
            "xorps xmm8, xmm8", "xorps xmm9, xmm9", "xorps xmm10, xmm10", "xorps xmm11, xmm11",
            "xorps xmm12, xmm12", "xorps xmm13, xmm13", "xorps xmm14, xmm14", "xorps xmm15, xmm15",
            out("xmm0") _, out("xmm1") _, out("xmm2") _, out("xmm3") _,
            out("xmm4") _, out("xmm5") _, out("xmm6") _, out("xmm7") _,
            out("xmm8") _, out("xmm9") _, out("xmm10") _, out("xmm11") _,
            out("xmm12") _, out("xmm13") _, out("xmm14") _, out("xmm15") _,
            options(nostack, nomem, preserves_flags),
        )
    };
    // SAFETY: only zeroes registers, each declared clobbered.
    #[cfg(target_arch = "aarch64")]
    unsafe {
        core::arch::asm!(
            "movi v0.16b, #0", "movi v1.16b, #0", "movi v2.16b, #0", "movi v3.16b, #0",
            "movi v4.16b, #0", "movi v5.16b, #0", "movi v6.16b, #0", "movi v7.16b, #0",
            "movi v16.16b, #0", "movi v17.16b, #0", "movi v18.16b, #0", "movi v19.16b, #0",
            "movi v20.16b, #0", "movi v21.16b, #0", "movi v22.16b, #0", "movi v23.16b, #0",
            out("v0") _, out("v1") _, out("v2") _, out("v3") _,
            out("v4") _, out("v5") _, out("v6") _, out("v7") _,
            out("v16") _, out("v17") _, out("v18") _, out("v19") _,
            out("v20") _, out("v21") _, out("v22") _, out("v23") _,
            options(nostack, nomem, preserves_flags),
        )
    };
}

/// Every round key of `keys` (the portable backend's expansion is the
/// standard one, the x86_64 kernels' too; computed with AES-NI where the CPU
/// has it, else with the `aes` crate's key schedule through the first two
/// round keys only).
fn secrets(keys: &[[u8; 32]]) -> HashSet<[u8; 16]> {
    let mut s = HashSet::new();
    for key in keys {
        match internals::round_keys_of(key) {
            Some(rk) => s.extend(rk),
            None => {
                s.insert(key[..16].try_into().unwrap());
                s.insert(key[16..].try_into().unwrap());
            }
        }
    }
    s
}

#[test]
fn child() {
    let Ok(role) = std::env::var(ROLE) else { return };
    let (backend, mode) = role.split_once(',').unwrap();
    let backend = Backend::ALL.into_iter().find(|b| b.name() == backend).unwrap();
    let mode = Mode::ALL.into_iter().find(|m| m.name() == mode).unwrap();
    assert!(internals::force_backend(backend));
    internals::set_signal_frame_protection_off(mode == Mode::Off);
    // The key chain this test follows from the key before a call to the
    // key after it is fast key erasure's alone: the mix of the kernel's
    // output at refills (tests/vm_restore.rs tests it) would break it.
    internals::set_kernel_mix_off(true);
    if mode == Mode::Os {
        // madvise "succeeds" without running, so randp's check that the
        // kernel refuses an invalid advice fails: no userspace state.
        support::fail_syscall(libc::SYS_madvise, 0, None);
    } else {
        support::keep_state_under_emulator();
    }
    // SAFETY: installs a handler that calls only mprotect and an atomic.
    unsafe {
        let mut sa: libc::sigaction = std::mem::zeroed();
        sa.sa_sigaction = on_fault as extern "C" fn(libc::c_int, *mut libc::siginfo_t, *mut libc::c_void) as usize;
        sa.sa_flags = libc::SA_SIGINFO;
        assert_eq!(libc::sigaction(libc::SIGSEGV, &sa, std::ptr::null_mut()), 0);
    }
    let marker = 0u8;
    let top = black_box(&marker) as *const u8 as usize;
    let mut first = [0u8; 1];
    randp::fill_bytes(&mut first);
    let protection =
        if current_key().is_some() { internals::signal_frame_protection().replace(' ', "-") } else { "none".into() };

    let len = PAGES * page_size();
    let mem_file = File::open("/proc/self/mem").unwrap();
    let mut stack = vec![0u8; SCAN - DEPTH];
    let (mut leaks, mut outputs, mut followed) = (0, HashSet::new(), 0);
    for _ in 0..ROUNDS {
        // SAFETY: a fresh private anonymous mapping, read-only until the
        // handler opens each page, unmapped below.
        let mem = unsafe {
            libc::mmap(std::ptr::null_mut(), len, libc::PROT_READ, libc::MAP_PRIVATE | libc::MAP_ANONYMOUS, -1, 0)
        };
        assert_ne!(mem, libc::MAP_FAILED);
        let before = current_key();
        at_depth(&mut || {
            // SAFETY: `len` bytes of the mapping above, which the handler
            // makes writable page by page.
            randp::fill_bytes(unsafe { std::slice::from_raw_parts_mut(mem.cast::<u8>(), len) })
        });
        let after = current_key();
        // SAFETY: the mapping's `len` bytes, all writable now.
        let out = unsafe { std::slice::from_raw_parts(mem.cast::<u8>(), len) };
        for (i, page) in out.chunks(page_size()).enumerate() {
            assert!(page.iter().any(|&b| b != 0), "page {i} of the fill is zero");
        }
        for block in out.chunks(16) {
            assert!(outputs.insert(<[u8; 16]>::try_from(block).unwrap()), "a 16-byte block of output repeats");
        }
        if let (Some(before), Some(after)) = (before, after) {
            let keys = chain(before, after, 64);
            followed += usize::from(keys.len() < 64);
            let s = Secrets::new(secrets(&keys));
            mem_file.read_exact_at(&mut stack, (top - SCAN) as u64).unwrap();
            leaks += s.count_in(&stack);
        }
        // SAFETY: the mapping made above, no longer used.
        unsafe { libc::munmap(mem, len) };
    }
    println!(
        "faulting destination: backend {} mode {} protection {protection} faults {} leaks {leaks} followed {followed} fills {ROUNDS} pages {PAGES}",
        backend.name(),
        mode.name(),
        FAULTS.load(Relaxed),
    );
}
