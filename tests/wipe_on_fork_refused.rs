//! Where the kernel refuses MADV_WIPEONFORK, or randp cannot see it take
//! effect, randp keeps no userspace state and a forked child still never
//! repeats its parent's bytes. Each case is real, in a child process:
//! - refused: a seccomp filter makes madvise(MADV_WIPEONFORK) fail with
//!   EINVAL, as a kernel before 4.14 does;
//! - faked: a seccomp filter makes every madvise(MADV_WIPEONFORK) return 0
//!   without running it, and makes mmap(MAP_DROPPABLE) fail as before Linux
//!   6.11; the advice at an address that is not page-aligned then succeeds
//!   too, where a kernel refuses it;
//! - faked-aligned: the same, but only for page-aligned addresses, so that
//!   only the kernel's own account (the `wf` flag in /proc/self/smaps) tells;
//!   without that check every child repeats its parent's bytes;
//! - faked-droppable: the page-aligned advice faked and MAP_DROPPABLE left
//!   alone: the state page is droppable (wiped on fork whatever madvise
//!   does) and only the account of the extension, a mapping of its own,
//!   tells that the extension's unread keystream would stay in a child;
//! - faked-late: the process draws first, with the advice honoured, and a
//!   filter then fakes every madvise(MADV_WIPEONFORK) (and refuses
//!   MAP_DROPPABLE): a thread started after it keeps no userspace state, and
//!   forks from that thread never repeat its bytes;
//! - no /proc: the process runs in a mount namespace with an empty /proc,
//!   where that account cannot be read.

mod support;
use support::{
    ROLE, assert_child_ok, assert_unique, blocks, fail_syscall, fake_aligned_advice, skip_without_seccomp, write_all,
};

const FORKS: usize = 200;

/// Makes mmap(MAP_DROPPABLE) fail as on kernels before 6.11.
fn refuse_droppable() {
    let droppable = (libc::MAP_ANONYMOUS | libc::MAP_DROPPABLE) as u32;
    fail_syscall(libc::SYS_mmap, libc::EINVAL, Some((3, droppable)));
}

fn child(role: &str) {
    match role {
        "refused" => fail_syscall(libc::SYS_madvise, libc::EINVAL, Some((2, libc::MADV_WIPEONFORK as u32))),
        "faked" => {
            refuse_droppable();
            fail_syscall(libc::SYS_madvise, 0, Some((2, libc::MADV_WIPEONFORK as u32)));
        }
        "faked-aligned" => {
            refuse_droppable();
            fake_aligned_advice(libc::MADV_WIPEONFORK);
        }
        "faked-droppable" => fake_aligned_advice(libc::MADV_WIPEONFORK),
        "faked-late" => {
            let mut b = [0u8; 64];
            randp::fill_bytes(&mut b);
            assert!(randp::uses_userspace_generator(), "{role}: the advice is honoured before the filter");
            refuse_droppable();
            fail_syscall(libc::SYS_madvise, 0, Some((2, libc::MADV_WIPEONFORK as u32)));
            std::thread::scope(|s| s.spawn(|| fork_and_compare(role)).join().unwrap());
            write_all(1, b"ok");
            std::process::exit(0);
        }
        "no-proc" => hide_proc(),
        _ => unreachable!("{role}"),
    }
    fork_and_compare(role);
    write_all(1, b"ok");
    std::process::exit(0);
}

/// Checks that this thread keeps no userspace state, and that FORKS forks
/// made after draws of an odd amount never give the child its parent's
/// bytes.
fn fork_and_compare(role: &str) {
    assert!(!randp::uses_userspace_generator(), "{role}: the userspace state must be disabled");
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
    assert_unique(blocks(&out), role);
}

/// Mounts an empty tmpfs over /proc in a mount namespace of this process's
/// own (a user namespace too when not root).
fn hide_proc() {
    // SAFETY: unshare and mount change only this process's view of mounts.
    unsafe {
        // SAFETY: geteuid has no preconditions.
        let flags = if libc::geteuid() == 0 { libc::CLONE_NEWNS } else { libc::CLONE_NEWNS | libc::CLONE_NEWUSER };
        assert_eq!(libc::unshare(flags), 0, "unshare: {}", std::io::Error::last_os_error());
        assert_eq!(
            libc::mount(
                c"none".as_ptr(),
                c"/".as_ptr(),
                std::ptr::null(),
                libc::MS_REC | libc::MS_PRIVATE,
                std::ptr::null()
            ),
            0,
            "make / private: {}",
            std::io::Error::last_os_error()
        );
        assert_eq!(
            libc::mount(c"none".as_ptr(), c"/proc".as_ptr(), c"tmpfs".as_ptr(), 0, std::ptr::null()),
            0,
            "mount tmpfs on /proc: {}",
            std::io::Error::last_os_error()
        );
    }
    assert!(std::fs::read_dir("/proc").unwrap().next().is_none(), "/proc is empty");
}

fn main() {
    if let Ok(role) = std::env::var(ROLE) {
        child(&role);
    }
    let roles = ["refused", "faked", "faked-aligned", "faked-droppable", "faked-late", "no-proc"];
    // (qemu-user ignores MADV_WIPEONFORK anyway, and randp sees that: the
    // library's own tests check that it keeps no userspace state there.)
    if skip_without_seccomp("wipe_on_fork_refused: every case") {
        println!("wipe_on_fork_refused: 0 passed, 0 failed, {} skipped", roles.len());
        return;
    }
    for role in roles {
        assert_child_ok(role);
    }
    println!("wipe_on_fork_refused: {} passed, 0 failed", roles.len());
}
