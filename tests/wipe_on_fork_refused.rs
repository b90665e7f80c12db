//! Where the kernel refuses MADV_WIPEONFORK, randp keeps no userspace state
//! and a forked child still never repeats its parent's bytes. The refusal is
//! real: a seccomp filter in a child process makes madvise(MADV_WIPEONFORK)
//! fail with EINVAL, as a kernel before 4.14 does.

mod support;
use support::{ROLE, assert_unique, blocks, fail_syscall, run_child, skip_without_seccomp, write_all};

const FORKS: usize = 200;

fn child() {
    fail_syscall(libc::SYS_madvise, libc::EINVAL, Some((2, libc::MADV_WIPEONFORK as u32)));
    assert!(!randp::uses_userspace_generator(), "refused advice must disable the userspace state");
    let mut out = Vec::new();
    for _ in 0..FORKS {
        let mut pipe = [0; 2];
        // SAFETY: `pipe` has room for the two descriptors.
        assert_eq!(unsafe { libc::pipe(pipe.as_mut_ptr()) }, 0);
        let mut before = [0u8; 24]; // an odd amount, as a partly used buffer would leave
        randp::fill_bytes(&mut before);
        // SAFETY: the child only draws, writes to the pipe and calls _exit.
        let pid = unsafe { libc::fork() };
        if pid == 0 {
            let mut b = [0u8; 64];
            randp::fill_bytes(&mut b);
            write_all(pipe[1], &b);
            // SAFETY: leaves the forked child without running the parent's destructors.
            unsafe { libc::_exit(0) };
        }
        // SAFETY: closing our write end and reading the child's 64 bytes.
        unsafe { libc::close(pipe[1]) };
        let mut b = [0u8; 64];
        randp::fill_bytes(&mut b);
        out.extend_from_slice(&b);
        let mut got = [0u8; 64];
        // SAFETY: reading into a 64-byte buffer.
        let n = unsafe { libc::read(pipe[0], got.as_mut_ptr().cast(), 64) };
        assert_eq!(n, 64);
        out.extend_from_slice(&got);
        // SAFETY: reaping the child and closing the read end.
        unsafe {
            libc::waitpid(pid, std::ptr::null_mut(), 0);
            libc::close(pipe[0]);
        }
    }
    assert_unique(blocks(&out), "without MADV_WIPEONFORK");
    write_all(1, b"ok");
    std::process::exit(0);
}

fn main() {
    if std::env::var(ROLE).is_ok() {
        child();
    }
    // (qemu-user ignores MADV_WIPEONFORK anyway; the library's own tests
    // check that randp keeps no userspace state there.)
    if skip_without_seccomp("wipe_on_fork_refused") {
        println!("wipe_on_fork_refused: 0 passed, 0 failed, 1 skipped");
        return;
    }
    let out = run_child("refused");
    assert!(
        out.status.success() && out.stdout == b"ok",
        "child failed: {:?}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    println!("wipe_on_fork_refused: 1 passed, 0 failed");
}
