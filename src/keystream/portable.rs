//! The portable backend: the `aes` crate's AES-256 (ARMv8 instructions on
//! aarch64 when present, its constant-time software implementation
//! otherwise) in counter mode through the `ctr` crate.
//!
//! The state keeps only the key (round keys 0 and 1 of the schedule); the
//! `aes` crate expands it on the stack at every call. That expansion, and any
//! copy of the key the compiler makes, is then zeroed by writing over the
//! stack region the call used.

use super::{BLOCK_LEN, Schedule};
use aes::Aes256;
use ctr::cipher::{KeyIvInit, StreamCipher};

/// AES-256 in counter mode with a 128-bit big-endian counter (NIST SP 800-38A).
type Aes256Ctr = ctr::Ctr128BE<Aes256>;

/// How much stack below the caller [`wipe_stack`] zeroes: more than the
/// keystream and mixing calls below use. A debug build's `ctr` calls go
/// deeper: with 16 KiB there, copies of a direct fill's output were left
/// below the wiped region (`tests/key_erasure.rs`).
const WIPE_LEN: usize = if cfg!(debug_assertions) { 32 * 1024 } else { 16 * 1024 };

/// The free stack a call here needs below its caller: the wipe and the
/// frames above it. The caller makes sure the stack has it
/// (`super::signal_frames::stack_room`), or makes its bytes without this
/// backend.
pub(super) const STACK_NEEDED: usize = WIPE_LEN + 4 * 1024;

/// See [`super::write_and_rekey`].
///
/// # Safety
/// As for [`super::write_and_rekey`].
pub(super) unsafe fn write_and_rekey(ks: *mut Schedule, out: *mut u8, nblocks: usize) {
    // SAFETY: forwarded from the caller.
    unsafe { write_and_rekey_inner(ks, out, nblocks) };
    wipe_stack();
}

#[inline(never)]
unsafe fn write_and_rekey_inner(ks: *mut Schedule, out: *mut u8, nblocks: usize) {
    // SAFETY: the caller guarantees `ks` is valid and `out` holds
    // `16 * nblocks` writable bytes not overlapping it; the key is round keys
    // 0 and 1 of the current half, its first 32 bytes.
    let (key, out) = unsafe {
        (&mut *Schedule::halves(ks).1.cast::<[u8; 32]>(), core::slice::from_raw_parts_mut(out, nblocks * BLOCK_LEN))
    };
    let mut cipher = Aes256Ctr::new((&*key).into(), &Default::default());
    // Blocks 0 and 1 go over the key itself; the cipher already holds its
    // expansion, which the `zeroize` features of `aes` and `ctr` overwrite
    // when `cipher` is dropped.
    cipher.write_keystream(key);
    cipher.write_keystream(out);
}

/// See [`super::xor_seed_into_key`].
///
/// # Safety
/// As for [`super::xor_seed_into_key`].
pub(super) unsafe fn xor_seed_into_key(ks: *mut Schedule, seed: *const [u8; 32]) {
    // SAFETY: forwarded from the caller.
    unsafe { xor_seed_into_key_inner(ks, seed) };
    wipe_stack();
}

#[inline(never)]
unsafe fn xor_seed_into_key_inner(ks: *mut Schedule, seed: *const [u8; 32]) {
    // SAFETY: the caller guarantees both pointers; they do not overlap. The
    // key is the first 32 bytes of the current half.
    let (key, seed) = unsafe { (&mut *Schedule::halves(ks).1.cast::<[u8; 32]>(), &*seed) };
    for (k, s) in key.iter_mut().zip(seed) {
        *k ^= s;
    }
}

/// Makes the key (round keys 0 and 1 of the current half) 32 new bytes from
/// the OS, written by the kernel straight into the state: the stand-in for
/// [`xor_seed_into_key`] where the stack has no room for this backend's wipe.
///
/// # Safety
/// As for [`super::xor_seed_into_key`].
pub(super) unsafe fn replace_key(ks: *mut Schedule) {
    // SAFETY: the caller guarantees `ks` is valid; the key is the first 32
    // bytes of the current half.
    unsafe { crate::entropy::os_fill_raw(Schedule::halves(ks).1.cast::<u8>(), 32) };
}

/// Zeroes `WIPE_LEN` bytes of stack below the caller's frame.
#[inline(never)]
fn wipe_stack() {
    let mut area = core::mem::MaybeUninit::<[u8; WIPE_LEN]>::uninit();
    // SAFETY: `area` is this frame's own memory, `WIPE_LEN` bytes long.
    unsafe { core::ptr::write_bytes(area.as_mut_ptr().cast::<u8>(), 0, WIPE_LEN) };
    // The zeroes must really be written, although nothing reads them.
    core::hint::black_box(&mut area);
}
