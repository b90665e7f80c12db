//! The keystream engine: AES-256 in counter mode with fast key erasure.
//!
//! A key lives in a thread's state as its AES-256 key schedule ([`Schedule`]).
//! [`rotate`] runs counter mode from counter zero under it: blocks 0 and 1
//! become the next key, which is expanded over the old schedule in place, and
//! blocks 2, 3, … go to the caller. A key is therefore used for exactly one
//! call, and whoever later reads the state learns the next key, never one that
//! produced past output.
//!
//! On x86_64 the kernels are written in inline assembly on the CPU's AES
//! instructions: VAES with 512-bit vectors (32 blocks in flight), VAES with
//! 256-bit vectors (16 blocks), or AES-NI (8 blocks), picked once at run time.
//! They read the round keys from the state and write the next schedule back
//! there, use no stack at all, and zero every vector register they touched
//! before they return, so no copy of a key is left behind in any build
//! profile. Elsewhere (aarch64, and x86_64 CPUs without AES-NI) the `aes`
//! crate makes the keystream (its ARMv8 backend is picked at run time), and
//! the stack that call used is zeroed after it. Every kernel is tested block
//! for block against the `aes` crate.

mod portable;
#[cfg(target_arch = "x86_64")]
mod x86;
#[cfg(target_arch = "x86_64")]
mod x86_aesni;
#[cfg(target_arch = "x86_64")]
mod x86_vaes256;
#[cfg(target_arch = "x86_64")]
mod x86_vaes512;

use core::sync::atomic::{AtomicU8, Ordering::Relaxed};

/// Length of an AES block in bytes.
pub(crate) const BLOCK_LEN: usize = 16;

/// An AES-256 key schedule: 15 round keys, the first two of which are the
/// key itself. The all-zero value is the unseeded state.
///
/// The portable backend keeps only the key (round keys 0 and 1) and expands it
/// inside the `aes` crate at every call; the others keep all 15 round keys.
#[repr(C, align(64))]
pub(crate) struct Schedule(pub(crate) [[u8; BLOCK_LEN]; 15]);

/// The ways randp can make keystream, fastest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// VAES on 512-bit vectors (AVX-512F, AVX-512BW, VAES), 32 blocks in flight.
    Vaes512,
    /// VAES on 256-bit vectors (AVX2, VAES), 16 blocks in flight.
    Vaes256,
    /// AES-NI (with SSSE3), 8 blocks in flight.
    AesNi,
    /// The `aes` crate: ARMv8 AES instructions on aarch64 when present,
    /// otherwise its constant-time software implementation.
    Portable,
}

impl Backend {
    /// Every backend, fastest first.
    pub const ALL: [Backend; 4] = [Backend::Vaes512, Backend::Vaes256, Backend::AesNi, Backend::Portable];

    /// The backend's name, as [`crate::keystream_backend`] reports it.
    pub const fn name(self) -> &'static str {
        match self {
            Backend::Vaes512 => "vaes512",
            Backend::Vaes256 => "vaes256",
            Backend::AesNi => "aesni",
            Backend::Portable => "portable",
        }
    }

    /// Whether this CPU can run the backend.
    pub fn supported(self) -> bool {
        match self {
            #[cfg(target_arch = "x86_64")]
            Backend::Vaes512 => x86::has_vaes512(),
            #[cfg(target_arch = "x86_64")]
            Backend::Vaes256 => x86::has_vaes256(),
            #[cfg(target_arch = "x86_64")]
            Backend::AesNi => x86::has_aesni(),
            #[cfg(not(target_arch = "x86_64"))]
            Backend::Vaes512 | Backend::Vaes256 | Backend::AesNi => false,
            Backend::Portable => true,
        }
    }

    const fn code(self) -> u8 {
        self as u8 + 1
    }
}

/// The backend in use: 0 until chosen, else `Backend::code`.
static CHOSEN: AtomicU8 = AtomicU8::new(0);

/// The backend every generator uses, chosen on first use: the fastest one
/// this CPU supports.
#[inline]
pub(crate) fn backend() -> Backend {
    match CHOSEN.load(Relaxed) {
        0 => choose(),
        c => Backend::ALL[usize::from(c) - 1],
    }
}

#[cold]
fn choose() -> Backend {
    let b = Backend::ALL.into_iter().find(|b| b.supported()).unwrap_or(Backend::Portable);
    // Several threads may race here; they all pick the same backend.
    CHOSEN.store(b.code(), Relaxed);
    b
}

/// Makes `b` the backend of the process, for benchmarks and tests that
/// compare backends. Returns false (and changes nothing) if the CPU cannot run
/// it. Must be called before the first draw of the process: schedules made by
/// one backend are not valid for another.
#[cfg(feature = "internals")]
pub(crate) fn force(b: Backend) -> bool {
    if !b.supported() {
        return false;
    }
    CHOSEN.store(b.code(), Relaxed);
    true
}

/// Writes `nblocks` blocks of keystream under the key in `ks` (counters 2,
/// 3, …) to `out`, then replaces `ks` by the schedule of the key made of
/// blocks 0 and 1.
///
/// # Safety
/// `ks` is valid for reads and writes and holds a schedule made by this
/// process's backend; `out` is valid for writes of `16 * nblocks` bytes and
/// does not overlap `ks`.
#[inline]
pub(crate) unsafe fn rotate(ks: *mut Schedule, out: *mut u8, nblocks: usize) {
    // SAFETY: forwarded from the caller; `backend()` is supported by this CPU.
    unsafe { rotate_with(backend(), ks, out, nblocks) }
}

/// XORs the 32 bytes at `seed` into the key in `ks` and re-expands the
/// schedule. On an all-zero schedule (unseeded) the key becomes `seed`.
///
/// # Safety
/// As for [`rotate`]; `seed` is valid for reads of 32 bytes.
#[inline]
pub(crate) unsafe fn mix(ks: *mut Schedule, seed: *const [u8; 32]) {
    // SAFETY: forwarded from the caller.
    unsafe { mix_with(backend(), ks, seed) }
}

/// [`rotate`] on a given backend.
///
/// # Safety
/// As for [`rotate`], and `b.supported()`.
pub(crate) unsafe fn rotate_with(b: Backend, ks: *mut Schedule, out: *mut u8, nblocks: usize) {
    debug_assert!(b.supported());
    // SAFETY: the caller guarantees the pointers and that the CPU runs `b`.
    unsafe {
        match b {
            #[cfg(target_arch = "x86_64")]
            Backend::Vaes512 => {
                x86_vaes512::keystream(ks, out, nblocks);
                x86::expand(ks, core::ptr::null());
            }
            #[cfg(target_arch = "x86_64")]
            Backend::Vaes256 => {
                x86_vaes256::keystream(ks, out, nblocks);
                x86::expand(ks, core::ptr::null());
            }
            #[cfg(target_arch = "x86_64")]
            Backend::AesNi => {
                x86_aesni::keystream(ks, out, nblocks);
                x86::expand(ks, core::ptr::null());
            }
            #[cfg(not(target_arch = "x86_64"))]
            Backend::Vaes512 | Backend::Vaes256 | Backend::AesNi => unreachable_backend(),
            Backend::Portable => portable::rotate(ks, out, nblocks),
        }
    }
}

/// [`mix`] on a given backend.
///
/// # Safety
/// As for [`mix`], and `b.supported()`.
pub(crate) unsafe fn mix_with(b: Backend, ks: *mut Schedule, seed: *const [u8; 32]) {
    // SAFETY: the caller guarantees the pointers and that the CPU runs `b`.
    unsafe {
        match b {
            #[cfg(target_arch = "x86_64")]
            Backend::Vaes512 | Backend::Vaes256 | Backend::AesNi => x86::expand(ks, seed),
            #[cfg(not(target_arch = "x86_64"))]
            Backend::Vaes512 | Backend::Vaes256 | Backend::AesNi => unreachable_backend(),
            Backend::Portable => portable::mix(ks, seed),
        }
    }
}

#[cfg(not(target_arch = "x86_64"))]
fn unreachable_backend() -> ! {
    crate::entropy::fatal(b"randp: an x86_64 keystream backend was selected on another architecture; aborting\n")
}

#[cfg(test)]
mod tests;
