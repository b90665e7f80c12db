//! Shared by the process-level tests: re-running this test binary as a child
//! in a given role, and seccomp filters that make one system call fail.
#![allow(dead_code)]

pub mod scan;

use std::process::{Command, Output};

/// The environment variable that tells a re-run test binary which child to be.
pub const ROLE: &str = "RANDP_TEST_ROLE";

/// Runs this test binary again with `ROLE=role` and returns what it did.
pub fn run_child(role: &str) -> Output {
    Command::new(std::env::current_exe().expect("own path")).env(ROLE, role).output().expect("spawn child")
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
    let ld = libc::BPF_LD | libc::BPF_W | libc::BPF_ABS;
    let jeq = libc::BPF_JMP | libc::BPF_JEQ | libc::BPF_K;
    let ret = libc::BPF_RET | libc::BPF_K;
    let allow = libc::SECCOMP_RET_ALLOW;
    let fail = libc::SECCOMP_RET_ERRNO | (errno as u32 & libc::SECCOMP_RET_DATA);
    let mut prog = vec![stmt(ld, OFFSET_ARCH), jump(jeq, AUDIT_ARCH, 1, 0), stmt(ret, allow), stmt(ld, OFFSET_NR)];
    match arg {
        None => prog.push(jump(jeq, nr as u32, 0, 1)),
        Some((i, value)) => {
            prog.push(jump(jeq, nr as u32, 0, 3));
            prog.push(stmt(ld, offset_arg(i)));
            prog.push(jump(jeq, value, 0, 1));
        }
    }
    prog.push(stmt(ret, fail));
    prog.push(stmt(ret, allow));
    let fprog = libc::sock_fprog { len: prog.len() as u16, filter: prog.as_mut_ptr() };
    // SAFETY: `fprog` points at a well-formed filter that outlives the calls;
    // NO_NEW_PRIVS lets an unprivileged process install it.
    unsafe {
        assert_eq!(libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), 0, "no_new_privs");
        assert_eq!(
            libc::prctl(libc::PR_SET_SECCOMP, libc::SECCOMP_MODE_FILTER, &fprog as *const _),
            0,
            "seccomp: {}",
            std::io::Error::last_os_error()
        );
    }
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
