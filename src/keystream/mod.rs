//! The keystream engine: AES-256 in counter mode with fast key erasure.
//!
//! A key lives in a thread's state as its AES-256 key schedule ([`Schedule`]).
//! [`write_and_rekey`] runs counter mode from counter zero under it: blocks 0
//! and 1 become the next key, which is expanded over the old schedule in
//! place, and blocks 2, 3, … go to the caller; [`xor_seed_into_key`] XORs a
//! reseed's fresh bytes into the key. A key is therefore used for exactly one
//! call, and whoever later reads the state learns the next key, never one that
//! produced past output.
//!
//! On x86_64 the kernels are written in assembly on the CPU's AES
//! instructions: VAES with 512-bit vectors (32 blocks in flight), VAES with
//! 256-bit vectors (16 blocks), or AES-NI (8 blocks), picked once at run time.
//! They read the round keys from the state and write the next key back
//! there, use no stack at all, and zero every vector register they touched
//! before they return, so no copy of a key is left behind in any build
//! profile; a signal that interrupts one cannot leave one in its signal frame
//! either ([`signal_frames`]). Elsewhere (aarch64, and x86_64 CPUs without
//! AES-NI) the `aes` crate makes the keystream (its ARMv8 backend is picked
//! at run time), with signals blocked, and the stack that call used is zeroed
//! after it. Every kernel is tested block for block against the `aes` crate.

#[cfg(target_arch = "aarch64")]
mod aarch64;
#[cfg(target_arch = "aarch64")]
use aarch64 as arch;
mod portable;
mod signal_frames;
#[cfg(target_arch = "x86_64")]
mod x86;
#[cfg(target_arch = "x86_64")]
use x86 as arch;
#[cfg(target_arch = "x86_64")]
mod x86_aesni;
#[cfg(target_arch = "x86_64")]
mod x86_vaes256;
#[cfg(target_arch = "x86_64")]
mod x86_vaes512;

use core::sync::atomic::{AtomicU8, AtomicUsize, Ordering::Relaxed};

/// Length of an AES block in bytes.
pub(crate) const BLOCK_LEN: usize = 16;

/// The 15 round keys of an AES-256 key, the first two of which are the key.
pub(crate) type RoundKeys = [[u8; BLOCK_LEN]; 15];

/// A thread's key: its AES-256 round keys, in one of two halves, the other
/// of which receives the next key's round keys during a call and is zero
/// between calls. The all-zero value is the unseeded state.
///
/// The portable backend keeps only the key (round keys 0 and 1 of the
/// current half) and expands it inside the `aes` crate at every call; the
/// others keep all 15 round keys.
#[repr(C, align(16))]
pub(crate) struct Schedule {
    pub(crate) keys: [RoundKeys; 2],
    /// Which half is current: its low bit. An atomic read once per call,
    /// because the kernel may zero it under a running call (a fork made by
    /// a signal handler, a dropped page).
    pub(crate) cur: AtomicUsize,
}

impl Schedule {
    /// The unseeded schedule.
    #[cfg(any(test, feature = "internals"))]
    pub(crate) fn zero() -> Schedule {
        Schedule { keys: [[[0; BLOCK_LEN]; 15]; 2], cur: AtomicUsize::new(0) }
    }

    /// The current round keys.
    #[cfg(any(test, feature = "internals"))]
    pub(crate) fn current(&self) -> &RoundKeys {
        &self.keys[self.cur.load(Relaxed) & 1]
    }

    /// The index of the current half and pointers to both halves.
    ///
    /// # Safety
    /// `ks` is valid for reads.
    #[inline(always)]
    pub(crate) unsafe fn halves(ks: *mut Schedule) -> (usize, *mut RoundKeys, *mut RoundKeys) {
        // SAFETY: forwarded from the caller; only raw pointers are made.
        unsafe {
            let c = (*ks).cur.load(Relaxed) & 1;
            let keys = &raw mut (*ks).keys;
            (c, &raw mut (*keys)[c], &raw mut (*keys)[c ^ 1])
        }
    }

    /// Makes the other half current, after a kernel wrote the next key's
    /// round keys there and zeroed half `c`.
    ///
    /// # Safety
    /// `ks` is valid for writes; `c` is the index `halves` returned.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    pub(crate) unsafe fn advance(ks: *mut Schedule, c: usize) {
        // SAFETY: forwarded from the caller.
        unsafe { (*ks).cur.store(c ^ 1, Relaxed) };
    }
}

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

    /// The backend's name, as the crate's `keystream_backend` reports it.
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

/// The backend in use: 0 until chosen, else `Backend::code`. Once any key
/// has been made, `USED` is added: the choice is then fixed.
static CHOSEN: AtomicU8 = AtomicU8::new(0);
const USED: u8 = 0x80;

/// The backend every generator uses, chosen on first use: the fastest one
/// this CPU supports.
#[inline]
pub(crate) fn backend() -> Backend {
    match CHOSEN.load(Relaxed) {
        c if c & USED != 0 => Backend::ALL[usize::from(c & !USED) - 1],
        c => choose(c),
    }
}

/// The backend of the process if it is fixed already, else the portable
/// one; never fixes it, so it calls nothing and `move_out_long` needs no
/// stack frame (it would save registers for a call it never makes). Every
/// buffer a draw moves out was written by a refill, which fixed the backend.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn chosen_backend() -> Backend {
    match CHOSEN.load(Relaxed) {
        c if c & USED != 0 => Backend::ALL[usize::from(c & !USED) - 1],
        _ => Backend::Portable,
    }
}

/// Fixes the backend: the one forced before, or the fastest supported.
/// Threads racing here, or with `force`, all end up with the one fixed first.
#[cold]
fn choose(mut c: u8) -> Backend {
    loop {
        if c & USED != 0 {
            return Backend::ALL[usize::from(c & !USED) - 1];
        }
        let b = match c {
            0 => Backend::ALL.into_iter().find(|b| b.supported()).unwrap_or(Backend::Portable),
            forced => Backend::ALL[usize::from(forced) - 1],
        };
        match CHOSEN.compare_exchange(c, b.code() | USED, Relaxed, Relaxed) {
            Ok(_) => return b,
            Err(now) => c = now,
        }
    }
}

/// Makes `b` the backend of the process, for benchmarks and tests that
/// compare backends. Returns false (and changes nothing) if the CPU cannot run
/// it, or if any key has been made already (schedules made by one backend
/// are not valid for another: the portable backend keeps only two round
/// keys), unless `b` is the backend in use.
#[cfg(feature = "internals")]
pub(crate) fn force(b: Backend) -> bool {
    if !b.supported() {
        return false;
    }
    let mut c = CHOSEN.load(Relaxed);
    loop {
        if c & USED != 0 {
            return c == b.code() | USED;
        }
        match CHOSEN.compare_exchange_weak(c, b.code(), Relaxed, Relaxed) {
            Ok(_) => return true,
            Err(now) => c = now,
        }
    }
}

/// Writes `nblocks` blocks of keystream under the key in `ks` (counters 2,
/// 3, …) to `out`, then rekeys: replaces `ks` by the schedule of the key
/// made of blocks 0 and 1, so that the key that made the output is gone.
///
/// # Safety
/// `ks` is valid for reads and writes and holds a schedule made by this
/// process's backend; `out` is valid for writes of `16 * nblocks` bytes and
/// does not overlap `ks`.
#[inline]
pub(crate) unsafe fn write_and_rekey(ks: *mut Schedule, out: *mut u8, nblocks: usize) {
    // SAFETY: forwarded from the caller; `backend()` is supported by this CPU.
    unsafe { write_and_rekey_with(backend(), ks, out, nblocks) }
}

/// XORs the 32 bytes at `seed` (a reseed's fresh bytes) into the key in
/// `ks` and re-expands the schedule. On an all-zero schedule (unseeded) the
/// key becomes `seed`. Writes no keystream.
///
/// # Safety
/// As for [`write_and_rekey`]; `seed` is valid for reads of 32 bytes.
#[inline]
pub(crate) unsafe fn xor_seed_into_key(ks: *mut Schedule, seed: *const [u8; 32]) {
    // SAFETY: forwarded from the caller.
    unsafe { xor_seed_into_key_with(backend(), ks, seed) }
}

/// The longest move that [`move_out`] makes inline, in 16-byte words,
/// rather than through the backend's vector code, which its caller cannot
/// inline: a draw that may call it saves registers for the call at every
/// call. Moves up to this length therefore cost no call and no stack frame.
pub(crate) const WORDS_UP_TO: usize = 128;

/// Copies the `n` bytes at `src` (keystream in a buffer) to `dst` and zeroes
/// them at `src`: up to [`WORDS_UP_TO`] bytes inline ([`move_out_short`]),
/// longer moves with the widest vectors the backend's CPU has (16-byte
/// ones before the backend is fixed, see [`chosen_backend`]), in one pass
/// or, for longer moves off the vector boundary, a copy and then a zeroing
/// each on its own pointer's boundaries (`x86::SPLIT_FROM`; on aarch64 16-byte
/// vectors, 64 bytes per step, in one pass). Every move is assembly that
/// zeroes the registers it moved bytes through, so no
/// byte of the output is left in a register when it returns (a signal
/// delivered then would save the registers in its frame). No calls into
/// libc: its memcpy and memset cost more than the copy itself at the sizes
/// a buffer hands out. The zeroes stay: the buffer is read again.
///
/// # Safety
/// `src` is valid for reads and writes of `n` bytes, `dst` for writes, and
/// they do not overlap.
#[inline(always)]
pub(crate) unsafe fn move_out(src: *mut u8, dst: *mut u8, n: usize) {
    // Every move is assembly, which keeps what it loads in registers in a
    // debug build too (one that the compiler generated would keep each word
    // in a stack slot there, and leave copies in dead frames).
    // SAFETY: forwarded from the caller.
    unsafe {
        if n <= WORDS_UP_TO {
            return move_out_short(src, dst, n);
        }
        move_out_long(src, dst, n)
    }
}

/// [`move_out`] of at most [`WORDS_UP_TO`] bytes, inline and with no loop:
/// every 16-byte word loaded into a vector register first, from both ends (the two halves overlap
/// unless `n` is a power of two), then stored to `dst`, then zeroed at
/// `src`, and the registers zeroed; below 16 bytes the same with two words
/// in general registers. Uses only scratch registers and no
/// stack: a caller that calls nothing else needs no frame, no byte it moves
/// passes through memory other than `src` and `dst`, and none is left in a
/// register.
///
/// # Safety
/// As for [`move_out`], with `n <= WORDS_UP_TO`.
#[inline(always)]
pub(crate) unsafe fn move_out_short(src: *mut u8, dst: *mut u8, n: usize) {
    debug_assert!(n <= WORDS_UP_TO);
    // SAFETY: forwarded from the caller; each branch's offsets, from the
    // front and from `n` back, stay inside the `n` bytes.
    unsafe {
        match n {
            65.. => arch::move_words::<8>(src, dst, n - 64),
            33.. => arch::move_words::<4>(src, dst, n - 32),
            16.. => arch::move_words::<2>(src, dst, n - 16),
            _ => arch::move_gprs(src, dst, n),
        }
    }
}

/// [`move_out`] of more than [`WORDS_UP_TO`] bytes.
///
/// # Safety
/// As for [`move_out`].
#[cfg(target_arch = "x86_64")]
#[inline(never)]
unsafe fn move_out_long(src: *mut u8, dst: *mut u8, n: usize) {
    // SAFETY: forwarded from the caller; each backend's CPU has the vector
    // width its copy uses.
    unsafe {
        match chosen_backend() {
            Backend::Vaes512 => x86::move_out_512(src, dst, n),
            Backend::Vaes256 => x86::move_out_256(src, dst, n),
            _ => x86::move_out_128(src, dst, n),
        }
    }
}

#[cfg(target_arch = "aarch64")]
use aarch64::move_out_long;

/// [`write_and_rekey`] on a given backend.
///
/// # Safety
/// As for [`write_and_rekey`], and `b.supported()`.
pub(crate) unsafe fn write_and_rekey_with(b: Backend, ks: *mut Schedule, out: *mut u8, nblocks: usize) {
    debug_assert!(b.supported());
    // SAFETY: the caller guarantees the pointers and that the CPU runs `b`.
    unsafe {
        match b {
            #[cfg(target_arch = "x86_64")]
            Backend::Vaes512 => signal_frames::write_and_rekey(x86_vaes512::keystream, ks, out, nblocks),
            #[cfg(target_arch = "x86_64")]
            Backend::Vaes256 => signal_frames::write_and_rekey(x86_vaes256::keystream, ks, out, nblocks),
            #[cfg(target_arch = "x86_64")]
            Backend::AesNi => signal_frames::write_and_rekey(x86_aesni::keystream, ks, out, nblocks),
            #[cfg(not(target_arch = "x86_64"))]
            Backend::Vaes512 | Backend::Vaes256 | Backend::AesNi => unreachable_backend(),
            Backend::Portable if signal_frames::stack_room(portable::STACK_NEEDED) => {
                signal_frames::portable(out, nblocks * BLOCK_LEN, || {
                    portable::write_and_rekey(ks, out, nblocks);
                    zero_vector_registers();
                })
            }
            // Too little stack proven free for the wipe after the `aes`
            // crate's work: this call's bytes come from the OS, and the key,
            // which made none of them, stays for the next call.
            Backend::Portable => {
                crate::prefault::touch_pages(out, nblocks * BLOCK_LEN);
                crate::entropy::os_fill_raw(out, nblocks * BLOCK_LEN)
            }
        }
    }
}

/// [`xor_seed_into_key`] on a given backend.
///
/// # Safety
/// As for [`xor_seed_into_key`], and `b.supported()`.
pub(crate) unsafe fn xor_seed_into_key_with(b: Backend, ks: *mut Schedule, seed: *const [u8; 32]) {
    // SAFETY: the caller guarantees the pointers and that the CPU runs `b`.
    unsafe {
        match b {
            #[cfg(target_arch = "x86_64")]
            Backend::Vaes512 | Backend::Vaes256 | Backend::AesNi => signal_frames::xor_seed_into_key(ks, seed),
            #[cfg(not(target_arch = "x86_64"))]
            Backend::Vaes512 | Backend::Vaes256 | Backend::AesNi => unreachable_backend(),
            Backend::Portable if signal_frames::stack_room(portable::STACK_NEEDED) => {
                signal_frames::portable(core::ptr::null_mut(), 0, || {
                    portable::xor_seed_into_key(ks, seed);
                    zero_vector_registers();
                })
            }
            // As in `write_and_rekey_with`: the OS writes a new key in place
            // of the old one XORed with `seed` (as unpredictable, and no
            // register holds it).
            Backend::Portable => portable::replace_key(ks),
        }
    }
}

/// Switches the protection of [`signal_frames`] off (`true`) or back on, for
/// the tests' control that shows it is needed.
#[cfg(feature = "internals")]
pub(crate) fn set_signal_frame_protection_off(off: bool) {
    signal_frames::set_disabled(off);
}

/// How this thread's keystream calls keep keys out of signal frames.
#[cfg(feature = "internals")]
pub(crate) fn signal_frame_protection() -> &'static str {
    signal_frames::protection(backend())
}

/// How many times a keystream kernel was interrupted and resumed.
#[cfg(feature = "internals")]
pub(crate) fn signal_frame_aborts() -> usize {
    signal_frames::ABORTS.load(Relaxed)
}

/// How many keystream calls stopped restarting after aborts without progress.
#[cfg(feature = "internals")]
pub(crate) fn signal_frame_stalls() -> usize {
    signal_frames::STALLED.load(Relaxed)
}

/// How many keystream calls found no proven free stack for the wipe.
#[cfg(feature = "internals")]
pub(crate) fn signal_frame_calls_without_room() -> usize {
    signal_frames::WITHOUT_ROOM.load(Relaxed)
}

/// How far below its stack pointer a keystream call wipes after an abort.
#[cfg(feature = "internals")]
pub(crate) fn signal_frame_wipe_len() -> usize {
    signal_frames::wipe_len()
}

/// The entry addresses of the x86_64 keystream kernels (the three
/// keystream kernels and the seed mix with its key expansion), for the tests
/// that single-step a draw and must step over them: each is a naked leaf
/// function, with its return address at `[rsp]` on entry.
#[cfg(all(feature = "internals", target_arch = "x86_64"))]
pub(crate) fn kernel_entries() -> [(&'static str, usize); 4] {
    [
        ("vaes512", x86_vaes512::keystream as *const () as usize),
        ("vaes256", x86_vaes256::keystream as *const () as usize),
        ("aesni", x86_aesni::keystream as *const () as usize),
        ("mix_expand", x86::mix_expand as *const () as usize),
    ]
}

/// The entry address of the wipe of the stack below a keystream call's
/// frame (`x86::wipe_below_stack`), for the tests that single-step a draw,
/// which run it as one step: a naked leaf that writes only dead stack and
/// keeps nothing, whose `rep stosb` would be a step per byte. Its return
/// address is at `[rsp]` on entry.
#[cfg(all(feature = "internals", target_arch = "x86_64"))]
pub(crate) fn stack_wipe_entry() -> usize {
    x86::wipe_below_stack as *const () as usize
}

/// Runs `f`, which copies key material through registers (the test views of
/// the state), with signals blocked, and zeroes the vector registers after it.
#[cfg(feature = "internals")]
pub(crate) fn out_of_signal_frames<R>(f: impl FnOnce() -> R) -> R {
    signal_frames::blocked(|| {
        let r = f();
        zero_vector_registers();
        r
    })
}

/// Zeroes every vector register (all that this CPU has), after code that
/// may leave key material in them: the `aes` crate, the test views.
#[inline(always)]
fn zero_vector_registers() {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: the level is this CPU's; the function only zeroes registers
    // the sysv64 convention lets a callee clobber.
    unsafe {
        x86::zero_vector_registers(x86::vector_level())
    };
    #[cfg(target_arch = "aarch64")]
    // SAFETY: only zeroes the registers declared clobbered; the compiler
    // saves and restores the callee-saved halves (d8..d15) of its caller.
    unsafe {
        core::arch::asm!(
            "movi v0.16b, #0", "movi v1.16b, #0", "movi v2.16b, #0", "movi v3.16b, #0",
            "movi v4.16b, #0", "movi v5.16b, #0", "movi v6.16b, #0", "movi v7.16b, #0",
            "movi v8.16b, #0", "movi v9.16b, #0", "movi v10.16b, #0", "movi v11.16b, #0",
            "movi v12.16b, #0", "movi v13.16b, #0", "movi v14.16b, #0", "movi v15.16b, #0",
            "movi v16.16b, #0", "movi v17.16b, #0", "movi v18.16b, #0", "movi v19.16b, #0",
            "movi v20.16b, #0", "movi v21.16b, #0", "movi v22.16b, #0", "movi v23.16b, #0",
            "movi v24.16b, #0", "movi v25.16b, #0", "movi v26.16b, #0", "movi v27.16b, #0",
            "movi v28.16b, #0", "movi v29.16b, #0", "movi v30.16b, #0", "movi v31.16b, #0",
            out("v0") _, out("v1") _, out("v2") _, out("v3") _, out("v4") _, out("v5") _, out("v6") _, out("v7") _,
            out("v8") _, out("v9") _, out("v10") _, out("v11") _, out("v12") _, out("v13") _, out("v14") _,
            out("v15") _, out("v16") _, out("v17") _, out("v18") _, out("v19") _, out("v20") _, out("v21") _,
            out("v22") _, out("v23") _, out("v24") _, out("v25") _, out("v26") _, out("v27") _, out("v28") _,
            out("v29") _, out("v30") _, out("v31") _,
            options(nostack, nomem, preserves_flags),
        )
    };
}

#[cfg(not(target_arch = "x86_64"))]
fn unreachable_backend() -> ! {
    crate::os::fatal(b"randp: an x86_64 keystream backend was selected on another architecture; aborting\n")
}

#[cfg(test)]
mod tests;
