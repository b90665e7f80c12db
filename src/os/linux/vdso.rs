//! The kernel's vDSO getrandom (Linux 6.11+ on x86_64, 6.14+ on aarch64):
//! the kernel's own random bytes without a system call, from an opaque
//! per-thread state that the kernel keeps current. It checks the kernel
//! RNG's generation at every call, so after the kernel reseeds (as the
//! vmgenid driver makes it do when a VM snapshot is restored) it never
//! repeats what it gave before.
//!
//! The function is found once per process, in the dynamic symbol table of
//! the vDSO image that the kernel maps and names in the auxiliary vector
//! (AT_SYSINFO_EHDR). Its state is memory the caller allocates as the
//! kernel says (the answer to the call with `opaque_len == !0`): here the
//! kernel must ask for no more than [`STATE_ROOM`] bytes of private,
//! read-write, droppable memory, which is what a thread's state page is
//! (`state_memory`); otherwise, or where the vDSO has no getrandom, there
//! is none ([`available`] is false).
//!
//! A state is not safe to share between threads; the kernel's function
//! itself falls back to the system call when it finds its state in use (a
//! signal handler calling it on the thread it interrupted).

use super::EntropyError;
use core::sync::atomic::{AtomicUsize, Ordering::Relaxed};

/// The room a caller keeps for one state, 64-byte aligned and within one
/// page (the kernel's state is 144 bytes on the kernels of 2026).
pub(crate) const STATE_ROOM: usize = 192;

/// `vgetrandom(buffer, len, flags, opaque_state, opaque_len)`.
type VGetrandom = unsafe extern "C" fn(*mut u8, usize, libc::c_uint, *mut u8, usize) -> isize;

/// The function's address, [`NONE`] when there is none, or [`UNKNOWN`]
/// before the first look.
static FUNCTION: AtomicUsize = AtomicUsize::new(UNKNOWN);
/// The length the kernel gave for its state (valid once `FUNCTION` is).
static STATE_LEN: AtomicUsize = AtomicUsize::new(0);
const UNKNOWN: usize = 0;
const NONE: usize = 1;

/// The symbol's name in this architecture's vDSO.
#[cfg(target_arch = "x86_64")]
const SYMBOL: &[u8] = b"__vdso_getrandom";
#[cfg(target_arch = "aarch64")]
const SYMBOL: &[u8] = b"__kernel_getrandom";
#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
const SYMBOL: &[u8] = b"";

/// The parameters the kernel answers the call with `opaque_len == !0`
/// with (`struct vgetrandom_opaque_params`).
#[repr(C)]
#[derive(Default)]
struct Params {
    size_of_opaque_state: u32,
    mmap_prot: u32,
    mmap_flags: u32,
    reserved: [u32; 13],
}

/// Whether this process has the vDSO's getrandom with a state that fits a
/// thread's state page. Looks once.
pub(crate) fn available() -> bool {
    function().is_some()
}

/// The function's address, or 0 where there is none.
#[cfg(feature = "internals")]
pub(crate) fn entry() -> usize {
    function().map_or(0, |(f, _)| f as usize)
}

fn function() -> Option<(VGetrandom, usize)> {
    let mut f = FUNCTION.load(Relaxed);
    if f == UNKNOWN {
        f = look_up();
        FUNCTION.store(f, Relaxed);
    }
    if f == NONE {
        return None;
    }
    // SAFETY: every value other than UNKNOWN and NONE that `FUNCTION` holds
    // is the address of the vDSO's getrandom (`look_up`), of this type.
    let f = unsafe { core::mem::transmute::<usize, VGetrandom>(f) };
    Some((f, STATE_LEN.load(Relaxed)))
}

/// Finds the function and asks it for its state's needs; NONE unless they
/// fit a droppable state page.
#[cold]
fn look_up() -> usize {
    // SAFETY: getauxval reads the process's auxiliary vector; 0 means the
    // entry is absent.
    let base = unsafe { libc::getauxval(libc::AT_SYSINFO_EHDR) } as usize;
    if base == 0 || SYMBOL.is_empty() {
        return NONE;
    }
    // SAFETY: the kernel maps a complete ELF image of the vDSO at `base`,
    // readable for the life of the process.
    let Some(addr) = (unsafe { elf::find_function(base, SYMBOL) }) else { return NONE };
    // SAFETY: `addr` is the vDSO's getrandom.
    let f = unsafe { core::mem::transmute::<usize, VGetrandom>(addr) };
    let mut params = Params::default();
    // SAFETY: the call the kernel's ABI defines to ask for the state's
    // parameters: no buffer, no length, no flags, `opaque_len` all ones and
    // `opaque_state` pointing at the parameters, which it writes.
    let r = unsafe { f(core::ptr::null_mut(), 0, 0, (&raw mut params).cast(), !0) };
    let len = params.size_of_opaque_state as usize;
    let rw = (libc::PROT_READ | libc::PROT_WRITE) as u32;
    let droppable = (libc::MAP_DROPPABLE | libc::MAP_ANONYMOUS) as u32;
    if r != 0 || len == 0 || len > STATE_ROOM || params.mmap_prot != rw || params.mmap_flags & !droppable != 0 {
        return NONE;
    }
    STATE_LEN.store(len, Relaxed);
    addr
}

/// Fills the `len` bytes at `dst` from the vDSO's getrandom with the
/// thread's state at `state`: `None` when the process has no such function
/// ([`available`]), else whether it filled them (any error but EINTR, which
/// is retried, is returned).
///
/// # Safety
/// `dst` is valid for writes of `len` bytes; `state` is [`STATE_ROOM`]
/// bytes of droppable memory, 64-byte aligned, that only this thread uses
/// and only through this function (zeroed, or as the last call left it).
pub(crate) unsafe fn fill(state: *mut u8, dst: *mut u8, len: usize) -> Option<Result<(), EntropyError>> {
    let (f, state_len) = function()?;
    let mut done = 0;
    while done < len {
        // SAFETY: the caller guarantees `dst` and the state; the kernel
        // writes at most `len - done` bytes from `dst + done`.
        let n = unsafe { f(dst.add(done), len - done, 0, state, state_len) };
        if n > 0 {
            done += n as usize;
            continue;
        }
        let errno = if n == 0 { 0 } else { (-n) as i32 };
        if errno != libc::EINTR {
            return Some(Err(EntropyError { call: "vDSO getrandom", errno }));
        }
    }
    Some(Ok(()))
}

/// The dynamic symbol lookup in the vDSO's ELF image: what the kernel's
/// reference parser (tools/testing/selftests/vDSO/parse_vdso.c) does, for
/// one function and 64-bit images, with every index checked against the
/// table it indexes.
mod elf {
    use libc::{Elf64_Ehdr, Elf64_Phdr, Elf64_Sym, PT_DYNAMIC, PT_LOAD};

    const DT_NULL: i64 = 0;
    const DT_HASH: i64 = 4;
    const DT_STRTAB: i64 = 5;
    const DT_SYMTAB: i64 = 6;
    const STT_FUNC: u8 = 2;
    const STB_GLOBAL: u8 = 1;
    const STB_WEAK: u8 = 2;
    /// How many dynamic entries are read at most (the vDSO has a dozen).
    const MAX_DYNAMIC: usize = 64;

    /// The address of the defined global function `name` in the ELF image
    /// at `base`, or `None`.
    ///
    /// # Safety
    /// `base` is the start of a complete ELF image mapped readable, whose
    /// tables lie in it (the kernel's vDSO).
    pub(super) unsafe fn find_function(base: usize, name: &[u8]) -> Option<usize> {
        // SAFETY: forwarded from the caller: the headers, dynamic section,
        // hash table, symbols and strings the image's own offsets name.
        unsafe {
            let eh = &*(base as *const Elf64_Ehdr);
            if eh.e_ident[..4] != *b"\x7fELF"
                || eh.e_ident[4] != 2
                || eh.e_phentsize as usize != size_of::<Elf64_Phdr>()
            {
                return None;
            }
            let phdrs =
                core::slice::from_raw_parts((base + eh.e_phoff as usize) as *const Elf64_Phdr, eh.e_phnum as usize);
            let load = phdrs.iter().find(|p| p.p_type == PT_LOAD)?;
            // What to add to a link-time address to find it in memory.
            let bias = (base + load.p_offset as usize).wrapping_sub(load.p_vaddr as usize);
            let dynamic = phdrs.iter().find(|p| p.p_type == PT_DYNAMIC)?;
            let dynamic = (base + dynamic.p_offset as usize) as *const [i64; 2];
            let (mut hash, mut strtab, mut symtab) = (0, 0, 0);
            for i in 0..MAX_DYNAMIC {
                let [tag, value] = *dynamic.add(i);
                let addr = (value as usize).wrapping_add(bias);
                match tag {
                    DT_NULL => break,
                    DT_HASH => hash = addr,
                    DT_STRTAB => strtab = addr,
                    DT_SYMTAB => symtab = addr,
                    _ => {}
                }
            }
            if hash == 0 || strtab == 0 || symtab == 0 {
                return None;
            }
            // DT_HASH: nbucket, nchain, then the buckets and the chains;
            // nchain is the number of symbols.
            let nsyms = *(hash as *const u32).add(1) as usize;
            let syms = core::slice::from_raw_parts(symtab as *const Elf64_Sym, nsyms);
            syms.iter().find_map(|s| {
                let (bind, kind) = (s.st_info >> 4, s.st_info & 0xf);
                let defined = s.st_shndx != 0 && s.st_value != 0;
                let wanted = kind == STT_FUNC && (bind == STB_GLOBAL || bind == STB_WEAK) && defined;
                // The name, compared a byte at a time up to its terminator.
                let named = wanted && {
                    let sym_name = (strtab + s.st_name as usize) as *const u8;
                    name.iter().enumerate().all(|(i, &b)| *sym_name.add(i) == b) && *sym_name.add(name.len()) == 0
                };
                named.then(|| (s.st_value as usize).wrapping_add(bias))
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The kernels that run the tests (Linux 6.18 on x86_64) have the
    /// function; under qemu-user there is no vDSO getrandom.
    #[test]
    fn fills_from_the_vdso_where_the_kernel_has_it() {
        if std::env::var_os("RANDP_TEST_EMULATOR").is_some() {
            assert!(!available(), "qemu-user has no vDSO getrandom");
            return;
        }
        assert!(available(), "this kernel's vDSO has getrandom with a state that fits a page");
        // Aligned so that it lies in one page, as the kernel requires
        // (EFAULT otherwise), as a state page's room does.
        #[repr(C, align(256))]
        struct Room([u8; STATE_ROOM]);
        let mut state = Room([0; STATE_ROOM]);
        let (mut a, mut b) = ([0u8; 32], [0u8; 32]);
        // SAFETY: 32-byte buffers; a zeroed, aligned state only this test uses.
        unsafe {
            assert!(fill(state.0.as_mut_ptr(), a.as_mut_ptr(), 32).unwrap().is_ok());
            assert!(fill(state.0.as_mut_ptr(), b.as_mut_ptr(), 32).unwrap().is_ok());
        }
        assert_ne!(a, [0; 32]);
        assert_ne!(a, b);
        assert_ne!(state.0, [0; STATE_ROOM], "the kernel keeps its state in the room given");
    }

    /// Control: a name the vDSO does not export is not found.
    #[test]
    fn an_absent_name_is_not_found() {
        // SAFETY: getauxval reads the auxiliary vector.
        let base = unsafe { libc::getauxval(libc::AT_SYSINFO_EHDR) } as usize;
        if base == 0 {
            return;
        }
        // SAFETY: the kernel's vDSO image.
        unsafe {
            assert!(elf::find_function(base, b"__vdso_no_such_function").is_none());
            assert!(elf::find_function(base, b"__vdso_getrandom_").is_none());
            #[cfg(target_arch = "x86_64")]
            assert!(elf::find_function(base, b"__vdso_clock_gettime").is_some());
        }
    }
}
