//! The one thread-local word randp keeps: a pointer to the thread's state.
//!
//! It is defined and reached in assembly with the initial-exec TLS model, so
//! that every access is a load at a fixed offset from the thread pointer, also
//! when randp is inside a shared library loaded with dlopen. The compiler's
//! own thread-locals use the general-dynamic model there, whose
//! `__tls_get_addr` is slower and allocates on a thread's first access, which
//! a signal handler that interrupted `malloc` cannot afford. glibc keeps room
//! in every thread's static TLS block for such libraries' few bytes.
//!
//! The symbol is hidden (never exported from a shared object) and named after
//! [`ANCHOR`], whose mangled name carries this crate's hash: two copies of
//! randp in one program (two versions, or one version from two sources) each
//! have their own word and link side by side.

use core::sync::atomic::AtomicUsize;

/// Names the thread-local word: `<ANCHOR's symbol>.tls`.
#[used]
static ANCHOR: u8 = 0;

core::arch::global_asm!(
    ".pushsection .tbss.randp_thread_state,\"awT\",%nobits",
    ".p2align 3",
    ".globl {anchor}.tls",
    ".hidden {anchor}.tls",
    ".type {anchor}.tls,%object",
    ".size {anchor}.tls,8",
    "{anchor}.tls:",
    ".zero 8",
    ".popsection",
    anchor = sym ANCHOR,
);

/// This thread's slot. Zero in a new thread.
#[inline(always)]
pub(crate) fn slot() -> &'static AtomicUsize {
    let p: *const AtomicUsize;
    // SAFETY: computes the address of this thread's copy of the word defined
    // above: the thread pointer plus the offset the linker or loader puts in
    // the GOT entry. Reads only the GOT and the thread control block.
    #[cfg(target_arch = "x86_64")]
    unsafe {
        core::arch::asm!(
            "mov {p}, qword ptr fs:[0]",
            "add {p}, qword ptr [rip + {anchor}.tls@GOTTPOFF]",
            p = out(reg) p,
            anchor = sym ANCHOR,
            options(pure, readonly, nostack),
        );
    }
    // SAFETY: as above, with aarch64's TPIDR_EL0 as the thread pointer.
    #[cfg(target_arch = "aarch64")]
    unsafe {
        core::arch::asm!(
            "mrs {p}, tpidr_el0",
            "adrp {o}, :gottprel:{anchor}.tls",
            "ldr {o}, [{o}, #:gottprel_lo12:{anchor}.tls]",
            "add {p}, {p}, {o}",
            p = out(reg) p,
            o = out(reg) _,
            anchor = sym ANCHOR,
            options(pure, readonly, nostack, preserves_flags),
        );
    }
    // SAFETY: the word is 8-byte aligned, lives as long as the thread, and is
    // only ever accessed through this atomic view.
    unsafe { &*p }
}
