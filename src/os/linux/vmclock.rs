//! The VMClock device's VM generation counter (Linux 6.13+, the vmclock
//! driver): a page the hypervisor shares with the guest (`struct
//! vmclock_abi`, in Linux's `vmclock-abi.h`), which the driver lets a
//! process map read-only through /dev/vmclock0. Where the hypervisor sets
//! the flag that says so, it bumps `vm_generation_counter` before a guest
//! restored from a snapshot runs again, so a process that reads a value
//! other than the one it recorded knows that it is a clone.
//!
//! The page is looked up once per process, on first use: the file is
//! opened, examined and mapped with raw system calls (no allocation, no
//! lock, so that a signal handler may be the first to look), its header
//! checked (magic, version, size, the flag), and the counter read once;
//! anything else (no file, a file the process may not open, which is the
//! default for /dev/vmclock0, a file too short, a wrong header, no flag, an
//! update that never ends) means there is none, and nothing is kept mapped.
//!
//! Fields that the hypervisor may change are read under the page's
//! sequence count: an odd count means an update is in progress, and a
//! count that differs after the read means one came in between; either
//! way the read is made again, up to [`MAX_READS`] times.

use core::sync::atomic::{AtomicUsize, Ordering::Acquire, Ordering::Relaxed, fence};

/// The page's address, [`NONE`] when there is none, or [`UNKNOWN`] before
/// the first look.
static PAGE: AtomicUsize = AtomicUsize::new(UNKNOWN);
const UNKNOWN: usize = 0;
const NONE: usize = 1;

/// The file that stands for the device: a NUL-terminated path, or null for
/// [`DEVICE`]. Only the tests change it (`set_path`).
#[cfg(feature = "internals")]
static PATH: core::sync::atomic::AtomicPtr<libc::c_char> = core::sync::atomic::AtomicPtr::new(core::ptr::null_mut());

/// Where the vmclock driver puts its first device.
const DEVICE: &core::ffi::CStr = c"/dev/vmclock0";

/// How many bytes are mapped: one page (the driver maps exactly one; the
/// kernel rounds a shorter length up to its page size).
const MAP_LEN: usize = 4096;

/// `VMCLOCK_MAGIC`: "VCLK" read as a little-endian 32-bit word.
const MAGIC: u32 = 0x4b4c_4356;
/// The ABI version this reads.
const VERSION: u16 = 1;
/// `VMCLOCK_FLAG_VM_GEN_COUNTER_PRESENT`.
const FLAG_VM_GEN_COUNTER_PRESENT: u64 = 1 << 8;

/// Offsets in `struct vmclock_abi` (all fields little-endian).
const OFF_MAGIC: usize = 0;
const OFF_SIZE: usize = 4;
const OFF_VERSION: usize = 8;
const OFF_SEQ_COUNT: usize = 12;
const OFF_FLAGS: usize = 24;
const OFF_VM_GENERATION: usize = 104;
/// The bytes the header must say the structure has: up to the end of the
/// counter.
const MIN_SIZE: usize = OFF_VM_GENERATION + 8;

/// How many times a read under the sequence count is tried before the page
/// is taken to have no readable counter.
pub(crate) const MAX_READS: usize = 1024;

/// Makes the process look for the page at `path` (NUL-terminated, kept for
/// the life of the process) instead of the device: for the tests, before
/// the first look.
#[cfg(feature = "internals")]
pub(crate) fn set_path(path: &'static core::ffi::CStr) {
    PATH.store(path.as_ptr().cast_mut(), Relaxed);
}

/// Whether this process has a VMClock page with a VM generation counter.
/// Looks once.
pub(crate) fn available() -> bool {
    page().is_some()
}

/// The VM generation counter, read under the sequence count: `None` where
/// there is none ([`available`]), or when an update of the page did not
/// end within [`MAX_READS`] reads.
#[inline]
pub(crate) fn generation() -> Option<u64> {
    // SAFETY: `page` gives a page that `look_up` mapped and checked and
    // that stays mapped for the life of the process.
    page().and_then(|p| unsafe { read_generation(p) })
}

fn page() -> Option<*const u8> {
    let mut p = PAGE.load(Acquire);
    if p == UNKNOWN {
        p = look_up();
    }
    (p != NONE).then_some(p as *const u8)
}

/// Maps and checks the page, once: the first look to finish is kept, and
/// a look that lost the race unmaps its own mapping.
#[cold]
#[inline(never)]
fn look_up() -> usize {
    #[cfg(feature = "internals")]
    let path = {
        let p = PATH.load(Relaxed);
        if p.is_null() { DEVICE.as_ptr() } else { p.cast_const() }
    };
    #[cfg(not(feature = "internals"))]
    let path = DEVICE.as_ptr();
    // SAFETY: `path` is NUL-terminated and lives as long as the process
    // (a literal, or the tests' leaked string).
    let found = unsafe { map_checked(path) }.map_or(NONE, |p| p as usize);
    match PAGE.compare_exchange(UNKNOWN, found, Relaxed, Acquire) {
        Ok(_) => found,
        Err(other) => {
            if found != NONE {
                // SAFETY: the mapping made above, never handed out.
                unsafe { libc::munmap(found as *mut libc::c_void, MAP_LEN) };
            }
            other
        }
    }
}

/// Opens the file at `path`, maps its first page read-only and shared, and
/// returns it if it holds a VMClock structure with a VM generation counter
/// that can be read; otherwise unmaps it and returns `None`.
///
/// # Safety
/// `path` is a NUL-terminated string.
pub(crate) unsafe fn map_checked(path: *const libc::c_char) -> Option<*const u8> {
    // SAFETY: a NUL-terminated path; the descriptor is closed below.
    let fd = unsafe { libc::syscall(libc::SYS_openat, libc::AT_FDCWD, path, libc::O_RDONLY | libc::O_CLOEXEC) }
        as libc::c_int;
    if fd < 0 {
        return None;
    }
    // SAFETY: `stat` is plain data, valid when zeroed, and fstat fills it.
    let mut st: libc::stat = unsafe { core::mem::zeroed() };
    // SAFETY: `fd` is open and `st` a valid out-pointer; on the supported
    // targets libc's `struct stat` is the kernel's.
    let stat_ok = unsafe { libc::syscall(libc::SYS_fstat, fd, &mut st as *mut libc::stat) } == 0;
    // The device, or (the tests) a regular file long enough: a read of a
    // mapped page that lies wholly past the end of a file raises SIGBUS,
    // and bytes past its end read as zeroes.
    let kind = st.st_mode & libc::S_IFMT;
    let mappable =
        stat_ok && (kind == libc::S_IFCHR || (kind == libc::S_IFREG && st.st_size >= MIN_SIZE as libc::off_t));
    let p = if mappable {
        // SAFETY: a new read-only shared mapping of the open file; it
        // replaces nothing.
        unsafe { libc::mmap(core::ptr::null_mut(), MAP_LEN, libc::PROT_READ, libc::MAP_SHARED, fd, 0) }
    } else {
        libc::MAP_FAILED
    };
    // SAFETY: closes the descriptor opened above; a mapping outlives it.
    unsafe { libc::syscall(libc::SYS_close, fd) };
    if p == libc::MAP_FAILED {
        return None;
    }
    let p = p as *const u8;
    // SAFETY: `p` is the mapping just made, MAP_LEN readable bytes.
    if unsafe { header_valid(p) && read_generation(p).is_some() } {
        return Some(p);
    }
    // SAFETY: the mapping made above, never handed out.
    unsafe { libc::munmap(p as *mut libc::c_void, MAP_LEN) };
    None
}

/// Whether the constant fields at `p` describe a `struct vmclock_abi` of
/// version 1 that reaches past the VM generation counter, with the flag
/// that says the counter is kept (read under the sequence count).
///
/// # Safety
/// `p` is [`MAP_LEN`] readable bytes, 8-byte aligned.
unsafe fn header_valid(p: *const u8) -> bool {
    // SAFETY: the fields lie within the page, at their natural alignment.
    unsafe {
        let magic = u32::from_le(load(p, OFF_MAGIC));
        let size = u32::from_le(load(p, OFF_SIZE)) as usize;
        let version = u16::from_le(load(p, OFF_VERSION));
        if magic != MAGIC || version != VERSION || size < MIN_SIZE {
            return false;
        }
        read_consistent(p, |p| u64::from_le(load::<u64>(p, OFF_FLAGS)))
            .is_some_and(|flags| flags & FLAG_VM_GEN_COUNTER_PRESENT != 0)
    }
}

/// The VM generation counter at `p`, read under the sequence count.
///
/// # Safety
/// As for [`header_valid`].
#[inline]
unsafe fn read_generation(p: *const u8) -> Option<u64> {
    // SAFETY: forwarded from the caller.
    unsafe { read_consistent(p, |p| u64::from_le(load::<u64>(p, OFF_VM_GENERATION))) }
}

/// What `read` reads at `p` while the sequence count stays even and the
/// same, or `None` when it does not within [`MAX_READS`] tries.
///
/// # Safety
/// As for [`header_valid`]; `read` reads only within the page.
#[inline]
unsafe fn read_consistent(p: *const u8, read: impl Fn(*const u8) -> u64) -> Option<u64> {
    for _ in 0..MAX_READS {
        // SAFETY: the count lies within the page, 4-byte aligned.
        let before = u32::from_le(unsafe { load(p, OFF_SEQ_COUNT) });
        fence(Acquire);
        if before & 1 == 0 {
            let value = read(p);
            fence(Acquire);
            // SAFETY: as above.
            if u32::from_le(unsafe { load(p, OFF_SEQ_COUNT) }) == before {
                return Some(value);
            }
        }
        core::hint::spin_loop();
    }
    None
}

/// A volatile load of the `T` at `p + offset`: the hypervisor may change it
/// at any time.
///
/// # Safety
/// `p + offset` is readable and aligned for `T`.
#[inline(always)]
unsafe fn load<T: Copy>(p: *const u8, offset: usize) -> T {
    // SAFETY: forwarded from the caller.
    unsafe { core::ptr::read_volatile(p.add(offset).cast::<T>()) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::vec::Vec;

    /// A page as the hypervisor would lay it out.
    fn page(magic: u32, size: u32, version: u16, seq: u32, flags: u64, generation: u64) -> Vec<u8> {
        let mut b = std::vec![0u8; 4096];
        b[OFF_MAGIC..][..4].copy_from_slice(&magic.to_le_bytes());
        b[OFF_SIZE..][..4].copy_from_slice(&size.to_le_bytes());
        b[OFF_VERSION..][..2].copy_from_slice(&version.to_le_bytes());
        b[OFF_SEQ_COUNT..][..4].copy_from_slice(&seq.to_le_bytes());
        b[OFF_FLAGS..][..8].copy_from_slice(&flags.to_le_bytes());
        b[OFF_VM_GENERATION..][..8].copy_from_slice(&generation.to_le_bytes());
        b
    }

    /// Maps `bytes` written to a temporary file as the device would be.
    fn mapped(name: &str, bytes: &[u8]) -> Option<u64> {
        let path = std::format!("/tmp/randp-vmclock-{}-{name}", std::process::id());
        std::fs::write(&path, bytes).unwrap();
        let c = std::ffi::CString::new(path.clone()).unwrap();
        // SAFETY: a NUL-terminated path.
        let p = unsafe { map_checked(c.as_ptr()) };
        std::fs::remove_file(&path).unwrap();
        // SAFETY: a checked page, unmapped right after the read.
        p.map(|p| unsafe {
            let g = read_generation(p);
            libc::munmap(p as *mut libc::c_void, MAP_LEN);
            g.unwrap()
        })
    }

    const GOOD: u64 = FLAG_VM_GEN_COUNTER_PRESENT | 1;

    #[test]
    fn a_valid_page_gives_its_counter() {
        assert_eq!(mapped("valid", &page(MAGIC, 112, 1, 2, GOOD, 0x1234_5678_9abc)), Some(0x1234_5678_9abc));
        // A file as long as the structure, no more.
        assert_eq!(mapped("exact", &page(MAGIC, 112, 1, 0, GOOD, 7)[..MIN_SIZE]), Some(7));
    }

    #[test]
    fn a_page_that_fails_a_check_is_absent() {
        assert_eq!(mapped("magic", &page(MAGIC ^ 1, 112, 1, 2, GOOD, 7)), None);
        assert_eq!(mapped("version", &page(MAGIC, 112, 2, 2, GOOD, 7)), None);
        assert_eq!(mapped("size", &page(MAGIC, 111, 1, 2, GOOD, 7)), None);
        assert_eq!(mapped("flag", &page(MAGIC, 112, 1, 2, GOOD & !FLAG_VM_GEN_COUNTER_PRESENT, 7)), None);
        assert_eq!(mapped("odd", &page(MAGIC, 112, 1, 3, GOOD, 7)), None);
        assert_eq!(mapped("short", &page(MAGIC, 112, 1, 2, GOOD, 7)[..MIN_SIZE - 1]), None);
        assert_eq!(mapped("empty", &[]), None);
        // SAFETY: NUL-terminated paths.
        unsafe {
            assert!(map_checked(c"/nonexistent/vmclock0".as_ptr()).is_none());
            assert!(map_checked(c"/tmp".as_ptr()).is_none(), "a directory");
        }
    }

    /// The sequence count: a read that an update overlaps is made again.
    #[test]
    fn reads_follow_the_sequence_count() {
        // In words, so that the page is aligned as a mapping is.
        let bytes = page(MAGIC, 112, 1, 4, GOOD, 9);
        let mut words: Vec<u64> = bytes.chunks_exact(8).map(|c| u64::from_ne_bytes(c.try_into().unwrap())).collect();
        let p = words.as_mut_ptr().cast::<u8>();
        let calls = core::cell::Cell::new(0);
        // SAFETY: `p` is a 4,096-byte page; the reader writes within it
        // only through the raw pointer, as a hypervisor would.
        let v = unsafe {
            read_consistent(p, |q| {
                calls.set(calls.get() + 1);
                if calls.get() == 1 {
                    // An update comes in during the first read.
                    p.add(OFF_SEQ_COUNT).cast::<u32>().write_volatile(6u32.to_le());
                }
                u64::from_le(load::<u64>(q, OFF_VM_GENERATION))
            })
        };
        assert_eq!((v, calls.get()), (Some(9), 2));
        // SAFETY: as above.
        let stuck = unsafe {
            p.add(OFF_SEQ_COUNT).cast::<u32>().write_volatile(7u32.to_le());
            read_consistent(p, |_| unreachable!("nothing is read while the count is odd"))
        };
        assert_eq!(stuck, None);
    }

    /// Where the process has no such device (the machines that run the
    /// tests), there is none, and asking again changes nothing.
    #[test]
    fn absent_without_the_device() {
        // SAFETY: a NUL-terminated path.
        if unsafe { libc::access(DEVICE.as_ptr(), libc::R_OK) } != 0 {
            assert!(!available());
            assert_eq!(generation(), None);
            assert!(!available());
        }
    }
}
