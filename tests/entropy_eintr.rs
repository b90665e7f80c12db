//! getrandom(2) interrupted is asked again, never taken for a failure: the
//! README says any error but EINTR aborts, and a signal that interrupts a
//! blocking getrandom (the first draw of a process, before the kernel's pool
//! is initialised) returns EINTR.
//!
//! A child traps every getrandom call with flags 0, randp's (seccomp
//! SECCOMP_RET_TRAP), and its SIGSYS handler answers the first `EINTRS` of
//! them with EINTR and the rest by making the call itself with a flag (which
//! the filter lets through; the pool is long initialised). The child's first
//! draw, its reseed (2 MiB of output) and another thread's first draw must
//! complete, after exactly `EINTRS` interruptions and with output. A
//! randp that gave up on EINTR aborts at the first.

#![cfg(all(target_os = "linux", target_arch = "x86_64"))]

use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

mod support;
use support::{ROLE, field, run_child, skip_without_seccomp, trap_syscall, write_all};

/// How many trapped calls are answered with EINTR.
const EINTRS: usize = 5;
/// GRND_NONBLOCK: the flag of the handler's own call.
const GRND_NONBLOCK: libc::c_long = 1;

static TRAPPED: AtomicUsize = AtomicUsize::new(0);

/// The SIGSYS handler: the trapped call's arguments are in the interrupted
/// context's registers (rdi, rsi, rdx), its result goes in rax.
extern "C" fn on_sigsys(_: libc::c_int, _: *mut libc::siginfo_t, ctx: *mut libc::c_void) {
    // SAFETY: the kernel passes the interrupted context; the handler's own
    // getrandom writes the trapped call's buffer, which its caller gave.
    unsafe {
        let regs = &mut (*ctx.cast::<libc::ucontext_t>()).uc_mcontext.gregs;
        let result = if TRAPPED.fetch_add(1, Relaxed) < EINTRS {
            -libc::EINTR as libc::c_long
        } else {
            let (buf, len) = (regs[libc::REG_RDI as usize], regs[libc::REG_RSI as usize]);
            let n = libc::syscall(libc::SYS_getrandom, buf, len, GRND_NONBLOCK);
            if n < 0 { -(*libc::__errno_location()) as libc::c_long } else { n }
        };
        regs[libc::REG_RAX as usize] = result as libc::greg_t;
    }
}

fn child() {
    // SAFETY: installs a handler that only reads and writes its context,
    // an atomic and the trapped call's buffer.
    unsafe {
        let mut sa: libc::sigaction = std::mem::zeroed();
        sa.sa_sigaction = on_sigsys as extern "C" fn(libc::c_int, *mut libc::siginfo_t, *mut libc::c_void) as usize;
        sa.sa_flags = libc::SA_SIGINFO;
        assert_eq!(libc::sigaction(libc::SIGSYS, &sa, std::ptr::null_mut()), 0);
    }
    trap_syscall(libc::SYS_getrandom, Some((2, 0)));
    let mut big = vec![0u8; 2 << 20];
    randp::fill_bytes(&mut big);
    let word = std::thread::spawn(randp::u64).join().unwrap();
    let drew = big.iter().any(|&b| b != 0) && word != 0;
    // Straight to descriptor 1: the harness captures the test's stdout.
    write_all(1, format!("\neintr: trapped {} drew {}\n", TRAPPED.load(Relaxed), u8::from(drew)).as_bytes());
    std::process::exit(0);
}

#[test]
fn getrandom_interrupted_is_asked_again() {
    if std::env::var_os(ROLE).is_some() {
        return child();
    }
    if skip_without_seccomp("getrandom_interrupted_is_asked_again") {
        return;
    }
    let out = run_child("eintr");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "status {:?}: randp gave up on EINTR; stderr {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    let line = stdout.lines().find(|l| l.starts_with("eintr:")).unwrap_or_else(|| panic!("{stdout}"));
    // The EINTRs, then the first seed, the reseed and the thread's seed.
    assert!(field(line, "trapped") >= EINTRS + 3, "randp's calls were not trapped: {line}");
    assert_eq!(field(line, "drew"), 1, "{line}");
}
