//! Shared by the process-level tests: re-running this test binary as a child
//! in a given role, and seccomp filters that make one system call fail; and
//! what changes under an emulator (qemu-user): how a child is started, and
//! which tests cannot apply there.
#![allow(dead_code)]

#[cfg(all(target_os = "linux", target_arch = "x86_64"))]
pub mod amx;
#[cfg(target_os = "linux")]
pub mod scan;
#[cfg(all(target_os = "linux", target_arch = "x86_64"))]
pub mod snapshot;
#[cfg(all(target_os = "linux", target_arch = "x86_64"))]
pub mod vm_clock;
#[cfg(unix)]
pub mod watchdog;

use std::ffi::OsStr;
use std::process::{Command, Output};

/// The environment variable that tells a re-run test binary which child to be.
pub const ROLE: &str = "RANDP_TEST_ROLE";

/// The environment variable naming the emulator this test binary runs under
/// (mk/aarch64.mk's and mk/musl.mk's runners set
/// `RANDP_TEST_EMULATOR=qemu-aarch64`; mk/go.mk's qemu runs set it for the Go
/// tests too).
pub const EMULATOR: &str = "RANDP_TEST_EMULATOR";

/// The user-mode emulator this test binary runs under, if any.
pub fn emulator() -> Option<String> {
    std::env::var(EMULATOR).ok().filter(|e| !e.is_empty())
}

/// A command that runs `program`, a binary built for the same target as this
/// one: directly, or under the same emulator (qemu-user cannot start another
/// foreign program by itself without binfmt_misc; the emulator, a host
/// program, can be started from inside it).
pub fn command(program: impl AsRef<OsStr>) -> Command {
    match emulator() {
        Some(e) => {
            let mut c = Command::new(e);
            c.arg(program);
            c
        }
        None => Command::new(program),
    }
}

/// Runs this test binary again with `ROLE=role` and returns what it did.
pub fn run_child(role: &str) -> Output {
    command(std::env::current_exe().expect("own path")).env(ROLE, role).output().expect("spawn child")
}

/// Runs this test binary again as child `role` and panics unless it exits
/// successfully having written exactly `ok` to its standard output.
pub fn assert_child_ok(role: &str) {
    let out = run_child(role);
    assert!(
        out.status.success() && out.stdout == b"ok",
        "{role}: child failed: {:?}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The environment variable that tells a re-run test binary which keystream
/// backend to force ([`on_each_backend`]).
pub const BACKEND: &str = "RANDP_TEST_BACKEND";

/// Runs `check` on every keystream backend this CPU runs, each in a process
/// of its own: this test binary re-run for test `test` alone with
/// [`BACKEND`] set, which forces that backend before the first draw (so the
/// test must not draw before calling this), runs `check` and says so. Panics
/// unless every child passed.
#[cfg(feature = "internals")]
pub fn on_each_backend(test: &str, check: impl FnOnce()) {
    use randp::internals::Backend;
    if let Ok(name) = std::env::var(BACKEND) {
        let backend = Backend::ALL.into_iter().find(|b| b.name() == name).expect("a backend's name");
        assert!(randp::internals::force_backend(backend), "{name} forced before the first draw");
        check();
        println!("{test} passed on {name}");
        return;
    }
    for backend in Backend::ALL.into_iter().filter(|b| b.supported()) {
        let out = command(std::env::current_exe().expect("own path"))
            .args(["--exact", test, "--test-threads=1", "--nocapture"])
            .env(BACKEND, backend.name())
            .output()
            .expect("spawn child");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
        assert!(stdout.contains(&format!("{test} passed on {}", backend.name())), "{stdout}");
    }
}

/// Under an emulator (qemu-user accepts MADV_WIPEONFORK and ignores it, so
/// randp keeps no userspace state there), lets this process keep userspace
/// states anyway, so that a test of the userspace generator that does not
/// fork runs there too; natively it does nothing. Call it before the
/// process's first draw.
#[cfg(all(feature = "internals", target_os = "linux"))]
pub fn keep_state_under_emulator() {
    if emulator().is_some() {
        randp::internals::accept_unverified_wipe_on_fork();
    }
}

/// Says on stderr that `what` is skipped here, and why, and returns true,
/// when `cannot_apply` holds under an emulator; natively it returns false
/// whatever `cannot_apply` says, so a native run never skips. The line is
/// written to descriptor 2 itself, which the test harness does not capture,
/// so it shows even though the test then reports "ok".
pub fn skip_under_emulator(what: &str, cannot_apply: bool, why: &str) -> bool {
    match emulator() {
        Some(e) if cannot_apply => {
            write_all(2, format!("SKIPPED under {e}: {what}: {why}\n").as_bytes());
            true
        }
        _ => false,
    }
}

/// Whether a seccomp filter can make getrandom(2) fail for this process: a
/// forked child denies it with EPERM and tries it. `Err` says what happened
/// instead (qemu-user 7.2 refuses the filter with EINVAL).
#[cfg(target_os = "linux")]
pub fn seccomp_applies() -> Result<(), &'static str> {
    let mut prog = failing_filter(libc::SYS_getrandom, libc::EPERM, None);
    // SAFETY: the child only installs a filter, makes one system call and
    // leaves with _exit; it neither allocates nor panics.
    let pid = unsafe { libc::fork() };
    assert!(pid >= 0, "fork");
    if pid == 0 {
        let code = match install_filter(&mut prog) {
            Err(_) => 2,
            Ok(()) => {
                let mut b = [0u8; 1];
                // SAFETY: getrandom into a 1-byte buffer; then this thread's errno.
                let denied = unsafe {
                    libc::syscall(libc::SYS_getrandom, b.as_mut_ptr(), 1usize, 0) == -1
                        && *libc::__errno_location() == libc::EPERM
                };
                if denied { 0 } else { 3 }
            }
        };
        // SAFETY: leaves the child at once.
        unsafe { libc::_exit(code) };
    }
    let mut status = 0;
    // SAFETY: reaping our own child.
    assert_eq!(unsafe { libc::waitpid(pid, &mut status, 0) }, pid);
    match (libc::WIFEXITED(status), libc::WEXITSTATUS(status)) {
        (true, 0) => Ok(()),
        (true, 2) => Err("prctl(PR_SET_SECCOMP) refuses the filter here"),
        (true, 3) => Err("a seccomp filter that denies getrandom(2) is installed but does not stop it here"),
        _ => Err("the seccomp probe's child died"),
    }
}

/// Skips `what` under an emulator where a seccomp filter cannot make
/// getrandom(2) fail (natively the test always runs, and fails there if the
/// filter does not work).
#[cfg(target_os = "linux")]
pub fn skip_without_seccomp(what: &str) -> bool {
    match emulator().map(|_| seccomp_applies()) {
        Some(Err(why)) => skip_under_emulator(what, true, why),
        _ => false,
    }
}

/// The number after the word `name` in a child's summary line
/// (`... name 12 ...`); panics, quoting the line, if there is none.
pub fn field(line: &str, name: &str) -> usize {
    let mut words = line.split_whitespace();
    words
        .find(|w| *w == name)
        .and_then(|_| words.next())
        .and_then(|w| w.parse().ok())
        .unwrap_or_else(|| panic!("{line}"))
}

/// The signal that ended `out`'s process, if one did.
#[cfg(target_os = "linux")]
pub fn signal(out: &Output) -> Option<i32> {
    std::os::unix::process::ExitStatusExt::signal(&out.status)
}

#[cfg(all(target_os = "linux", target_arch = "x86_64"))]
const AUDIT_ARCH: u32 = 0xc000_003e;
#[cfg(all(target_os = "linux", target_arch = "aarch64"))]
const AUDIT_ARCH: u32 = 0xc000_00b7;

#[cfg(target_os = "linux")]
const OFFSET_NR: u32 = 0;
#[cfg(target_os = "linux")]
const OFFSET_ARCH: u32 = 4;
/// Low 32 bits of argument `i` (little-endian) in `struct seccomp_data`.
#[cfg(target_os = "linux")]
const fn offset_arg(i: u32) -> u32 {
    16 + 8 * i
}

#[cfg(target_os = "linux")]
fn stmt(code: u32, k: u32) -> libc::sock_filter {
    libc::sock_filter { code: code as u16, jt: 0, jf: 0, k }
}

#[cfg(target_os = "linux")]
fn jump(code: u32, k: u32, jt: u8, jf: u8) -> libc::sock_filter {
    libc::sock_filter { code: code as u16, jt, jf, k }
}

/// Installs a seccomp filter under which system call `nr` fails with `errno`
/// (only when its argument `arg` equals `value`, if given); every other call
/// is allowed. Irreversible for this process.
#[cfg(target_os = "linux")]
pub fn fail_syscall(nr: libc::c_long, errno: i32, arg: Option<(u32, u32)>) {
    if let Err(e) = install_filter(&mut failing_filter(nr, errno, arg)) {
        panic!("{e}");
    }
}

/// Installs a seccomp filter under which system call `nr` (only when its
/// argument `arg` equals `value`, if given) is not run and raises SIGSYS
/// instead (SECCOMP_RET_TRAP), whose handler may set its result; every
/// other call is allowed. Irreversible for this process.
#[cfg(target_os = "linux")]
pub fn trap_syscall(nr: libc::c_long, arg: Option<(u32, u32)>) {
    if let Err(e) = install_filter(&mut filter_of(nr, libc::SECCOMP_RET_TRAP, arg)) {
        panic!("{e}");
    }
}

/// The filter program of [`fail_syscall`].
#[cfg(target_os = "linux")]
fn failing_filter(nr: libc::c_long, errno: i32, arg: Option<(u32, u32)>) -> Vec<libc::sock_filter> {
    filter_of(nr, libc::SECCOMP_RET_ERRNO | (errno as u32 & libc::SECCOMP_RET_DATA), arg)
}

/// A filter program that returns `action` for system call `nr` (when its
/// argument `arg` equals `value`, if given) and allows every other call.
#[cfg(target_os = "linux")]
fn filter_of(nr: libc::c_long, action: u32, arg: Option<(u32, u32)>) -> Vec<libc::sock_filter> {
    let ld = libc::BPF_LD | libc::BPF_W | libc::BPF_ABS;
    let jeq = libc::BPF_JMP | libc::BPF_JEQ | libc::BPF_K;
    let ret = libc::BPF_RET | libc::BPF_K;
    let allow = libc::SECCOMP_RET_ALLOW;
    let mut prog = vec![stmt(ld, OFFSET_ARCH), jump(jeq, AUDIT_ARCH, 1, 0), stmt(ret, allow), stmt(ld, OFFSET_NR)];
    match arg {
        None => prog.push(jump(jeq, nr as u32, 0, 1)),
        Some((i, value)) => {
            prog.push(jump(jeq, nr as u32, 0, 3));
            prog.push(stmt(ld, offset_arg(i)));
            prog.push(jump(jeq, value, 0, 1));
        }
    }
    prog.push(stmt(ret, action));
    prog.push(stmt(ret, allow));
    prog
}

/// Installs a seccomp filter under which madvise(2) with advice `advice`
/// returns 0 without running when its address is page-aligned (as every call
/// the kernel would accept is), and runs as usual otherwise: a filter that
/// only a kernel's own account of the mapping can tell from the real thing.
/// Irreversible for this process.
#[cfg(target_os = "linux")]
pub fn fake_aligned_advice(advice: i32) {
    let ld = libc::BPF_LD | libc::BPF_W | libc::BPF_ABS;
    let jeq = libc::BPF_JMP | libc::BPF_JEQ | libc::BPF_K;
    let jset = libc::BPF_JMP | libc::BPF_JSET | libc::BPF_K;
    let ret = libc::BPF_RET | libc::BPF_K;
    let mut prog = vec![
        stmt(ld, OFFSET_ARCH),
        jump(jeq, AUDIT_ARCH, 0, 7),
        stmt(ld, OFFSET_NR),
        jump(jeq, libc::SYS_madvise as u32, 0, 5),
        stmt(ld, offset_arg(2)),
        jump(jeq, advice as u32, 0, 3),
        stmt(ld, offset_arg(0)),
        jump(jset, 0xfff, 1, 0),
        stmt(ret, libc::SECCOMP_RET_ERRNO), // errno 0: success, nothing done
        stmt(ret, libc::SECCOMP_RET_ALLOW),
    ];
    if let Err(e) = install_filter(&mut prog) {
        panic!("{e}");
    }
}

/// Installs `prog`, or says which step failed (allocates nothing on
/// success: safe in a forked child).
#[cfg(target_os = "linux")]
fn install_filter(prog: &mut [libc::sock_filter]) -> Result<(), &'static str> {
    let fprog = libc::sock_fprog { len: prog.len() as u16, filter: prog.as_mut_ptr() };
    // SAFETY: `fprog` points at a well-formed filter that outlives the calls;
    // NO_NEW_PRIVS lets an unprivileged process install it.
    unsafe {
        if libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 {
            return Err("prctl(PR_SET_NO_NEW_PRIVS) failed");
        }
        if libc::prctl(libc::PR_SET_SECCOMP, libc::SECCOMP_MODE_FILTER, &fprog as *const _) != 0 {
            return Err("prctl(PR_SET_SECCOMP) refused the filter");
        }
    }
    Ok(())
}

/// Writes all of `bytes` to file descriptor `fd` with write(2), without
/// allocating (safe in a forked child).
pub fn write_all(fd: i32, mut bytes: &[u8]) {
    while !bytes.is_empty() {
        // SAFETY: `bytes` is valid for its length.
        let n = unsafe { libc::write(fd, bytes.as_ptr().cast(), bytes.len() as _) };
        assert!(n > 0, "write failed");
        bytes = &bytes[n as usize..];
    }
}

/// Panics if any 16-byte block occurs twice among `blocks`, or is all zero.
pub fn assert_unique(mut blocks: Vec<[u8; 16]>, what: &str) {
    assert!(!blocks.is_empty());
    let n = blocks.len();
    assert!(blocks.iter().all(|b| *b != [0; 16]), "{what}: an all-zero block was output");
    blocks.sort_unstable();
    blocks.dedup();
    assert_eq!(blocks.len(), n, "{what}: {} repeated 16-byte blocks", n - blocks.len());
}

/// Splits `bytes` into whole 16-byte blocks.
pub fn blocks(bytes: &[u8]) -> Vec<[u8; 16]> {
    bytes.chunks_exact(16).map(|c| c.try_into().unwrap()).collect()
}
