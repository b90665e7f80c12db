//! The generator: a buffer of keystream, handed out once, behind a key that
//! changes at every refill.
//!
//! All state is plain bytes and integers, and the all-zero value is a valid,
//! unseeded generator: its first draw reseeds from the OS before any output.
//! That is what lets a forked child whose state the kernel wiped
//! (MADV_WIPEONFORK), or a thread whose droppable page the kernel dropped,
//! carry on safely.
//!
//! The kernel may zero the generator's memory under a running call (a fork
//! made by a signal handler, a dropped page). The call is then thrown away by
//! its caller (`thread_state`), but it must still run to its end without
//! undefined behaviour: so no `&mut` ever points into the generator, the
//! counters are atomics read once into locals and checked there, and the key
//! schedule and buffer are only reached through raw pointers.

use crate::entropy;
use crate::keystream::{self, BLOCK_LEN, Schedule};
use core::cell::UnsafeCell;
use core::sync::atomic::{AtomicUsize, Ordering::Relaxed};

/// Buffer size in 16-byte AES blocks of a thread's generator: what fits in
/// one page beside the two halves of the key schedule (3,520 bytes of output
/// per refill).
pub const DEFAULT_BLOCKS: usize = 220;

/// Default reseed interval: at most this many bytes of output per thread
/// between two mixes of fresh OS entropy into the key.
pub const DEFAULT_RESEED: usize = 1 << 20;

/// AES-256-CTR with fast key erasure over a buffer of `BLOCKS` blocks,
/// reseeded from the OS every `RESEED` bytes of output.
///
/// Every refill writes `16 * BLOCKS` bytes of keystream to the buffer under
/// the current key and replaces the key (see [`keystream`]). Bytes are zeroed
/// in the buffer as they are handed out. Requests of at least a whole buffer
/// are written straight into the caller's memory, up to the reseed interval
/// per key.
///
/// The layout puts the buffer on a 64-byte boundary (the kernels' widest
/// stores) and, with the default size, fills one page exactly.
#[repr(C, align(64))]
pub struct Generator<const BLOCKS: usize, const RESEED: usize> {
    schedule: UnsafeCell<Schedule>,
    /// 1 once a call has used the generator since it was last zeroed; the
    /// owner sets it ([`Self::mark_live`]) and checks it after the call
    /// ([`Self::is_live`]) to notice that the memory was zeroed under it.
    live: AtomicUsize,
    /// Unread bytes, at the end of `buf`; at most `16 * BLOCKS`. Zero in a
    /// zeroed generator.
    remaining: AtomicUsize,
    /// Bytes that may still be generated before the next reseed. Zero in a
    /// zeroed generator, which therefore reseeds before its first output.
    until_reseed: AtomicUsize,
    /// Where the OS writes a reseed's fresh bytes; zero between calls.
    seed: UnsafeCell<[u8; 32]>,
    buf: UnsafeCell<Buffer<BLOCKS>>,
}

/// The buffer, on a 64-byte boundary.
#[repr(C, align(64))]
struct Buffer<const BLOCKS: usize>([[u8; BLOCK_LEN]; BLOCKS]);

impl<const BLOCKS: usize, const RESEED: usize> Generator<BLOCKS, RESEED> {
    /// Output bytes per refill.
    const LEN: usize = {
        assert!(BLOCKS > 0, "the buffer holds at least one block");
        assert!(RESEED >= BLOCKS * BLOCK_LEN, "a reseed interval holds at least one buffer");
        assert!(RESEED <= 1 << 20, "reseed at least every MiB of output");
        assert!(RESEED.is_multiple_of(BLOCK_LEN), "the reseed interval is whole blocks");
        BLOCKS * BLOCK_LEN
    };

    /// The request size from which whole blocks are written straight into
    /// the caller's memory: the buffer's size, or 2 KiB if that is less.
    /// Measured on a VAES-512 CPU (AMD Zen 5), a 2 KiB request costs 65 ns
    /// that way (the next key's expansion hidden behind 128 blocks) against
    /// 75 ns through a 3.5 KiB buffer (its share of a refill and the copy);
    /// at 1 KiB the buffer wins (38 ns against 42).
    const DIRECT: usize = if Self::LEN < 2048 { Self::LEN } else { 2048 };

    fn buf(&self) -> *mut u8 {
        self.buf.get().cast()
    }

    /// Records that a call is using the generator (see `live`).
    #[inline(always)]
    pub(crate) fn mark_live(&self) {
        self.live.store(1, Relaxed);
    }

    /// Whether the generator was marked live and not zeroed since.
    #[inline(always)]
    pub(crate) fn is_live(&self) -> bool {
        self.live.load(Relaxed) == 1
    }

    /// Takes the next `N` bytes from the buffer, zeroing them there, or
    /// returns `None` when fewer than `N` are left (the caller then takes the
    /// slow path through [`Self::fill`]).
    #[inline(always)]
    pub(crate) fn take<const N: usize>(&self) -> Option<[u8; N]> {
        let r = self.remaining.load(Relaxed);
        if r < N {
            return None;
        }
        // SAFETY: `remaining <= LEN` always holds (it is only ever stored as
        // LEN, lowered from a value read here, or zeroed), so the N bytes
        // from `LEN - r` lie inside `buf`.
        let out = unsafe {
            let src = self.buf().add(Self::LEN - r).cast::<[u8; N]>();
            let out = src.read_unaligned();
            src.write_unaligned([0; N]);
            out
        };
        self.remaining.store(r - N, Relaxed);
        Some(out)
    }

    /// Moves `len` bytes from the buffer to `dst` (zeroing them there) if it
    /// holds that many and `len` is below [`Self::DIRECT`], and returns
    /// whether it did; otherwise the caller takes the slow path through
    /// [`Self::fill`].
    ///
    /// # Safety
    /// As for [`Self::fill`].
    #[inline(always)]
    pub(crate) unsafe fn take_bytes(&self, dst: *mut u8, len: usize) -> bool {
        let r = self.remaining.load(Relaxed);
        if r < len || len >= Self::DIRECT {
            return false;
        }
        // SAFETY: as in `take`, the `len` bytes from `LEN - r` lie inside
        // `buf`; the caller guarantees `dst`.
        unsafe { keystream::move_out(self.buf().add(Self::LEN - r), dst, len) };
        self.remaining.store(r - len, Relaxed);
        true
    }

    /// Forgets the unread bytes, so that the next draw refills. For a state
    /// the kernel zeroed under a running [`Self::take`]: its store of the
    /// count is the only one that can have landed on the zeroed page.
    #[inline(always)]
    pub(crate) fn discard_buffer(&self) {
        self.remaining.store(0, Relaxed);
    }

    /// Fills the `len` bytes at `dst` with output, refilling or reseeding as
    /// needed.
    ///
    /// Requests of [`Self::DIRECT`] bytes or more get their whole blocks
    /// straight from the keystream (one key per reseed interval at most) and
    /// only their last few bytes from the buffer, which they leave for the
    /// small requests; smaller ones are served from the buffer.
    ///
    /// # Safety
    /// `dst` is valid for writes of `len` bytes and does not overlap `self`.
    pub(crate) unsafe fn fill(&self, dst: *mut u8, len: usize) {
        // SAFETY: the caller guarantees `len` bytes at `dst`; every offset
        // below stays within them.
        unsafe {
            let mut done = 0;
            if len >= Self::DIRECT {
                let mut blocks = len / BLOCK_LEN;
                while blocks > 0 {
                    // Up to the rest of the reseed interval, or a whole one
                    // after the reseed that `rotate` will then make.
                    let budget = (self.until_reseed.load(Relaxed) / BLOCK_LEN).min(RESEED / BLOCK_LEN);
                    let chunk = blocks.min(if budget > 0 { budget } else { RESEED / BLOCK_LEN });
                    self.rotate(dst.add(done), chunk);
                    done += chunk * BLOCK_LEN;
                    blocks -= chunk;
                }
            }
            if done < len {
                done += self.take_into(dst.add(done), len - done);
            }
            if done < len {
                self.refill();
                self.take_into(dst.add(done), len - done);
            }
        }
    }

    /// Copies as much of the buffer as fits into the `len` bytes at `dst`,
    /// zeroing it behind, and returns how much that was.
    ///
    /// # Safety
    /// As for [`Self::fill`].
    unsafe fn take_into(&self, dst: *mut u8, len: usize) -> usize {
        let r = self.remaining.load(Relaxed);
        let n = r.min(len);
        // SAFETY: `r <= LEN` (see `take`), so `LEN - r + n <= LEN`; `dst`
        // holds at least `n` bytes and does not overlap the buffer.
        unsafe { keystream::move_out(self.buf().add(Self::LEN - r), dst, n) };
        self.remaining.store(r - n, Relaxed);
        n
    }

    /// Refills the whole buffer under a fresh key; unread bytes are overwritten.
    fn refill(&self) {
        // SAFETY: the buffer holds exactly BLOCKS blocks.
        unsafe { self.rotate(self.buf(), BLOCKS) };
        self.remaining.store(Self::LEN, Relaxed);
    }

    /// Writes `nblocks <= RESEED / 16` blocks of keystream to `out` and
    /// rotates the key, reseeding first if the interval is used up.
    ///
    /// # Safety
    /// `out` is valid for writes of `16 * nblocks` bytes and does not overlap
    /// the key schedule.
    unsafe fn rotate(&self, out: *mut u8, nblocks: usize) {
        let bytes = nblocks * BLOCK_LEN;
        debug_assert!(bytes <= RESEED);
        let mut left = self.until_reseed.load(Relaxed);
        if left < bytes {
            self.reseed();
            left = RESEED;
        }
        // SAFETY: the schedule belongs to this generator and was made by the
        // process's backend (or is the zeroed one just reseeded); `out` is
        // the caller's.
        unsafe { keystream::rotate(self.schedule.get(), out, nblocks) };
        self.until_reseed.store(left - bytes, Relaxed);
    }

    /// Mixes 32 fresh bytes from the OS into the key. The OS writes them
    /// straight into the state, never onto the stack.
    fn reseed(&self) {
        let seed = self.seed.get();
        // SAFETY: `seed` is this generator's 32-byte field; the schedule is
        // its own and valid (a zeroed one included).
        unsafe {
            entropy::os_fill_raw(seed.cast(), 32);
            keystream::mix(self.schedule.get(), seed);
            zeroize::Zeroize::zeroize(&mut *seed);
        }
    }

    /// The key schedule, for the tests that look for old keys in memory.
    #[cfg(feature = "internals")]
    pub(crate) fn schedule(&self) -> &Schedule {
        // SAFETY: only this thread reaches the generator, and the reference
        // is dropped before the next draw changes the schedule.
        unsafe { &*self.schedule.get() }
    }

    /// Zeroes the whole generator, which makes it unseeded again.
    pub(crate) fn wipe(&self) {
        self.live.store(0, Relaxed);
        self.remaining.store(0, Relaxed);
        self.until_reseed.store(0, Relaxed);
        // SAFETY: the fields are this generator's own plain bytes, and no
        // reference into them is live (only raw pointers are ever made).
        unsafe {
            let ks = self.schedule.get();
            zeroize::Zeroize::zeroize((*ks).keys.as_flattened_mut().as_flattened_mut());
            (*ks).cur.store(0, Relaxed);
            zeroize::Zeroize::zeroize(&mut *self.seed.get());
            zeroize::Zeroize::zeroize((*self.buf.get()).0.as_flattened_mut());
        }
    }
}

#[cfg(feature = "internals")]
impl<const BLOCKS: usize, const RESEED: usize> Generator<BLOCKS, RESEED> {
    /// A new generator on the heap; it seeds itself from the OS at its first draw.
    pub fn new() -> alloc::boxed::Box<Self> {
        let layout = core::alloc::Layout::new::<Self>();
        // SAFETY: the layout is non-zero-sized; every field is an atomic
        // integer or plain bytes, for which all-zero is a valid value and
        // the documented unseeded state; the box takes the allocation made
        // with the global allocator and this layout.
        unsafe {
            let p = alloc::alloc::alloc_zeroed(layout).cast::<Self>();
            if p.is_null() {
                alloc::alloc::handle_alloc_error(layout);
            }
            alloc::boxed::Box::from_raw(p)
        }
    }

    /// Fills `dst` with output.
    pub fn fill_bytes(&mut self, dst: &mut [u8]) {
        // SAFETY: `dst` is a valid, writable slice outside `self`.
        unsafe { self.fill(dst.as_mut_ptr(), dst.len()) }
    }

    /// Returns 8 bytes of output as a native-endian `u64`.
    #[inline]
    pub fn u64(&mut self) -> u64 {
        match self.take::<8>() {
            Some(b) => u64::from_ne_bytes(b),
            None => {
                let mut b = [0; 8];
                self.fill_bytes(&mut b);
                u64::from_ne_bytes(b)
            }
        }
    }
}

impl<const BLOCKS: usize, const RESEED: usize> Drop for Generator<BLOCKS, RESEED> {
    fn drop(&mut self) {
        self.wipe();
    }
}

impl<const BLOCKS: usize, const RESEED: usize> core::fmt::Debug for Generator<BLOCKS, RESEED> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Generator { .. }")
    }
}

#[cfg(test)]
mod tests;
