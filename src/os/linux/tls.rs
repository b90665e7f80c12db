//! The thread-local block randp keeps: four words, a pointer to the thread's
//! state ([`slot`]), its buffer's counts ([`crate::os::counts`]) and the
//! bounds of its stack ([`stack_words`], see `super::stack`).
//!
//! It is defined and reached in assembly. With glibc every access uses the
//! initial-exec TLS model: a load at a fixed offset from the thread pointer,
//! also when randp is inside a shared library loaded with dlopen. The
//! compiler's general-dynamic model would call glibc's `__tls_get_addr`,
//! which is slower and allocates on a thread's first access, which a signal
//! handler that interrupted `malloc` cannot afford; glibc keeps room in every
//! thread's static TLS block for such libraries' few bytes.
//!
//! musl's loader gives initial-exec TLS only to the libraries loaded at
//! startup and refuses `dlopen` of any other that uses it, so there the block
//! is reached through a TLS descriptor (the "TLSDESC" dialect of the general-
//! dynamic model): a call, through the descriptor, of a resolver that
//! returns the block's offset from the thread pointer and changes no other
//! register. musl's resolvers allocate nothing (its `dlopen` sets up the new
//! module's TLS for every thread), so this is safe in a signal handler, and
//! a shared object containing randp (a plugin, a Rust `cdylib` such as a
//! Python extension) loads with `dlopen`. In an executable the linker turns
//! the descriptor call into the initial-exec or local-exec load.
//!
//! The symbol is hidden (never exported from a shared object) and named after
//! [`ANCHOR`], whose mangled name carries this crate's hash: two copies of
//! randp in one program (two versions, or one version from two sources) each
//! have their own block and link side by side.
//!
//! The block's address is fixed for the thread's life: the thread pointer is
//! set when the thread starts, and the offset (in the GOT or the TLS
//! descriptor) is written by the loader before randp's code can run and
//! never again. So [`slot`]'s assembly claims `nomem`: the compiler computes
//! the address once in a function and reuses it, also for the counts word
//! beside the slot, where `readonly` would have it computed again after each
//! store (a word draw stores the busy mark and zeroes the bytes it hands out
//! before it stores the counts word).

use core::sync::atomic::AtomicUsize;

/// Names the thread-local block: `<ANCHOR's symbol>.tls`.
#[used]
static ANCHOR: u8 = 0;

core::arch::global_asm!(
    ".pushsection .tbss.randp_thread_state,\"awT\",%nobits",
    ".p2align 5", // the four words never straddle a cache line
    ".globl {anchor}.tls",
    ".hidden {anchor}.tls",
    ".type {anchor}.tls,%object",
    ".size {anchor}.tls,32",
    "{anchor}.tls:",
    ".zero 32",
    ".popsection",
    anchor = sym ANCHOR,
);

/// This thread's slot. Zero in a new thread.
#[inline(always)]
pub(crate) fn slot() -> &'static AtomicUsize {
    let p: *const AtomicUsize;
    // SAFETY: computes the address of this thread's copy of the block defined
    // above: the thread pointer plus the offset the linker or loader puts in
    // the GOT entry. Reads only the GOT entry and the thread control block's
    // pointer to itself, which no code changes while the thread runs (see
    // the module docs on `nomem`).
    #[cfg(all(target_env = "gnu", target_arch = "x86_64"))]
    unsafe {
        core::arch::asm!(
            "mov {p}, qword ptr fs:[0]",
            "add {p}, qword ptr [rip + {anchor}.tls@GOTTPOFF]",
            p = out(reg) p,
            anchor = sym ANCHOR,
            options(pure, nomem, nostack),
        );
    }
    // SAFETY: as above, with aarch64's TPIDR_EL0 as the thread pointer.
    #[cfg(all(target_env = "gnu", target_arch = "aarch64"))]
    unsafe {
        core::arch::asm!(
            "mrs {p}, tpidr_el0",
            "adrp {o}, :gottprel:{anchor}.tls",
            "ldr {o}, [{o}, #:gottprel_lo12:{anchor}.tls]",
            "add {p}, {p}, {o}",
            p = out(reg) p,
            o = out(reg) _,
            anchor = sym ANCHOR,
            options(pure, nomem, nostack, preserves_flags),
        );
    }
    // SAFETY: the block's offset from the thread pointer comes from the
    // resolver the block's TLS descriptor names (or, in an executable, from
    // what the linker made of the sequence), called as the TLSDESC ABI
    // prescribes: the descriptor's address in rax, the call through its
    // first word, the offset returned in rax and every other register
    // preserved but the flags. The call pushes a return address, so the
    // block does not claim `nostack`; the resolvers need no particular stack
    // alignment.
    #[cfg(all(target_env = "musl", target_arch = "x86_64"))]
    unsafe {
        core::arch::asm!(
            "lea rax, [rip + {anchor}.tls@TLSDESC]",
            "call qword ptr [rax + {anchor}.tls@TLSCALL]",
            "add rax, qword ptr fs:[0]",
            out("rax") p,
            anchor = sym ANCHOR,
            options(pure, nomem),
        );
    }
    // SAFETY: as above, for aarch64's TLSDESC ABI: the descriptor's address
    // in x0, its resolver loaded into x1 and called with blr (which sets
    // x30), the offset returned in x0 and every other general register
    // preserved; the ABI lets the resolver change the flags, so the block
    // does not claim to preserve them. TPIDR_EL0 is the thread pointer.
    #[cfg(all(target_env = "musl", target_arch = "aarch64"))]
    unsafe {
        core::arch::asm!(
            "adrp x0, :tlsdesc:{anchor}.tls",
            "ldr x1, [x0, #:tlsdesc_lo12:{anchor}.tls]",
            "add x0, x0, #:tlsdesc_lo12:{anchor}.tls",
            ".tlsdesccall {anchor}.tls",
            "blr x1",
            "mrs x1, tpidr_el0",
            "add x0, x0, x1",
            out("x0") p,
            out("x1") _,
            out("x30") _,
            anchor = sym ANCHOR,
            options(pure, nomem),
        );
    }
    // SAFETY: the block's first word is 8-byte aligned, lives as long as
    // the thread, and is only ever accessed through this atomic view.
    unsafe { &*p }
}

/// This thread's third and fourth words: its stack's bounds, zero in a new
/// thread (see `super::stack`).
#[inline(always)]
pub(super) fn stack_words() -> &'static [AtomicUsize; 2] {
    let slot: *const AtomicUsize = slot();
    // SAFETY: the block is four 8-byte-aligned words that live as long as
    // the thread and are only ever accessed through atomic views.
    unsafe { &*slot.add(2).cast::<[AtomicUsize; 2]>() }
}
