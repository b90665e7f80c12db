//! Windows (x86_64, Windows 10 and later): entropy from ProcessPrng, the
//! state in a page of its own from VirtualAlloc, released by a TLS callback
//! when any thread exits, and the thread-local word in the module's implicit
//! TLS block.
//!
//! - **Entropy**: ProcessPrng (bcryptprimitives.dll), the source Microsoft
//!   names as the primary interface to the user-mode RNG and the one Rust's
//!   std uses, through the `getrandom` crate, which reports its failure
//!   (documented never to happen on Windows 10 and later; Wine's can fail):
//!   it is returned, and the caller (`entropy`) aborts with its message. No
//!   weaker fallback.
//! - **State memory**: one committed page per thread from VirtualAlloc, so
//!   zeroed; VirtualLock keeps it out of the page file where the process's
//!   minimum working set allows (best effort, recorded). Zeroed, then freed
//!   with VirtualFree, at thread exit. There is no fork on Windows, so no
//!   wipe-on-fork to probe: a thread may always keep its state.
//! - **Thread exit**: a TLS callback (an entry of the `.CRT$XL*` array that
//!   the image's TLS directory names) runs on every thread that exits, with
//!   `DLL_THREAD_DETACH`, whoever created it (Rust, `CreateThread`,
//!   `_beginthreadex`), and on the thread that ends the process with
//!   `DLL_PROCESS_DETACH`; it runs the thread-exit hook, which releases
//!   the state this thread's word points at. Callbacks are per thread, not per fiber, as the word is (an FLS
//!   callback would run when a fiber is deleted, maybe on another thread).
//!   The module that holds randp pins itself in memory when it maps its
//!   first state (`GET_MODULE_HANDLE_EX_FLAG_PIN`, what `-z nodelete` does
//!   on Linux), so FreeLibrary never unloads the callback while threads
//!   that drew still run. A thread ended by TerminateThread runs no
//!   callback: its page stays allocated until the process ends.
//! - **The thread-local word**: an 8-byte variable in the module's `.tls$`
//!   section, reached as compilers reach `thread_local` variables (the
//!   thread's TLS array from the TEB, the module's `_tls_index`, the
//!   variable's section offset): four instructions and no call. Rust's own
//!   `thread_local!` calls TlsGetValue on this target.

use core::ffi::c_void;
use core::ptr::NonNull;
use core::sync::atomic::{AtomicBool, AtomicU8, AtomicUsize, Ordering::Relaxed};
use windows_sys::Win32::Foundation::{HMODULE, INVALID_HANDLE_VALUE};
use windows_sys::Win32::Storage::FileSystem::WriteFile;
use windows_sys::Win32::System::Console::{GetStdHandle, STD_ERROR_HANDLE};
use windows_sys::Win32::System::LibraryLoader::{
    GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS, GET_MODULE_HANDLE_EX_FLAG_PIN, GetModuleHandleExW,
};
use windows_sys::Win32::System::Memory::{
    MEM_COMMIT, MEM_RELEASE, MEM_RESERVE, PAGE_READWRITE, VirtualAlloc, VirtualFree, VirtualLock,
};
use windows_sys::Win32::System::SystemServices::{DLL_PROCESS_DETACH, DLL_THREAD_DETACH};

use super::STATE_LEN;

/// Why ProcessPrng could not fill a buffer, as the `getrandom` crate
/// reports it.
pub(crate) struct EntropyError(getrandom::Error);

impl core::fmt::Display for EntropyError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "ProcessPrng: {}", self.0)
    }
}

/// Fills the `len` bytes at `dst` from ProcessPrng, or returns its error;
/// the bytes are then not all written.
///
/// # Safety
/// `dst` is valid for writes of `len` bytes.
pub(crate) unsafe fn fill_entropy(dst: *mut u8, len: usize) -> Result<(), EntropyError> {
    // SAFETY: the caller guarantees `len` writable bytes at `dst`;
    // getrandom only writes them.
    let buf = unsafe { core::slice::from_raw_parts_mut(dst.cast::<core::mem::MaybeUninit<u8>>(), len) };
    getrandom::fill_uninit(buf).map(|_| ()).map_err(EntropyError)
}

/// `FAST_FAIL_FATAL_APP_EXIT`, the code Rust's std passes to `__fastfail`.
const FAST_FAIL_FATAL_APP_EXIT: u32 = 7;

/// Writes `msg` to the standard error handle and ends the process with
/// `__fastfail`, as Rust's `std::process::abort` does on Windows: no
/// exception handler runs, and the exit status is `STATUS_STACK_BUFFER_OVERRUN`
/// (0xC0000409).
pub(crate) fn write_stderr_and_abort(msg: &[u8]) -> ! {
    // SAFETY: GetStdHandle has no preconditions; WriteFile reads `msg` for
    // the length given (messages are short) and fails harmlessly on a closed
    // or absent handle. `int 0x29` (__fastfail) never returns.
    unsafe {
        let h = GetStdHandle(STD_ERROR_HANDLE);
        if !h.is_null() && h != INVALID_HANDLE_VALUE {
            let mut written = 0u32;
            WriteFile(h, msg.as_ptr(), msg.len().min(u32::MAX as usize) as u32, &mut written, core::ptr::null_mut());
        }
        core::arch::asm!("int 0x29", in("ecx") FAST_FAIL_FATAL_APP_EXIT, options(noreturn, nostack));
    }
}

/// Always true: there is no fork on Windows.
pub(crate) fn userspace_state_allowed() -> bool {
    true
}

/// How the last page was mapped: 0 none yet, 1 locked, 2 not locked.
static LAST_KIND: AtomicU8 = AtomicU8::new(0);

/// Maps one committed, zeroed [`STATE_LEN`]-byte page and locks it where
/// the working set allows; `None` if the system has no memory.
pub(in crate::os) fn map_page() -> Option<NonNull<u8>> {
    pin_module();
    // SAFETY: a fresh allocation at an address of the system's choosing
    // touches no existing memory.
    let p = unsafe { VirtualAlloc(core::ptr::null(), STATE_LEN, MEM_COMMIT | MEM_RESERVE, PAGE_READWRITE) };
    let p = NonNull::new(p.cast::<u8>())?;
    // SAFETY: `p` is the page just committed. Locking changes only how the
    // memory manager treats it; a refusal costs only hygiene (the page file).
    let locked = unsafe { VirtualLock(p.as_ptr().cast(), STATE_LEN) } != 0;
    LAST_KIND.store(if locked { 1 } else { 2 }, Relaxed);
    Some(p)
}

/// No extension on Windows: a thread's buffer stays on its state page. (A
/// buffer that grows would need the extension locked, and VirtualLock draws
/// on a small working set that every thread's state page already uses.)
pub(in crate::os) const EXTENSION_LEN: usize = 0;

/// Nothing to lock: see [`EXTENSION_LEN`].
pub(in crate::os) fn lock_extension(_p: NonNull<u8>) -> usize {
    0
}

/// Zeroes and frees a page from [`map_page`] (which also unlocks it).
///
/// # Safety
/// `p` came from `map_page()`, is not used afterwards, and nothing else refers to it.
pub(in crate::os) unsafe fn unmap_page(p: NonNull<u8>) {
    // SAFETY: the caller hands over the whole page: it is zeroed, so no key
    // or output outlives it, then released.
    unsafe {
        zeroize::Zeroize::zeroize(core::slice::from_raw_parts_mut(p.as_ptr(), STATE_LEN));
        VirtualFree(p.as_ptr().cast(), 0, MEM_RELEASE);
    }
}

/// How the state pages are mapped: `"virtualalloc+lock"` or
/// `"virtualalloc"` (`None` before the first state is mapped).
#[cfg(feature = "internals")]
pub(crate) fn state_mapping() -> Option<&'static str> {
    match LAST_KIND.load(Relaxed) {
        1 => Some("virtualalloc+lock"),
        2 => Some("virtualalloc"),
        _ => None,
    }
}

/// Pins the module (DLL or program) that holds randp, once: FreeLibrary
/// then never unmaps the TLS callback that releases the states of threads
/// still running.
fn pin_module() {
    static PINNED: AtomicBool = AtomicBool::new(false);
    if PINNED.load(Relaxed) {
        return;
    }
    let mut module: HMODULE = core::ptr::null_mut();
    // SAFETY: FROM_ADDRESS takes any address inside the module (this
    // function's); `module` is a valid out-pointer. A failure leaves the
    // module unpinned, as a program's always is.
    unsafe {
        GetModuleHandleExW(
            GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS | GET_MODULE_HANDLE_EX_FLAG_PIN,
            pin_module as *const () as *const u16,
            &mut module,
        )
    };
    PINNED.store(true, Relaxed);
}

/// Called by the loader for every thread that starts or exits, and when the
/// process starts or ends; runs the thread-exit hook (with 0: the state in
/// this thread's slot) on a thread that exits.
unsafe extern "system" fn on_thread_event(_module: *mut c_void, reason: u32, _reserved: *mut c_void) {
    if reason == DLL_THREAD_DETACH || reason == DLL_PROCESS_DETACH {
        super::thread_exited(0);
    }
}

/// The TLS callback: `.CRT$XLB` sorts between the C runtime's `.CRT$XLA`
/// and `.CRT$XLZ`, which delimit the array the TLS directory points at (as
/// Rust's std registers its own).
#[used]
#[unsafe(link_section = ".CRT$XLB")]
static THREAD_EXIT_CALLBACK: unsafe extern "system" fn(*mut c_void, u32, *mut c_void) = on_thread_event;

/// The TLS callback runs the thread-exit hook on every thread at exit; this
/// reads the callback's address, so that a program linking randp's static
/// library keeps the object that holds it. Always true.
pub(in crate::os) fn release_at_thread_exit(_p: NonNull<u8>) -> bool {
    // SAFETY: a read of a static.
    let _ = unsafe { core::ptr::read_volatile(&raw const THREAD_EXIT_CALLBACK) };
    true
}

/// Names the thread-local block (the slot and the counts word, see
/// `os::counts`): `<ANCHOR's symbol>.tls`, so that two copies
/// of randp in one program each have their own.
#[used]
static ANCHOR: u8 = 0;

core::arch::global_asm!(
    ".pushsection .tls$,\"dw\"",
    ".p2align 4", // the two words never straddle a cache line
    ".globl {anchor}.tls",
    "{anchor}.tls:",
    ".quad 0, 0",
    ".popsection",
    anchor = sym ANCHOR,
);

/// This thread's slot. Zero in a new thread.
#[inline(always)]
pub(crate) fn slot() -> &'static AtomicUsize {
    let p: *const AtomicUsize;
    // SAFETY: computes the address of this thread's copy of the word defined
    // above: the TEB's ThreadLocalStoragePointer (gs:[0x58]) indexed by the
    // module's `_tls_index`, plus the word's offset in the `.tls` section.
    // Reads only the TEB, the thread's TLS array and `_tls_index`. The
    // result is fixed for the thread's life (the loader may move the array
    // when it loads another module with TLS, never the blocks it points
    // at), so the assembly claims `nomem`, as on Linux: the compiler
    // computes the address once in a function.
    unsafe {
        core::arch::asm!(
            "mov {i:e}, dword ptr [rip + _tls_index]",
            "mov {p}, qword ptr gs:[0x58]",
            "mov {p}, qword ptr [{p} + 8*{i}]",
            "lea {p}, [{p} + {anchor}.tls@SECREL32]",
            i = out(reg) _,
            p = out(reg) p,
            anchor = sym ANCHOR,
            options(pure, nomem, nostack, preserves_flags),
        );
    }
    // SAFETY: the word is 8-byte aligned, lives as long as the thread, and is
    // only ever accessed through this atomic view.
    unsafe { &*p }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(feature = "internals")]
    #[test]
    fn pages_are_mapped_and_locked_where_allowed() {
        let p = crate::os::map::<[u8; 64]>().expect("a page is mapped");
        assert!(matches!(state_mapping(), Some("virtualalloc+lock" | "virtualalloc")));
        // SAFETY: mapped just above and not used again.
        unsafe { crate::os::unmap(p) };
    }
}
