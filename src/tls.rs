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
//! The symbol is hidden (never exported from a shared object) and carries the
//! crate version, so two versions of randp can be linked into one program.

use core::sync::atomic::AtomicUsize;

macro_rules! slot_symbol {
    () => {
        concat!(
            "__randp_thread_state_",
            env!("CARGO_PKG_VERSION_MAJOR"),
            "_",
            env!("CARGO_PKG_VERSION_MINOR"),
            "_",
            env!("CARGO_PKG_VERSION_PATCH")
        )
    };
}

core::arch::global_asm!(
    concat!(".pushsection .tbss.", slot_symbol!(), ",\"awT\",%nobits"),
    ".p2align 3",
    concat!(".globl ", slot_symbol!()),
    concat!(".hidden ", slot_symbol!()),
    concat!(".type ", slot_symbol!(), ",%object"),
    concat!(".size ", slot_symbol!(), ",8"),
    concat!(slot_symbol!(), ":"),
    ".zero 8",
    ".popsection",
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
            concat!("add {p}, qword ptr [rip + ", slot_symbol!(), "@GOTTPOFF]"),
            p = out(reg) p,
            options(pure, readonly, nostack),
        );
    }
    // SAFETY: as above, with aarch64's TPIDR_EL0 as the thread pointer.
    #[cfg(target_arch = "aarch64")]
    unsafe {
        core::arch::asm!(
            "mrs {p}, tpidr_el0",
            concat!("adrp {o}, :gottprel:", slot_symbol!()),
            concat!("ldr {o}, [{o}, #:gottprel_lo12:", slot_symbol!(), "]"),
            "add {p}, {p}, {o}",
            p = out(reg) p,
            o = out(reg) _,
            options(pure, readonly, nostack, preserves_flags),
        );
    }
    // SAFETY: the word is 8-byte aligned, lives as long as the thread, and is
    // only ever accessed through this atomic view.
    unsafe { &*p }
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::sync::atomic::Ordering::Relaxed;

    #[test]
    fn each_thread_has_its_own_zeroed_slot() {
        let here = slot() as *const AtomicUsize as usize;
        let (there, value) = std::thread::spawn(|| {
            let s = slot();
            let v = s.load(Relaxed);
            s.store(77, Relaxed);
            (s as *const AtomicUsize as usize, v)
        })
        .join()
        .unwrap();
        assert_ne!(here, there);
        assert_eq!(value, 0, "a new thread's slot starts at zero");
        assert_eq!(here % 8, 0);
    }
}
