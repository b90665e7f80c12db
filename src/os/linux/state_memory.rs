//! The memory a thread's state lives in: a page that a forked child finds
//! zeroed, that stays out of core dumps, and that is kept out of swap, and
//! right after it the pages its buffer may grow into, the *extension*.
//!
//! On Linux 6.11 and later the state page is mapped with MAP_DROPPABLE, as
//! the kernel's own vDSO getrandom states are: the kernel never writes it to
//! swap, and under memory pressure may drop it instead, after which it
//! reads back as zeroes. (A hibernation image saves the memory in use
//! whatever its mapping, so it may hold the page, as it holds the rest of
//! the process.) Droppable memory is also wiped on fork and left out of core
//! dumps. Zero is the unseeded state, and every key of a state is on its one
//! page, so a dropped page is simply reseeded (a call it interrupts is
//! thrown away, exactly as after a fork); the buffer's counts, in a
//! thread-local word, are forgotten once the page reads as never filled. On
//! older kernels the page is mapped with MADV_WIPEONFORK and MADV_DONTDUMP
//! and locked in memory with mlock where the limit allows (best effort).
//!
//! The extension (three pages) is never droppable: a page of keystream that
//! dropped alone would read back as zeroes under a live count. It is an
//! ordinary private mapping with MADV_WIPEONFORK and MADV_DONTDUMP, and a
//! generator uses it only once it is locked in memory ([`lock_extension`]):
//! locked pages are never swapped, and a refused lock leaves the buffer on
//! the state page. A lock is not inherited by a forked child, whose state
//! page is zeroed and so asks for the lock again before its buffer grows.
//! What the extension holds is keystream not yet handed out (handed-out
//! bytes are zeroed), never a key, and its bytes are handed out only while
//! the state page says a refill wrote them: where the state page is gone
//! (dropped), they are never handed out, and the thread's next call zeroes
//! them.
//!
//! Whether the kernel honours MADV_WIPEONFORK is checked, not assumed: the
//! advice must succeed on every mapping; on every mapping an invalid advice
//! and the advice at an address that is not page-aligned must fail (some
//! environments, qemu-user for one, accept any advice and ignore it, and a
//! seccomp filter can make this advice return 0 without running it, at any
//! time in the process's life); and once per process the kernel's own
//! account of the first mapping's extension, the `wf` flag in
//! /proc/self/smaps, must show it (which also catches a filter that fakes
//! only page-aligned calls, if it is in place by then). When a check fails,
//! or /proc cannot be read, randp keeps no userspace state at all and every
//! draw reads the OS directly, so a child never repeats its parent's bytes.

use core::ptr::{self, NonNull};
use core::sync::atomic::{AtomicU8, Ordering::Relaxed};

const UNKNOWN: u8 = 0;
const HONOURED: u8 = 1;
const REFUSED: u8 = 2;

static WIPE_ON_FORK: AtomicU8 = AtomicU8::new(UNKNOWN);

use super::super::STATE_LEN;

/// The extension's length: three pages, so that with the state page's 3,328
/// bytes a refill writes 15,616 bytes (976 blocks) under one key.
pub(in crate::os) const EXTENSION_LEN: usize = 3 * 4096;

/// The whole mapping: the state page and its extension.
const MAP_LEN: usize = STATE_LEN + EXTENSION_LEN;

/// Whether a lock of an extension has been seen in /proc/self/smaps (once
/// per process): UNKNOWN, HONOURED or REFUSED (a lock that reported success
/// and locked nothing, as a seccomp filter could make it).
static EXTENSION_LOCK: AtomicU8 = AtomicU8::new(UNKNOWN);

/// Whether the kernel has been seen to honour MADV_WIPEONFORK; false once a
/// mapping was refused. Probes the kernel on first use.
pub(in crate::os) fn honoured() -> bool {
    match WIPE_ON_FORK.load(Relaxed) {
        HONOURED => true,
        REFUSED => false,
        _ => probe(),
    }
}

#[cold]
fn probe() -> bool {
    match map_bytes() {
        Some(p) => {
            // SAFETY: `p` is a mapping that nothing else uses.
            unsafe { unmap_bytes(p) };
            true
        }
        None => false,
    }
}

/// How the last mapping was made, for diagnostics and tests.
#[cfg(any(test, feature = "internals"))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::os) enum Kind {
    /// MAP_DROPPABLE (Linux 6.11+): never swapped, wiped on fork, not dumped.
    Droppable,
    /// MADV_WIPEONFORK and MADV_DONTDUMP, and mlock when the limit allows.
    WipeOnFork { locked: bool },
}

static LAST_KIND: AtomicU8 = AtomicU8::new(0);

/// Whether this process's state pages are droppable (MAP_DROPPABLE), as
/// the vDSO's getrandom wants the memory of its states to be.
pub(in crate::os) fn droppable() -> bool {
    LAST_KIND.load(Relaxed) == 1
}

/// How this process's state pages are mapped (`None` before the first one).
#[cfg(any(test, feature = "internals"))]
pub(in crate::os) fn kind() -> Option<Kind> {
    match LAST_KIND.load(Relaxed) {
        1 => Some(Kind::Droppable),
        2 => Some(Kind::WipeOnFork { locked: true }),
        3 => Some(Kind::WipeOnFork { locked: false }),
        _ => None,
    }
}

/// Whether this process keeps states whose wipe on fork cannot be verified:
/// only the tests under qemu-user set it (`accept_unverified_wipe_on_fork`).
#[cfg(feature = "internals")]
static ACCEPT_UNVERIFIED: core::sync::atomic::AtomicBool = core::sync::atomic::AtomicBool::new(false);

/// See `randp::internals::accept_unverified_wipe_on_fork`.
#[cfg(feature = "internals")]
pub(crate) fn accept_unverified_wipe_on_fork() {
    ACCEPT_UNVERIFIED.store(true, Relaxed);
}

/// Whether an unverified wipe on fork is accepted: never in a build without
/// the `internals` feature.
fn unverified_accepted() -> bool {
    #[cfg(feature = "internals")]
    return ACCEPT_UNVERIFIED.load(Relaxed);
    #[cfg(not(feature = "internals"))]
    false
}

/// How the state pages are mapped: `"droppable"`, `"wipeonfork+mlock"` or
/// `"wipeonfork"` (`None` before the first state is mapped).
#[cfg(feature = "internals")]
pub(crate) fn state_mapping() -> Option<&'static str> {
    kind().map(|k| match k {
        Kind::Droppable => "droppable",
        Kind::WipeOnFork { locked: true } => "wipeonfork+mlock",
        Kind::WipeOnFork { locked: false } => "wipeonfork",
    })
}

/// Maps one zeroed, private [`STATE_LEN`]-byte page, or returns `None` (and
/// records the refusal) when the kernel does not honour MADV_WIPEONFORK or
/// has no memory.
pub(in crate::os) fn map_page() -> Option<NonNull<u8>> {
    map_bytes()
}

/// Zeroes and unmaps a page from [`map_page`].
///
/// # Safety
/// `p` came from `map_page()`, is not used afterwards, and nothing else refers to it.
pub(in crate::os) unsafe fn unmap_page(p: NonNull<u8>) {
    // SAFETY: forwarded from the caller.
    unsafe { unmap_bytes(p) }
}

const ANON: libc::c_int = libc::MAP_PRIVATE | libc::MAP_ANONYMOUS;
const RW: libc::c_int = libc::PROT_READ | libc::PROT_WRITE;

/// Maps MAP_LEN bytes, the state page droppable where the kernel has
/// MAP_DROPPABLE and the extension private; returns the mapping and whether
/// its first page is droppable.
fn mmap_state() -> Option<(NonNull<u8>, bool)> {
    // MAP_DROPPABLE is a mapping type of its own; kernels before 6.11 reject
    // it with EINVAL, and then the whole mapping is private.
    if let Some(p) = mmap(ptr::null_mut(), MAP_LEN, (ANON & !libc::MAP_PRIVATE) | libc::MAP_DROPPABLE) {
        // SAFETY: the extension's pages of the mapping just made, which
        // nothing else uses.
        let ext = unsafe { p.as_ptr().add(STATE_LEN) };
        if mmap(ext, EXTENSION_LEN, ANON | libc::MAP_FIXED).is_some_and(|q| q.as_ptr() == ext) {
            return Some((p, true));
        }
        // A failed MAP_FIXED may have unmapped the pages it was to replace.
        // SAFETY: the mapping made above, which nothing uses.
        unsafe { libc::munmap(p.as_ptr().cast(), MAP_LEN) };
    }
    Some((mmap(ptr::null_mut(), MAP_LEN, ANON)?, false))
}

/// mmap(2) of `len` anonymous bytes at `addr` (null: anywhere) with `flags`.
fn mmap(addr: *mut u8, len: usize, flags: libc::c_int) -> Option<NonNull<u8>> {
    // SAFETY: an anonymous mapping; with MAP_FIXED, `addr` lies in a mapping
    // of the caller's that nothing else uses.
    let p = unsafe { libc::mmap(addr.cast(), len, RW, flags, -1, 0) };
    if p == libc::MAP_FAILED { None } else { NonNull::new(p.cast()) }
}

fn map_bytes() -> Option<NonNull<u8>> {
    let (p, droppable) = mmap_state()?;
    // SAFETY: `p` is the start of the MAP_LEN-byte mapping just made. Advice
    // changes only how the kernel treats it. A refused DONTDUMP or mlock of
    // the state page costs only hygiene (core dumps, swap), so their results
    // are recorded, not required; the extension is locked before use
    // (`lock_extension`).
    let (wipe, faked, kind) = unsafe {
        let base = p.as_ptr().cast();
        let wipe = libc::madvise(base, MAP_LEN, libc::MADV_WIPEONFORK);
        // Two calls a kernel refuses (EINVAL) before it looks at the
        // memory: an invalid advice, and this advice at an address that is
        // not page-aligned. Either succeeding means something answers
        // madvise without running it: for every advice, or, as a seccomp
        // filter that tests the advice argument can, for this one.
        let faked = libc::madvise(base, STATE_LEN, -1) == 0
            || libc::madvise(p.as_ptr().add(1).cast(), STATE_LEN, libc::MADV_WIPEONFORK) == 0;
        let kind = if droppable {
            libc::madvise(p.as_ptr().add(STATE_LEN).cast(), EXTENSION_LEN, libc::MADV_DONTDUMP);
            1
        } else {
            libc::madvise(base, MAP_LEN, libc::MADV_DONTDUMP);
            if libc::mlock(base, STATE_LEN) == 0 { 2 } else { 3 }
        };
        (wipe, faked, kind)
    };
    // The kernel's account of the extension: where the state page is
    // droppable, the extension is a mapping of its own, wiped on fork only
    // by the advice (the state page's `wf` would show droppability alone);
    // otherwise the two are one mapping.
    let ext = p.as_ptr() as usize + STATE_LEN;
    let verified = WIPE_ON_FORK.load(Relaxed) == HONOURED || smaps_shows_flag(ext, b"wf");
    if wipe != 0 || ((faked || !verified) && !unverified_accepted()) {
        WIPE_ON_FORK.store(REFUSED, Relaxed);
        // SAFETY: the mapping was made above and never handed out.
        unsafe { unmap_bytes(p) };
        return None;
    }
    let _ = WIPE_ON_FORK.compare_exchange(UNKNOWN, HONOURED, Relaxed, Relaxed);
    LAST_KIND.store(kind, Relaxed);
    Some(p)
}

/// Locks the extension of the state mapped at `p` in memory, and returns
/// its length, or 0 if it cannot be locked (the limit, RLIMIT_MEMLOCK, is
/// reached; or the process's first lock did not show in /proc/self/smaps).
/// Locking pages that are locked already changes nothing.
pub(in crate::os) fn lock_extension(p: NonNull<u8>) -> usize {
    if EXTENSION_LOCK.load(Relaxed) == REFUSED {
        return 0;
    }
    // SAFETY: `p` is a mapping from `map_bytes`, whose extension follows its
    // state page; locking changes only how the kernel treats it.
    let ext = unsafe { p.as_ptr().add(STATE_LEN) };
    // SAFETY: as above.
    if unsafe { libc::mlock(ext.cast(), EXTENSION_LEN) } != 0 {
        return 0;
    }
    if EXTENSION_LOCK.load(Relaxed) == UNKNOWN {
        let locked = smaps_shows_flag(ext as usize, b"lo");
        EXTENSION_LOCK.store(if locked { HONOURED } else { REFUSED }, Relaxed);
        if !locked {
            return 0;
        }
    }
    EXTENSION_LEN
}

/// Whether /proc/self/smaps (read through raw system calls: no allocation,
/// no lock, no libc buffer) shows the flag `flag` in the `VmFlags` of the
/// mapping that holds `addr`: `wf` (VM_WIPEONFORK, which MAP_DROPPABLE
/// implies), `lo` (VM_LOCKED). False if the file cannot be opened or is not
/// on procfs.
fn smaps_shows_flag(addr: usize, flag: &[u8]) -> bool {
    const PROC_SUPER_MAGIC: i64 = 0x9fa0;
    // SAFETY: a NUL-terminated path; the descriptor is closed below.
    let fd = unsafe {
        libc::syscall(libc::SYS_openat, libc::AT_FDCWD, c"/proc/self/smaps".as_ptr(), libc::O_RDONLY | libc::O_CLOEXEC)
    } as libc::c_int;
    if fd < 0 {
        return false;
    }
    // SAFETY: statfs is plain data, valid when zeroed, and fstatfs fills it.
    let mut st: libc::statfs = unsafe { core::mem::zeroed() };
    // SAFETY: `fd` is open and `st` a valid out-pointer.
    let on_procfs = unsafe { libc::syscall(libc::SYS_fstatfs, fd, &mut st as *mut libc::statfs) } == 0
        && st.f_type as i64 == PROC_SUPER_MAGIC;
    let mut lines = Lines::new(fd);
    let mut in_mapping = false;
    let mut shown = false;
    while on_procfs && let Some(line) = lines.next() {
        if let Some((lo, hi)) = mapping_range(line) {
            if in_mapping {
                break;
            }
            in_mapping = lo <= addr && addr < hi;
        } else if in_mapping && let Some(flags) = line.strip_prefix(b"VmFlags:") {
            shown = flags.split(|&c| c == b' ').any(|f| f == flag);
            break;
        }
    }
    // SAFETY: closes the descriptor opened above.
    unsafe { libc::syscall(libc::SYS_close, fd) };
    shown
}

/// The address range at the start of an smaps header line
/// (`7f0000001000-7f0000002000 rw-p …`), or `None` for other lines.
fn mapping_range(line: &[u8]) -> Option<(usize, usize)> {
    let hex = |s: &[u8]| -> Option<usize> {
        if s.is_empty() || s.len() > 16 {
            return None;
        }
        s.iter().try_fold(0usize, |v, &c| Some(v << 4 | (c as char).to_digit(16)? as usize))
    };
    let dash = line.iter().position(|&c| c == b'-')?;
    let space = line.iter().position(|&c| c == b' ')?;
    if space < dash {
        return None;
    }
    Some((hex(&line[..dash])?, hex(&line[dash + 1..space])?))
}

/// The lines of a file read with read(2) into a small buffer; a line longer
/// than the buffer is cut to its start (enough for the lines parsed here).
struct Lines {
    fd: libc::c_int,
    buf: [u8; 256],
    start: usize,
    end: usize,
    eof: bool,
    /// The last line was cut: the rest of it is still to be read and dropped.
    cut: bool,
}

impl Lines {
    fn new(fd: libc::c_int) -> Self {
        Lines { fd, buf: [0; 256], start: 0, end: 0, eof: false, cut: false }
    }

    fn next(&mut self) -> Option<&[u8]> {
        if self.cut {
            self.cut = false;
            while !self.consume_newline() {
                self.start = 0;
                self.end = 0;
                self.fill();
                if self.eof {
                    return None;
                }
            }
        }
        loop {
            if let Some(i) = self.buf[self.start..self.end].iter().position(|&c| c == b'\n') {
                let line = self.start..self.start + i;
                self.start += i + 1;
                return Some(&self.buf[line]);
            }
            if self.eof {
                let line = self.start..self.end;
                self.start = self.end;
                return if line.is_empty() { None } else { Some(&self.buf[line]) };
            }
            if self.start == 0 && self.end == self.buf.len() {
                self.cut = true;
                self.start = self.end;
                return Some(&self.buf[..]);
            }
            self.buf.copy_within(self.start..self.end, 0);
            self.end -= self.start;
            self.start = 0;
            self.fill();
        }
    }

    /// Drops the buffered bytes up to and including a newline; false if
    /// there was none.
    fn consume_newline(&mut self) -> bool {
        match self.buf[self.start..self.end].iter().position(|&c| c == b'\n') {
            Some(i) => {
                self.start += i + 1;
                true
            }
            None => false,
        }
    }

    /// Reads more after `end`; sets `eof` at the end of the file or on an error.
    fn fill(&mut self) {
        loop {
            let room = &mut self.buf[self.end..];
            // SAFETY: reads at most `room.len()` bytes into `room`.
            let n = unsafe { libc::syscall(libc::SYS_read, self.fd, room.as_mut_ptr(), room.len()) };
            if n > 0 {
                self.end += n as usize;
                return;
            }
            // SAFETY: __errno_location returns this thread's errno slot.
            if n < 0 && unsafe { *libc::__errno_location() } == libc::EINTR {
                continue;
            }
            self.eof = true;
            return;
        }
    }
}

/// # Safety
/// `p` is a whole mapping from `map_bytes` that nothing uses any more.
unsafe fn unmap_bytes(p: NonNull<u8>) {
    // SAFETY: the caller hands over the whole mapping, so it may be written
    // (zeroed, so no key or output outlives it) and then unmapped, which also
    // ends any mlock.
    unsafe {
        zeroize::Zeroize::zeroize(core::slice::from_raw_parts_mut(p.as_ptr(), MAP_LEN));
        libc::munmap(p.as_ptr().cast(), MAP_LEN);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::os::{map, unmap, userspace_state_expected as native};

    #[test]
    fn smaps_ranges_and_long_lines_are_parsed() {
        assert_eq!(
            mapping_range(b"7f0000001000-7f0000003000 rw-p 00000000 00:00 0"),
            Some((0x7f0000001000, 0x7f0000003000))
        );
        assert_eq!(mapping_range(b"VmFlags: rd wr mr mw me ac wf dd"), None);
        assert_eq!(mapping_range(b"Size:                  4 kB"), None);
        // A file of long lines, cut to the buffer, then short ones.
        let path = std::format!("/tmp/randp-lines-{}", std::process::id());
        let long = "x".repeat(1000);
        std::fs::write(&path, std::format!("{long}\nab\n{long}\n\ncd")).unwrap();
        let c = std::ffi::CString::new(path.clone()).unwrap();
        // SAFETY: a valid path; the descriptor is closed below.
        let fd = unsafe { libc::open(c.as_ptr(), libc::O_RDONLY) };
        let mut lines = Lines::new(fd);
        let mut got = std::vec::Vec::new();
        while let Some(l) = lines.next() {
            got.push(l.len());
        }
        // SAFETY: closing the descriptor opened above.
        unsafe { libc::close(fd) };
        std::fs::remove_file(&path).unwrap();
        assert_eq!(got, [256, 2, 256, 0, 2]);
    }

    #[test]
    fn smaps_shows_the_flag_on_state_pages_only() {
        if !native() {
            return; // qemu-user: see this_kernel_honours_wipe_on_fork
        }
        let p = map::<[u8; 100]>().expect("mapping");
        assert!(smaps_shows_flag(p.as_ptr() as usize, b"wf"));
        let heap = std::boxed::Box::new(0u64);
        assert!(!smaps_shows_flag(&*heap as *const u64 as usize, b"wf"), "an ordinary mapping has no wf flag");
        // SAFETY: `p` came from `map` and is not used again.
        unsafe { unmap(p) };
    }

    #[test]
    fn this_kernel_honours_wipe_on_fork() {
        if native() {
            assert!(honoured());
        } else {
            assert!(!honoured(), "qemu-user ignores MADV_WIPEONFORK and the probe must see it");
            assert!(map::<[u8; 8]>().is_none(), "no state is mapped where the advice is ignored");
        }
    }

    #[test]
    fn droppable_where_the_kernel_has_it() {
        if !native() {
            return; // qemu-user: see this_kernel_honours_wipe_on_fork
        }
        let p = map::<[u8; 100]>().expect("mapping");
        // SAFETY: utsname is plain bytes, valid when zeroed.
        let mut uts: libc::utsname = unsafe { core::mem::zeroed() };
        // SAFETY: `uts` is a valid out-pointer.
        assert_eq!(unsafe { libc::uname(&mut uts) }, 0);
        // SAFETY: uname wrote a NUL-terminated release string.
        let release = unsafe { core::ffi::CStr::from_ptr(uts.release.as_ptr()) }.to_str().unwrap();
        let mut parts = release.split(|c: char| !c.is_ascii_digit()).filter_map(|s| s.parse::<u32>().ok());
        let version = (parts.next().unwrap_or(0), parts.next().unwrap_or(0));
        if version >= (6, 11) {
            assert_eq!(kind(), Some(Kind::Droppable), "Linux {release} has MAP_DROPPABLE");
        } else {
            assert!(matches!(kind(), Some(Kind::WipeOnFork { .. })), "Linux {release}");
        }
        // SAFETY: `p` came from `map` and is not used again.
        unsafe { unmap(p) };
    }

    #[test]
    fn mapping_is_zeroed_in_a_forked_child() {
        if !native() {
            return; // qemu-user: see this_kernel_honours_wipe_on_fork
        }
        let p = map::<[u8; 100]>().expect("mapping");
        // SAFETY: `p` is a fresh, exclusively owned mapping of 100 bytes.
        unsafe { p.as_ptr().write([0xa5; 100]) };
        // SAFETY: the child only reads memory and calls _exit.
        let pid = unsafe { libc::fork() };
        assert!(pid >= 0);
        if pid == 0 {
            // SAFETY: reading the mapping, then leaving without unwinding.
            unsafe {
                let zeroed = (*p.as_ptr()).iter().all(|&b| b == 0);
                libc::_exit(if zeroed { 0 } else { 1 });
            }
        }
        let mut status = 0;
        // SAFETY: waiting for the child just forked.
        unsafe { libc::waitpid(pid, &mut status, 0) };
        assert!(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0, "child saw the parent's bytes");
        // SAFETY: the parent still sees its own bytes, and then releases the mapping.
        unsafe {
            assert_eq!(*p.as_ptr(), [0xa5; 100]);
            unmap(p);
        }
    }
}
