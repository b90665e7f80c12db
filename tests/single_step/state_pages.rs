//! The tracee's view of randp's state pages: the mappings whose VmFlags in
//! /proc/self/smaps carry `wf` (wipe on fork, which MAP_DROPPABLE implies;
//! nothing else in this program asks for it). Read with raw system calls
//! into a static buffer, so that a signal handler may call it.

use std::cell::UnsafeCell;

const BUF_LEN: usize = 512 * 1024;
/// At most this many state page ranges are reported.
pub const MAX: usize = 16;
const PAGE: usize = 4096;

struct Buf(UnsafeCell<[u8; BUF_LEN]>);
// SAFETY: the tracee reads smaps on one thread at a time: its main thread,
// or a signal handler on that thread, which is never interrupted by another
// reader (the handler's signal is masked while it runs, and the main thread
// reads only outside the call under test).
unsafe impl Sync for Buf {}
static BUF: Buf = Buf(UnsafeCell::new([0; BUF_LEN]));

/// The address ranges of this process's mappings whose VmFlags carry
/// `flag` (`wf`: state pages and their extensions; `dp`: droppable), into
/// `out`; returns how many there are (it may exceed `out.len()`).
pub fn find(out: &mut [(usize, usize); MAX], flag: &[u8]) -> usize {
    // SAFETY: see `Buf`; the buffer is only used inside this call.
    let buf = unsafe { &mut *BUF.0.get() };
    let len = read_smaps(buf);
    let mut n = 0;
    let mut current = None;
    let mut rest = &buf[..len];
    while !rest.is_empty() {
        let line = next_line(&mut rest);
        if let Some(range) = range_of(line) {
            current = Some(range);
        } else if let (Some(flags), Some(range)) = (line.strip_prefix(b"VmFlags:"), current) {
            if flags.split(|&c| c == b' ').any(|f| f == flag) {
                if n < MAX {
                    out[n] = range;
                }
                n += 1;
            }
            current = None;
        }
    }
    n
}

/// How many state pages, extensions included, this process has mapped
/// (adjacent mappings of the same kind are merged into one range, so pages
/// are counted, not ranges).
pub fn count() -> usize {
    let mut ranges = [(0, 0); MAX];
    let n = find(&mut ranges, b"wf");
    assert!(n <= MAX, "{n} state page ranges");
    ranges[..n].iter().map(|&(lo, hi)| (hi - lo) / PAGE).sum()
}

/// Asks the kernel to page out every droppable state page (MADV_PAGEOUT: a
/// droppable page is dropped, and reads back as zeroes; the extensions are
/// not droppable), and returns how many were no longer resident afterwards
/// (mincore).
pub fn drop_all() -> usize {
    let mut ranges = [(0, 0); MAX];
    let n = find(&mut ranges, b"dp").min(MAX);
    let mut dropped = 0;
    for &(lo, hi) in &ranges[..n] {
        let mut resident = [0u8; 64];
        let pages = ((hi - lo) / PAGE).min(resident.len());
        // Reclaim can pass a page over (one the kernel is still adding to
        // its lists, say): ask again until it is gone, a few times.
        for _ in 0..20 {
            // SAFETY: `lo..hi` is one of this process's mappings; advice and
            // a residency query touch no memory of ours but `resident`,
            // which has a byte for each of the first `pages` pages.
            let ok = unsafe {
                libc::madvise(lo as *mut libc::c_void, hi - lo, libc::MADV_PAGEOUT);
                libc::mincore(lo as *mut libc::c_void, pages * PAGE, resident.as_mut_ptr()) == 0
            };
            if ok && resident[..pages].iter().all(|&r| r & 1 == 0) {
                break;
            }
        }
        dropped += resident[..pages].iter().filter(|&&r| r & 1 == 0).count();
    }
    dropped
}

fn read_smaps(buf: &mut [u8]) -> usize {
    // SAFETY: a NUL-terminated path; the descriptor is closed below.
    let fd = unsafe { libc::open(c"/proc/self/smaps".as_ptr(), libc::O_RDONLY | libc::O_CLOEXEC) };
    assert!(fd >= 0, "open /proc/self/smaps");
    let mut len = 0;
    loop {
        // SAFETY: reads into the unused rest of `buf`.
        let n = unsafe { libc::read(fd, buf[len..].as_mut_ptr().cast(), buf.len() - len) };
        if n <= 0 {
            break;
        }
        len += n as usize;
        assert!(len < buf.len(), "/proc/self/smaps is larger than the buffer");
    }
    // SAFETY: closes the descriptor opened above.
    unsafe { libc::close(fd) };
    len
}

/// The first line of `rest`, without its newline; `rest` moves past it.
/// The line ends are found with the C library's memchr: in a debug
/// tracee, splitting smaps with slice iterators took a fifth of its user
/// time (the handout path: 15.8 s, 12.7 s with memchr).
fn next_line<'a>(rest: &mut &'a [u8]) -> &'a [u8] {
    // SAFETY: memchr reads `rest.len()` bytes from its start, all in `rest`.
    let nl = unsafe { libc::memchr(rest.as_ptr().cast(), i32::from(b'\n'), rest.len()) };
    let end = if nl.is_null() { rest.len() } else { nl as usize - rest.as_ptr() as usize };
    let line = &rest[..end];
    *rest = &rest[(end + 1).min(rest.len())..];
    line
}

/// The address range of an smaps header line, or `None` for other lines
/// (theirs start with a field name; a header's with a lower-case hex
/// address).
fn range_of(line: &[u8]) -> Option<(usize, usize)> {
    if !matches!(line.first(), Some(b'0'..=b'9' | b'a'..=b'f')) {
        return None;
    }
    let first = line.split(|&c| c == b' ').next()?;
    let dash = first.iter().position(|&c| c == b'-')?;
    let hex = |s: &[u8]| usize::from_str_radix(std::str::from_utf8(s).ok()?, 16).ok();
    Some((hex(&first[..dash])?, hex(&first[dash + 1..])?))
}
