//! A forked child never repeats its parent's bytes, however much of the
//! parent's buffer was used before the fork: the child finds its state wiped
//! (MADV_WIPEONFORK) and reseeds.

mod support;
use support::{assert_unique, blocks, write_all};

const FORKS: usize = 1000;

/// Forks once; the child draws `child_len` bytes (in `step`-byte calls) and
/// sends them back. Returns the child's bytes.
fn child_output(child_len: usize, step: usize) -> Vec<u8> {
    in_child(child_len, |b| {
        for chunk in b.chunks_mut(step) {
            randp::fill_bytes(chunk);
        }
    })
}

/// Forks once; the child runs `draw` on `len` zeroed bytes and sends them
/// back. Returns the child's bytes.
fn in_child(len: usize, draw: impl FnOnce(&mut [u8])) -> Vec<u8> {
    let mut pipe = [0; 2];
    // SAFETY: `pipe` has room for the two descriptors.
    assert_eq!(unsafe { libc::pipe(pipe.as_mut_ptr()) }, 0);
    // Allocated before the fork: the child only draws, writes and exits.
    let mut b = vec![0u8; len];
    // SAFETY: the child only draws, writes to the pipe and calls _exit.
    let pid = unsafe { libc::fork() };
    assert!(pid >= 0, "fork failed");
    if pid == 0 {
        draw(&mut b);
        write_all(pipe[1], &b);
        // SAFETY: leaves the forked child without running the parent's destructors.
        unsafe { libc::_exit(0) };
    }
    // SAFETY: closing our write end, reading, reaping.
    unsafe { libc::close(pipe[1]) };
    let mut got = vec![0u8; len];
    let mut filled = 0;
    while filled < len {
        // SAFETY: reading into the unfilled part of `got`.
        let n = unsafe { libc::read(pipe[0], got[filled..].as_mut_ptr().cast(), len - filled) };
        assert!(n > 0, "child sent {filled} of {len} bytes");
        filled += n as usize;
    }
    let mut status = 0;
    // SAFETY: reaping the child and closing the read end.
    unsafe {
        libc::waitpid(pid, &mut status, 0);
        libc::close(pipe[0]);
    }
    assert!(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0);
    got
}

#[test]
fn children_never_repeat_the_parent() {
    let mut all = Vec::new();
    for i in 0..FORKS {
        // Leave the parent's buffer partly used by an amount that varies.
        let mut used = vec![0u8; 1 + i * 37 % 5000];
        randp::fill_bytes(&mut used);
        let child = child_output(256, if i % 2 == 0 { 16 } else { 8 });
        let mut parent = [0u8; 256];
        randp::fill_bytes(&mut parent);
        all.extend_from_slice(&child);
        all.extend_from_slice(&parent);
    }
    assert_unique(blocks(&all), "parent and children");
}

#[test]
fn children_of_an_untouched_thread_are_distinct() {
    // A thread whose generator was never used forks: the children each seed
    // their own state.
    std::thread::spawn(|| {
        let mut all = Vec::new();
        for _ in 0..50 {
            all.extend(child_output(64, 64));
        }
        assert_unique(blocks(&all), "children");
    })
    .join()
    .unwrap();
}

#[test]
fn a_childs_first_call_past_the_fast_path_gets_no_bytes_of_the_wiped_buffer() {
    // The buffer's counts are a thread-local word, which a fork keeps while
    // it zeroes the state page. A fill of 2 KiB and more is declined by the
    // fast path and served by the slow path: its whole blocks are written
    // directly and its last `len % 16` bytes come from the buffer. In the
    // child, the first such fill must not believe the parent's counts: its
    // tail would be the zeroed buffer's bytes (zeroes). The fast path leaves
    // them as they are; the slow path forgets them (`forget_stale_counts`),
    // as the wiped page's `filled` reads 0. A wipe between the two paths is
    // tests/single_step's (its 2 KiB-and-8-byte fill).
    let mut all = Vec::new();
    for i in 0..200 {
        let mut used = vec![0u8; 8 + i * 53 % 3000];
        randp::fill_bytes(&mut used);
        let len = 2048 + 8 + i % 8;
        let child = in_child(len, randp::fill_bytes);
        let tail = &child[len - len % 16..];
        assert_ne!(tail, vec![0u8; tail.len()], "the tail of the child's fill of {len} bytes is zeroes");
        let mut last = [0u8; 16];
        last[..tail.len()].copy_from_slice(tail);
        all.extend_from_slice(&child[..len - len % 16]);
        all.extend_from_slice(&last);
        let mut parent = vec![0u8; 4096];
        randp::fill_bytes(&mut parent);
        all.extend_from_slice(&parent);
    }
    assert_unique(blocks(&all), "parent and children");
}
