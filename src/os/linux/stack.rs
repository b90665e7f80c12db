//! The bounds of the stack a thread runs on, so that the keystream's wipe of
//! a signal frame (`keystream::signal_frames`) writes only memory that is
//! proven to be that stack's free area.
//!
//! A thread's own stack is found once, the first time it is asked for, in
//! /proc/self/maps: the mapping that holds the stack pointer is the
//! thread's stack when the kernel labels it `[stack]` (the main thread) or
//! when it also holds the thread pointer (glibc and musl put a thread's
//! control block at the top of the stack they map for it, and at the top of
//! a stack the program gives `pthread_attr_setstack`). Any other mapping (an
//! alternate signal stack, a coroutine's stack, a stack inside a heap
//! block) is not taken for the thread's stack. The lookup allocates
//! nothing and takes no lock (openat, read and close, made as raw system
//! calls like the /proc/self/smaps reader's in `state_memory`, so the
//! library imports nothing more from libc), so it may run in a signal
//! handler; where it cannot run (no /proc, a seccomp filter), the stack
//! stays unknown.
//!
//! The bounds live in the third and fourth words of the thread-local block
//! (`tls`): zero in a new thread.

use core::sync::atomic::{AtomicUsize, Ordering::Relaxed};

/// The lower bound word's value while the lookup has been tried and failed
/// fewer than [`TRIES`] times: the count of tries, with the upper bound 0.
const TRIES: usize = 4;
/// Both words hold this once the lookup has failed [`TRIES`] times: the
/// thread's stack is unknown for good.
const UNKNOWN: usize = usize::MAX;

/// This thread's own stack as `(low, high)`, its lowest and one past its
/// highest usable address, or `None` when it is not known.
///
/// Looks it up at the first call of the thread (or retries, while the
/// lookup fails, at most [`TRIES`] times; `sp` must then lie in the
/// thread's own stack for the lookup to find it).
#[inline]
pub(crate) fn thread_stack(sp: usize) -> Option<(usize, usize)> {
    let words = super::tls::stack_words();
    let (low, high) = (words[0].load(Relaxed), words[1].load(Relaxed));
    if high != 0 && high != UNKNOWN {
        return Some((low, high));
    }
    if high == UNKNOWN {
        return None;
    }
    look_up(words, sp, low)
}

/// Never inlined: the single-step test steps over it as one step (see
/// [`look_up_entry`]).
#[cold]
#[inline(never)]
fn look_up(words: &[AtomicUsize; 2], sp: usize, tries: usize) -> Option<(usize, usize)> {
    match find(sp) {
        Some((low, high)) => {
            words[0].store(low, Relaxed);
            words[1].store(high, Relaxed);
            Some((low, high))
        }
        None if tries + 1 >= TRIES => {
            words[0].store(UNKNOWN, Relaxed);
            words[1].store(UNKNOWN, Relaxed);
            None
        }
        None => {
            words[0].store(tries + 1, Relaxed);
            None
        }
    }
}

/// The entry address of the lookup a thread's first keystream call makes,
/// for the test that single-steps a draw: it reads all of /proc/self/maps
/// (some hundred thousand instructions in a debug build) and touches no
/// state but its two thread-local words, which it stores at its end, so the
/// test runs it as one step.
#[cfg(all(feature = "internals", target_arch = "x86_64"))]
pub(crate) fn look_up_entry() -> usize {
    look_up as fn(&[AtomicUsize; 2], usize, usize) -> Option<(usize, usize)> as usize
}

/// The mapping of /proc/self/maps that holds `sp`, when it is this thread's
/// stack (see the module documentation).
fn find(sp: usize) -> Option<(usize, usize)> {
    let tp: usize;
    // SAFETY: reads the thread pointer: on x86_64 the first word of the
    // thread control block, which points to itself; on aarch64 TPIDR_EL0.
    #[cfg(target_arch = "x86_64")]
    unsafe {
        core::arch::asm!("mov {}, qword ptr fs:[0]", out(reg) tp, options(nostack, readonly, preserves_flags))
    };
    #[cfg(target_arch = "aarch64")]
    // SAFETY: as above.
    unsafe {
        core::arch::asm!("mrs {}, tpidr_el0", out(reg) tp, options(nostack, nomem, preserves_flags))
    };
    let (low, high, labelled) = mapping_of(sp)?;
    (labelled || (low <= tp && tp < high)).then_some((low, high))
}

/// The mapping of /proc/self/maps that holds `addr`: its bounds, and
/// whether the kernel labels it `[stack]`.
fn mapping_of(addr: usize) -> Option<(usize, usize, bool)> {
    // SAFETY: a NUL-terminated path; the descriptor is closed below.
    let fd = unsafe {
        libc::syscall(libc::SYS_openat, libc::AT_FDCWD, c"/proc/self/maps".as_ptr(), libc::O_RDONLY | libc::O_CLOEXEC)
    } as libc::c_int;
    if fd < 0 {
        return None;
    }
    let mut lines = Lines::default();
    let mut buf = [0u8; 512];
    let found = loop {
        // SAFETY: `buf` is valid for writes of its length.
        let got = unsafe { libc::syscall(libc::SYS_read, fd, buf.as_mut_ptr(), buf.len()) };
        if got < 0 && last_errno() == libc::EINTR {
            continue;
        }
        if got <= 0 {
            break None;
        }
        if let Some(m) = buf[..got as usize].iter().find_map(|&b| lines.push(b, addr)) {
            break Some(m);
        }
    };
    // SAFETY: `fd` is the descriptor opened above, closed once.
    unsafe { libc::syscall(libc::SYS_close, fd) };
    found
}

fn last_errno() -> i32 {
    // SAFETY: errno's location is valid for the thread's life.
    unsafe { *libc::__errno_location() }
}

/// A line of /proc/self/maps read one byte at a time: its start and end
/// addresses (`start-end ...`), and its last bytes, for the `[stack]` label.
#[derive(Default)]
struct Lines {
    start: usize,
    end: usize,
    /// 0: reading `start`; 1: reading `end`; 2: the rest of the line.
    field: u8,
    tail: [u8; 7],
}

impl Lines {
    /// Takes the next byte; at the end of a line whose mapping holds
    /// `addr`, returns that mapping.
    fn push(&mut self, b: u8, addr: usize) -> Option<(usize, usize, bool)> {
        if b == b'\n' {
            let m = (self.start <= addr && addr < self.end).then_some((self.start, self.end, &self.tail == b"[stack]"));
            *self = Lines::default();
            return m;
        }
        match (self.field, b) {
            (0, b'-') => self.field = 1,
            (1, b' ') => self.field = 2,
            (0 | 1, _) => {
                let digit = (b as char).to_digit(16).unwrap_or(0) as usize;
                let word = if self.field == 0 { &mut self.start } else { &mut self.end };
                *word = word.wrapping_shl(4) | digit;
            }
            _ => {}
        }
        self.tail.copy_within(1.., 0);
        self.tail[6] = b;
        None
    }
}

#[cfg(test)]
mod tests {
    use super::thread_stack;

    fn sp() -> usize {
        let x = 0u8;
        core::hint::black_box(&x) as *const u8 as usize
    }

    #[test]
    fn the_main_and_a_spawned_thread_find_their_own_stacks() {
        let here = sp();
        let (low, high) = thread_stack(here).expect("this thread's stack is found");
        assert!(low < here && here < high, "{low:#x} < {here:#x} < {high:#x}");
        let size = 256 * 1024;
        let (there, bounds) = std::thread::Builder::new()
            .stack_size(size)
            .spawn(|| {
                let s = sp();
                (s, thread_stack(s))
            })
            .unwrap()
            .join()
            .unwrap();
        let (low, high) = bounds.expect("a spawned thread's stack is found");
        assert!(low < there && there < high);
        assert!(high - low >= size && high - low < size + 1024 * 1024, "{:#x} bytes", high - low);
    }

    #[test]
    fn a_stack_in_another_mapping_is_not_taken_for_the_threads() {
        std::thread::spawn(|| {
            // A heap block stands for an alternate signal stack: it holds
            // neither the thread pointer nor the `[stack]` label.
            let block = std::vec![0u8; 64 * 1024];
            let inside = block.as_ptr() as usize + 32 * 1024;
            assert_eq!(super::find(inside), None);
            // The failures are not cached as the thread's stack, which is
            // still found from its own stack pointer.
            assert_eq!(thread_stack(inside), None);
            let s = sp();
            let (low, high) = thread_stack(s).expect("found after a miss");
            assert!(low < s && s < high);
        })
        .join()
        .unwrap();
    }
}
