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
use core::sync::atomic::{AtomicU32, AtomicU64, AtomicUsize, Ordering::Relaxed};

/// Buffer size in 16-byte AES blocks of a thread's generator: what fits in
/// one page beside the two halves of the key schedule and the room for the
/// kernel's own generator state (3,328 bytes of output per refill).
pub const DEFAULT_BLOCKS: usize = 208;

/// Default reseed interval: at most this many bytes of output per thread
/// between two mixes of fresh OS entropy into the key.
pub const DEFAULT_RESEED: usize = 1 << 20;

/// At most this many bytes are written straight into callers' memory under
/// keys that no mix of the kernel's current output went into
/// ([`KernelMix`]), where the owner has a source of it.
pub const MIX_DIRECT: usize = 64 << 10;

/// The value of `Generator::extension` when the owner asked for an
/// extension and has none: the buffer stays `16 * BLOCKS` bytes.
const NO_EXTENSION: usize = 1;

/// The value of `Generator::extension` once the owner had a VM generation
/// ([`KernelMix::vm_generation`]) at a reseed (see `Generator::reseed`):
/// the generator then uses no extension, and until it is next zeroed it
/// hands out buffered bytes only from
/// `Generator::fill`, after it compared the generation, counting them in
/// `Generator::checked_counts` and leaving the counts word, which the fast
/// path reads, at zero.
const CHECKED: usize = 2;

/// Where a generator keeps its counts word: in the generator itself (an
/// `AtomicU64` field, the default), or where its owner puts it (a thread's
/// generator: the thread-local block, `thread_state::ThreadCounts`, so that
/// a word draw's stores go to one cache line; see `Generator::filled` for
/// what then keeps the word true to the buffer).
pub trait CountsWord {
    /// The word: see [`counts`].
    fn word(&self) -> &AtomicU64;
}

impl CountsWord for AtomicU64 {
    #[inline(always)]
    fn word(&self) -> &AtomicU64 {
        self
    }
}

/// Where a generator gets the kernel's current output, which it mixes into
/// its key before every refill and before every [`MIX_DIRECT`] bytes of
/// direct output: a source that follows the kernel's own reseeds (after a
/// VM snapshot is restored, say) without a system call, so that two copies
/// of one generator part ways at their next refill. `()` has none: the
/// generator then mixes in fresh entropy only at its reseeds.
pub trait KernelMix {
    /// Whether there is a source: when false, [`Self::fresh`] is not called.
    fn available(&self) -> bool;

    /// Writes 16 bytes of the kernel's current output at `dst`, and
    /// returns true, or returns false with nothing written when there is
    /// no source. Never returns bytes that the kernel did not supply: a
    /// failing source ends the process, as a failing getrandom does.
    ///
    /// # Safety
    /// `dst` is valid for writes of 16 bytes.
    unsafe fn fresh(&self, dst: *mut u8) -> bool;

    /// A counter that changes when a VM snapshot the process is in is
    /// restored (the VMClock device's VM generation counter), or `None`
    /// where there is none (or it cannot be read now). The generator
    /// records it before each reseed and, when it reads another value at a
    /// refill, a direct write or (once it read one at a reseed) before it
    /// hands out buffered bytes, discards its state as a dropped page is
    /// discarded (see `Generator::write_and_rekey` and `Generator::fill`).
    /// Unlike [`Self::fresh`], not switched off with the mix.
    #[inline(always)]
    fn vm_generation(&self) -> Option<u64> {
        None
    }
}

impl KernelMix for () {
    #[inline(always)]
    fn available(&self) -> bool {
        false
    }

    #[inline(always)]
    unsafe fn fresh(&self, _dst: *mut u8) -> bool {
        false
    }
}

/// The counts word: `unread` bytes from offset `next` of the buffer are not
/// yet handed out (`next + unread` at most what the last refill wrote,
/// below 2^32).
const fn counts(next: usize, unread: usize) -> u64 {
    (next as u64) << 32 | unread as u64
}

/// What handing out `n <= unread` bytes adds to a counts word: `next`
/// grows by `n` and `unread` shrinks by `n` (`(n << 32) - n`; the low half
/// does not borrow, as `unread >= n`).
const fn handed_out(n: usize) -> u64 {
    ((n as u64) << 32).wrapping_sub(n as u64)
}

/// The bytes of a generator's buffer not yet handed out, as one load of its
/// counts word gives them.
struct Unread {
    /// The counts word as loaded: what handing out `n` of the bytes adds
    /// [`handed_out`] to.
    word: u64,
    /// How many there are.
    len: usize,
    /// Where they start: `len` bytes from here lie inside what the last
    /// refill wrote (the buffer and its extension).
    start: *mut u8,
}

/// AES-256-CTR with fast key erasure over a buffer of `BLOCKS` blocks,
/// reseeded from the OS every `RESEED` bytes of output.
///
/// Every refill writes `16 * BLOCKS` bytes of keystream to the buffer under
/// the current key and replaces the key (see the `keystream` module). Bytes
/// are zeroed in the buffer as they are handed out. Requests of at least a
/// whole buffer are written straight into the caller's memory, up to the
/// reseed interval per key.
///
/// The owner may attach an *extension*: memory right after the generator
/// that the buffer then runs on into, so that each refill, and its key
/// rotation, serves more calls (`attach_extension`). A wipe detaches it.
///
/// The layout puts the buffer on a 64-byte boundary (the kernels' widest
/// stores) and, with the default size, fills one page exactly, so that the
/// buffer ends where the page does and an extension can follow it.
#[repr(C, align(64))]
pub struct Generator<const BLOCKS: usize, const RESEED: usize, C: CountsWord = AtomicU64, M: KernelMix = ()> {
    schedule: UnsafeCell<Schedule>,
    /// 1 once a call has used the generator since it was last zeroed; the
    /// owner sets it ([`Self::mark_live`]) and checks it after the call
    /// ([`Self::is_live`]) to notice that the memory was zeroed under it.
    live: AtomicUsize,
    /// The buffer's counts in one word ([`counts`]): where the unread bytes
    /// start, in the high half, and how many there are, in the low half;
    /// together at most what the last refill wrote (`16 * BLOCKS`, plus the
    /// extension's bytes if one was attached by then). One word, so that
    /// one load gives a pair that a single state held, even when a wipe
    /// comes between two calls. Zero in a zeroed generator when it lives in
    /// the generator; a word kept elsewhere outlives a zeroing of the
    /// generator's memory, and `filled` then says that it is stale.
    counts: C,
    /// The source of the kernel's current output (see [`KernelMix`]).
    mix: M,
    /// 1 from a refill until the generator is zeroed (wiped, or its memory
    /// zeroed by the kernel: a fork, a dropped page). While it is 0 the
    /// counts word describes no buffer, and the owner zeroes it
    /// ([`Self::forget_stale_counts`]) before it lets the generator hand
    /// out anything but from its fast path, which checks `live` instead.
    filled: AtomicU32,
    /// Bytes written straight into callers' memory since the kernel's
    /// output was last mixed into the key (or the last reseed): at most a
    /// reseed interval. (Two 32-bit words, so that the page has room for
    /// `checked_counts`.)
    direct_unmixed: AtomicU32,
    /// The memory right after `buf` that the buffer may grow into: 0 (not
    /// asked for: the owner decides, see [`Self::extension_unasked`]),
    /// [`NO_EXTENSION`], [`CHECKED`] (none either), or its length in bytes
    /// (whole blocks), attached by [`Self::attach_extension`]. Zero in a
    /// zeroed generator, so that the owner asks again after a wipe.
    extension: AtomicUsize,
    /// Bytes that may still be generated before the next reseed. Zero in a
    /// zeroed generator, which therefore reseeds before its first output.
    until_reseed: AtomicUsize,
    /// Where the OS writes a reseed's fresh bytes; zero between calls.
    seed: UnsafeCell<[u8; 32]>,
    /// The owner's VM generation ([`KernelMix::vm_generation`]) as read
    /// right before the last reseed (0 if it had none then).
    vm_generation: AtomicU64,
    /// The counts word ([`counts`]) of a [`CHECKED`] generator, in the
    /// generator's memory: zeroed with it, as is the buffer it counts.
    checked_counts: AtomicU64,
    buf: UnsafeCell<Buffer<BLOCKS>>,
}

/// The buffer, on a 64-byte boundary.
#[repr(C, align(64))]
struct Buffer<const BLOCKS: usize>([[u8; BLOCK_LEN]; BLOCKS]);

impl<const BLOCKS: usize, const RESEED: usize, C: CountsWord, M: KernelMix> Generator<BLOCKS, RESEED, C, M> {
    /// Output bytes per refill.
    const LEN: usize = {
        assert!(BLOCKS > 0, "the buffer holds at least one block");
        assert!(RESEED >= BLOCKS * BLOCK_LEN, "a reseed interval holds at least one buffer");
        assert!(RESEED <= 1 << 20, "reseed at least every MiB of output");
        assert!(RESEED.is_multiple_of(BLOCK_LEN), "the reseed interval is whole blocks");
        BLOCKS * BLOCK_LEN
    };

    /// The request size from which whole blocks are written straight into
    /// the caller's memory: the buffer's size, or 1,280 bytes (80 blocks) if
    /// that is less. A direct request pays a key rotation of its own, a
    /// buffered one the copy out of the buffer and the zeroing behind it,
    /// which grow with its size; the two cross between 1 and 2 KiB.
    ///
    /// On an Intel Xeon (family 6 model 167, `vaes512`, extended buffer),
    /// `fill_bytes` in a loop, best of 15, builds with a 2 KiB and a 1 KiB
    /// threshold alternating three times: 1,024 bytes took 79.3 ns buffered
    /// against 82.0 direct, 1,152 bytes 89.5 against 84.7, 1,280 bytes 99
    /// against 93.5, 1,536 bytes 117 against 104. On an AMD Zen 5 (VAES-512)
    /// a 2 KiB request costs 65 ns direct (the next key's expansion hidden
    /// behind 128 blocks) against 75 ns through a 3.5 KiB buffer (its share
    /// of a refill and the copy), and at 1 KiB the buffer wins (38 ns
    /// against 42), which puts the crossing near 1.3 KiB if the difference
    /// grows with the size: there 1,280 bytes costs about the same either
    /// way. With a thread's 15.8 KiB extended buffer the copy decides it the
    /// same way: on a Zen 5 (family 26 model 2), through the C ABI, 2 KiB
    /// took 80–98 ns direct against 91–101 through the buffer, and 4 KiB
    /// 147–156 against 180–191.
    const DIRECT: usize = if Self::LEN < 1280 { Self::LEN } else { 1280 };

    /// Where the buffer ends, from the start of the generator: its size, so
    /// that an extension right after the generator continues the buffer.
    pub(crate) const BUFFER_END: usize = {
        let end = core::mem::offset_of!(Self, buf) + Self::LEN;
        assert!(end == size_of::<Self>(), "the buffer is the generator's last bytes");
        end
    };

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

    /// The unread bytes ([`Unread`]) that counts word `word` gives, or
    /// `None` when fewer than `want` are left. The fast path reads the
    /// owner's word (`self.counts`), which is zero in a [`CHECKED`]
    /// generator, so that it hands out nothing there; [`Self::fill`] reads
    /// [`Self::handout_counts`].
    #[inline(always)]
    fn unread(&self, word: &AtomicU64, want: usize) -> Option<Unread> {
        let w = word.load(Relaxed);
        let r = w as u32 as usize;
        if r < want {
            return None;
        }
        // The word is only ever stored as `counts(0, len)` after a refill
        // wrote `len` bytes (the buffer, plus an extension attached before
        // it), advanced by at most its unread count, or zeroed: so the `r`
        // bytes from `next` lie inside what that refill wrote.
        let next = (w >> 32) as usize;
        Some(Unread { word: w, len: r, start: self.buf().wrapping_add(next) })
    }

    /// Takes the next `N` bytes from the buffer, zeroing them there, or
    /// returns `None` when fewer than `N` are left (the caller then takes the
    /// slow path through [`Self::fill`]).
    #[inline(always)]
    pub(crate) fn take<const N: usize>(&self) -> Option<[u8; N]> {
        let Unread { word: w, start: src, .. } = self.unread(self.counts.word(), N)?;
        // SAFETY: `unread` gives at least `N` bytes from `src`, inside the
        // buffer and its extension.
        let out = unsafe {
            let src = src.cast::<[u8; N]>();
            let out = src.read_unaligned();
            src.write_unaligned([0; N]);
            out
        };
        self.counts.word().store(w.wrapping_add(handed_out(N)), Relaxed);
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
        if len >= Self::DIRECT {
            return false;
        }
        let Some(Unread { word: w, start: src, .. }) = self.unread(self.counts.word(), len) else { return false };
        // SAFETY: as in `take`, the `len` bytes from `src` lie inside the
        // buffer and its extension; the caller guarantees `dst`.
        unsafe { keystream::move_out(src, dst, len) };
        self.counts.word().store(w.wrapping_add(handed_out(len)), Relaxed);
        true
    }

    /// Fills the `len` bytes at `dst` with output, refilling or reseeding as
    /// needed.
    ///
    /// Requests of [`Self::DIRECT`] bytes or more get their whole blocks
    /// straight from the keystream (one key per reseed interval at most) and
    /// only their last few bytes from the buffer, which they leave for the
    /// small requests; smaller ones are served from the buffer.
    ///
    /// A [`CHECKED`] generator first compares the owner's VM generation with
    /// the one it recorded at its last reseed; if it changed, it is wiped
    /// (`live` goes to 0, so the owner throws away what the call writes)
    /// and the call runs on from the zeroed state, which reseeds.
    ///
    /// # Safety
    /// `dst` is valid for writes of `len` bytes and does not overlap `self`.
    pub(crate) unsafe fn fill(&self, dst: *mut u8, len: usize) {
        if self.is_checked() && self.vm_generation_changed() {
            self.wipe();
        }
        // SAFETY: the caller guarantees `len` bytes at `dst`; every offset
        // below stays within them.
        unsafe {
            let mut done = 0;
            if len >= Self::DIRECT {
                done = self.write_direct(dst, len / BLOCK_LEN);
            }
            // From the buffer, refilled once if it runs out: one way out of
            // the loop, whichever way the call went.
            while done < len {
                done += self.take_into(dst.add(done), len - done);
                if done < len {
                    self.refill();
                }
            }
        }
    }

    /// Writes `blocks` blocks of keystream straight to `dst`, at most a mix
    /// interval per key where the kernel's output is mixed in, else a
    /// reseed interval; returns the bytes written.
    ///
    /// # Safety
    /// `dst` is valid for writes of `16 * blocks` bytes and does not overlap
    /// `self`.
    #[inline(never)]
    unsafe fn write_direct(&self, dst: *mut u8, mut blocks: usize) -> usize {
        let most = if self.mix.available() { MIX_DIRECT.min(RESEED) } else { RESEED } / BLOCK_LEN;
        let mut done = 0;
        while blocks > 0 {
            // Up to the rest of the reseed interval, or a whole one after
            // the reseed that `write_and_rekey` will then make.
            let budget = (self.until_reseed.load(Relaxed) / BLOCK_LEN).min(most);
            let chunk = blocks.min(if budget > 0 { budget } else { most });
            // SAFETY: `done + 16 * chunk` bytes stay within the caller's.
            unsafe { self.write_and_rekey(dst.add(done), chunk, true) };
            done += chunk * BLOCK_LEN;
            blocks -= chunk;
        }
        done
    }

    /// Copies as much of the buffer as fits into the `len` bytes at `dst`,
    /// zeroing it behind, and returns how much that was.
    ///
    /// # Safety
    /// As for [`Self::fill`].
    unsafe fn take_into(&self, dst: *mut u8, len: usize) -> usize {
        let word = self.handout_counts();
        let Some(Unread { word: w, len: r, start: src }) = self.unread(word, 0) else { return 0 };
        let n = r.min(len);
        // SAFETY: `unread` gives `r >= n` bytes from `src`, inside the buffer
        // and its extension; `dst` holds at least `n` bytes and does not
        // overlap them.
        unsafe { keystream::move_out(src, dst, n) };
        word.store(w.wrapping_add(handed_out(n)), Relaxed);
        n
    }

    /// Whether the generator checks the owner's VM generation before it
    /// hands out buffered bytes (see [`CHECKED`]).
    #[inline(always)]
    fn is_checked(&self) -> bool {
        self.extension.load(Relaxed) == CHECKED
    }

    /// The counts word that [`Self::fill`] hands out from and a refill
    /// sets: `checked_counts` in a [`CHECKED`] generator, else the owner's.
    #[inline(always)]
    fn handout_counts(&self) -> &AtomicU64 {
        if self.is_checked() { &self.checked_counts } else { self.counts.word() }
    }

    /// Refills the whole buffer, and its extension if one is attached, under
    /// a fresh key; unread bytes are overwritten.
    #[cold]
    #[inline(never)]
    fn refill(&self) {
        let len = Self::LEN + self.extension_len();
        // SAFETY: the buffer holds BLOCKS blocks, and an attached extension
        // (whole blocks) follows it; `len` is at most the reseed interval
        // (`attach_extension`).
        unsafe { self.write_and_rekey(self.buf(), len / BLOCK_LEN, false) };
        self.handout_counts().store(counts(0, len), Relaxed);
        self.filled.store(1, Relaxed);
    }

    /// Zeroes the counts word, and the unread bytes it counts in an
    /// extension, if no refill wrote the buffer since the generator was last
    /// zeroed: a word kept outside the generator's memory (`CountsWord`) may
    /// still count bytes of a buffer the kernel zeroed.
    /// The owner calls it once it has marked the generator live and before
    /// the generator hands out anything but from its fast path (whose
    /// caller checks `live` after it): a zeroing before the mark leaves
    /// `filled` at 0 here, and one after it leaves `live` at 0.
    #[inline(always)]
    pub(crate) fn forget_stale_counts(&self) {
        if self.filled.load(Relaxed) == 0 && self.counts.word().load(Relaxed) != 0 {
            self.forget_counts();
        }
    }

    /// Zeroes the counts word and the unread bytes it counted in an attached
    /// extension (see [`Self::zero_unread_extension`]).
    #[cold]
    #[inline(never)]
    fn forget_counts(&self) {
        let w = self.counts.word().swap(0, Relaxed);
        self.zero_unread_extension(w);
    }

    /// Zeroes the unread bytes that the counts word `w` places beyond the
    /// buffer, in an extension. The kernel zeroes the generator's memory (a
    /// fork, a dropped page) but not an extension, a mapping of its own,
    /// after a drop: its unread keystream, never handed out, would stay in
    /// memory until a refill wrote over it. Bytes already zero are not
    /// written, so that this dirties no page of a forked child's extension,
    /// which the kernel wiped.
    fn zero_unread_extension(&self, w: u64) {
        let next = (w >> 32) as usize;
        let end = next + w as u32 as usize;
        let start = next.max(Self::LEN);
        if end <= start {
            return;
        }
        // SAFETY: `w` was one of this generator's counts words (the owner's,
        // or `checked_counts`, which only ever takes the owner's value or a
        // value stored as the owner's is), which are only ever stored as
        // `counts(0, len)` after a refill wrote `len` bytes (the buffer, and
        // an extension attached before it), advanced by at most their unread
        // count, or zeroed: so `start..end` lies in an extension
        // attached since the generator was created, which stays mapped,
        // writable and this generator's alone for as long as it lives
        // (`attach_extension`).
        let unread = unsafe { core::slice::from_raw_parts_mut(self.buf().add(start), end - start) };
        if unread.iter().any(|&b| b != 0) {
            zeroize::Zeroize::zeroize(unread);
        }
    }

    /// The attached extension's length in bytes (0 when none).
    fn extension_len(&self) -> usize {
        match self.extension.load(Relaxed) {
            NO_EXTENSION | CHECKED => 0,
            n => n,
        }
    }

    /// Whether the owner has not yet said whether this generator has an
    /// extension since it was last zeroed.
    #[inline(always)]
    pub(crate) fn extension_unasked(&self) -> bool {
        self.extension.load(Relaxed) == 0
    }

    /// Whether the generator has been seeded since it was last zeroed (its
    /// first refill is behind it).
    #[inline(always)]
    pub(crate) fn is_seeded(&self) -> bool {
        self.until_reseed.load(Relaxed) != 0
    }

    /// Records the owner's answer: the buffer runs on into the `len` bytes
    /// right after it from the next refill on, or, with `len` 0, stays
    /// `16 * BLOCKS` bytes.
    ///
    /// # Safety
    /// The `len` bytes right after the generator are mapped, writable, this
    /// generator's alone, and stay so as long as it lives; `len` is whole
    /// blocks, and with the buffer at most the reseed interval.
    pub(crate) unsafe fn attach_extension(&self, len: usize) {
        debug_assert!(len.is_multiple_of(BLOCK_LEN) && Self::LEN + len <= RESEED);
        self.extension.store(if len == 0 { NO_EXTENSION } else { len }, Relaxed);
    }

    /// How many bytes each refill writes now: the buffer and its extension.
    #[cfg(any(test, feature = "internals"))]
    pub(crate) fn buffer_len(&self) -> usize {
        Self::LEN + self.extension_len()
    }

    /// Writes `nblocks <= RESEED / 16` blocks of keystream to `out` and
    /// rekeys ([`keystream::write_and_rekey`]), reseeding first if the
    /// interval is used up, and otherwise first mixing the kernel's current
    /// output into the key ([`KernelMix`]) for a refill of the buffer, and
    /// for `direct` output (into a caller's memory, at most [`MIX_DIRECT`]
    /// bytes where there is a source) that would take the direct output
    /// since the last mix past [`MIX_DIRECT`] bytes. Before that, if the
    /// owner's VM generation changed since the last reseed and the state
    /// holds something of before (a key not about to be reseeded, or a
    /// buffer), the generator is wiped ([`Self::wipe`], which leaves `live`
    /// at 0 for the owner to find) and reseeds from the OS. One read of the
    /// generation serves the comparison and the reseed's record, so that no
    /// snapshot restored between the two can have the reseed record the new
    /// value over a buffer that the comparison kept.
    ///
    /// # Safety
    /// `out` is valid for writes of `16 * nblocks` bytes and does not overlap
    /// the key schedule.
    unsafe fn write_and_rekey(&self, out: *mut u8, nblocks: usize, direct: bool) {
        let bytes = nblocks * BLOCK_LEN;
        debug_assert!(bytes <= RESEED);
        let mut left = self.until_reseed.load(Relaxed);
        let mut unmixed = self.direct_unmixed.load(Relaxed) as usize;
        let generation = self.mix.vm_generation();
        let holds_some = left >= bytes || self.filled.load(Relaxed) != 0;
        if holds_some && generation.is_some_and(|g| g != self.vm_generation.load(Relaxed)) {
            // A clone of a VM snapshot: discard the state as the kernel
            // discards a dropped page. `live` goes to 0, so the owner
            // throws away what this call produces and wipes the state
            // again; the call runs on from the zeroed state, whose first
            // write reseeds.
            self.wipe();
            left = 0;
        }
        if left < bytes {
            self.reseed(generation);
            left = RESEED;
            unmixed = 0;
        } else if (!direct || unmixed + bytes > MIX_DIRECT) && self.mix_kernel_output() {
            unmixed = 0;
        }
        // SAFETY: the schedule belongs to this generator and was made by the
        // process's backend (or is the zeroed one just reseeded); `out` is
        // the caller's.
        unsafe { keystream::write_and_rekey(self.schedule.get(), out, nblocks) };
        self.until_reseed.store(left - bytes, Relaxed);
        // At most a reseed interval (`unmixed` is 0 after one).
        self.direct_unmixed.store(if direct { unmixed + bytes } else { unmixed } as u32, Relaxed);
    }

    /// XORs 16 bytes of the kernel's current output into the key, if the
    /// owner has a source of it ([`KernelMix::fresh`]); returns whether it
    /// did. The source writes them straight into the state, never onto the
    /// stack.
    fn mix_kernel_output(&self) -> bool {
        if !self.mix.available() {
            return false;
        }
        let seed = self.seed.get();
        // SAFETY: `seed` is this generator's 32-byte field, zero between
        // calls, so that with the source's 16 bytes written at its start it
        // changes only the key's first half; the schedule is its own and
        // valid.
        unsafe {
            if !self.mix.fresh(seed.cast()) {
                return false;
            }
            keystream::xor_seed_into_key(self.schedule.get(), seed);
            zeroize::Zeroize::zeroize(&mut *seed);
        }
        true
    }

    /// Whether the owner's VM generation differs from the one recorded at
    /// the last reseed (a VM snapshot was restored since). False where the
    /// owner has none, or it cannot be read now.
    #[inline]
    fn vm_generation_changed(&self) -> bool {
        self.mix.vm_generation().is_some_and(|g| g != self.vm_generation.load(Relaxed))
    }

    /// XORs 32 fresh bytes from the OS into the key
    /// ([`keystream::xor_seed_into_key`]), and records `generation`, the
    /// owner's VM generation as its caller read it before them. The OS
    /// writes them straight into the state, never onto the stack.
    ///
    /// If the owner has a VM generation, the generator becomes [`CHECKED`]
    /// (it is, as a rule, from its first reseed after a zeroing) until it is
    /// next zeroed: it uses no extension from its next refill on, and the
    /// unread bytes of its buffer, if any, move from the owner's counts word
    /// to `checked_counts`, so that from here on only [`Self::fill`] hands
    /// them out.
    fn reseed(&self, generation: Option<u64>) {
        // Read before: a snapshot taken between the read and the reseed
        // leaves a clone that records the older generation, and so discards
        // the state at its next refill or handout.
        self.vm_generation.store(generation.unwrap_or(0), Relaxed);
        if generation.is_some() && !self.is_checked() {
            self.extension.store(CHECKED, Relaxed);
            // These may lie in an extension attached before: `wipe` zeroes
            // what either word counts there.
            self.checked_counts.store(self.counts.word().swap(0, Relaxed), Relaxed);
        }
        let seed = self.seed.get();
        // SAFETY: `seed` is this generator's 32-byte field; the schedule is
        // its own and valid (a zeroed one included).
        unsafe {
            entropy::os_fill_raw(seed.cast(), 32);
            keystream::xor_seed_into_key(self.schedule.get(), seed);
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

    /// Zeroes the whole generator and its extension, which makes it unseeded
    /// again and detaches the extension.
    pub(crate) fn wipe(&self) {
        let extension = self.extension_len();
        self.live.store(0, Relaxed);
        let w = self.counts.word().swap(0, Relaxed);
        let checked = self.checked_counts.swap(0, Relaxed);
        self.filled.store(0, Relaxed);
        self.extension.store(0, Relaxed);
        self.until_reseed.store(0, Relaxed);
        self.direct_unmixed.store(0, Relaxed);
        self.vm_generation.store(0, Relaxed);
        // After a drop the generator's record of its extension reads zero,
        // but the counts word, kept outside it, still placed the unread
        // bytes; a generator that became checked with an extension attached
        // counts them in its own word.
        self.zero_unread_extension(w);
        self.zero_unread_extension(checked);
        // SAFETY: the fields are this generator's own plain bytes, and no
        // reference into them is live (only raw pointers are ever made).
        unsafe {
            let ks = self.schedule.get();
            zeroize::Zeroize::zeroize((*ks).keys.as_flattened_mut().as_flattened_mut());
            (*ks).cur.store(0, Relaxed);
            zeroize::Zeroize::zeroize(&mut *self.seed.get());
            zeroize::Zeroize::zeroize((*self.buf.get()).0.as_flattened_mut());
            // The extension was attached, so it is this generator's memory.
            zeroize::Zeroize::zeroize(core::slice::from_raw_parts_mut(self.buf().add(Self::LEN), extension));
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

impl<const BLOCKS: usize, const RESEED: usize, C: CountsWord, M: KernelMix> Drop for Generator<BLOCKS, RESEED, C, M> {
    fn drop(&mut self) {
        self.wipe();
    }
}

impl<const BLOCKS: usize, const RESEED: usize, C: CountsWord, M: KernelMix> core::fmt::Debug
    for Generator<BLOCKS, RESEED, C, M>
{
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Generator { .. }")
    }
}

#[cfg(test)]
mod tests;
