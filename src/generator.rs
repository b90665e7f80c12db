//! The generator: a buffer of keystream, handed out once, behind a key that
//! changes at every refill.
//!
//! All state is plain bytes and integers, and the all-zero value is a valid,
//! unseeded generator: its first draw reseeds from the OS before any output.
//! That is what lets a forked child whose state the kernel wiped
//! (MADV_WIPEONFORK) carry on safely.

use crate::entropy;
use crate::keystream::{self, BLOCK_LEN, KEY_LEN};
use zeroize::Zeroize;

/// Default buffer size in 16-byte AES blocks (16 KiB of output per refill).
/// Chosen with `make num-blocks`; see the README.
pub const DEFAULT_BLOCKS: usize = 1024;

/// Default reseed interval: at most this many bytes of output per thread
/// between two mixes of fresh OS entropy into the key.
/// Chosen with `make reseed-countdown`; see the README.
pub const DEFAULT_RESEED: usize = 1 << 20;

/// AES-256-CTR with fast key erasure over a buffer of `BLOCKS` blocks,
/// reseeded from the OS every `RESEED` bytes of output.
///
/// Every refill writes `32 + 16 * BLOCKS` bytes of keystream under the current
/// key: the first 32 become the next key, the rest the buffer. Bytes are
/// zeroed in the buffer as they are handed out. Requests of at least a whole
/// buffer are written straight into the caller's memory, one buffer-sized
/// chunk (and one key) at a time.
#[repr(C)]
pub struct Generator<const BLOCKS: usize, const RESEED: usize> {
    key: [u8; KEY_LEN],
    /// Unread bytes, at the end of `buf`. Zero in a zeroed generator.
    remaining: usize,
    /// Bytes that may still be generated before the next reseed. Zero in a
    /// zeroed generator, which therefore reseeds before its first output.
    until_reseed: usize,
    buf: [[u8; BLOCK_LEN]; BLOCKS],
}

impl<const BLOCKS: usize, const RESEED: usize> Generator<BLOCKS, RESEED> {
    /// Output bytes per refill.
    const LEN: usize = {
        assert!(BLOCKS > 0, "the buffer holds at least one block");
        assert!(RESEED >= BLOCKS * BLOCK_LEN, "a reseed interval holds at least one buffer");
        assert!(RESEED <= 1 << 20, "reseed at least every MiB of output");
        BLOCKS * BLOCK_LEN
    };

    /// Takes the next `N` bytes from the buffer, zeroing them there, or
    /// returns `None` when fewer than `N` are left (the caller then takes the
    /// slow path through [`Self::fill_bytes`]).
    #[inline(always)]
    pub(crate) fn take<const N: usize>(&mut self) -> Option<[u8; N]> {
        let r = self.remaining;
        if r < N {
            return None;
        }
        debug_assert!(r <= Self::LEN);
        let start = Self::LEN - r;
        // SAFETY: `remaining <= LEN` always holds (it is only ever set to LEN
        // or lowered), so `start + N <= LEN` lies inside `buf`.
        let out = unsafe {
            let src = self.buf.as_flattened_mut().as_mut_ptr().add(start).cast::<[u8; N]>();
            let out = src.read_unaligned();
            src.write_unaligned([0; N]);
            out
        };
        self.remaining = r - N;
        Some(out)
    }

    /// Fills `dst` with output, refilling or reseeding as needed.
    pub fn fill_bytes(&mut self, dst: &mut [u8]) {
        let taken = self.take_into(dst);
        let mut rest = &mut dst[taken..];
        while rest.len() >= Self::LEN {
            let (chunk, tail) = rest.split_at_mut(Self::LEN);
            self.generate_into(chunk);
            rest = tail;
        }
        if !rest.is_empty() {
            self.refill();
            let taken = self.take_into(rest);
            debug_assert_eq!(taken, rest.len());
        }
    }

    /// Returns 8 bytes of output as a native-endian `u64`.
    #[cfg(feature = "internals")]
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

    /// Copies as much of the buffer as fits into `dst`, zeroing it behind.
    fn take_into(&mut self, dst: &mut [u8]) -> usize {
        let n = self.remaining.min(dst.len());
        let start = Self::LEN - self.remaining;
        let src = &mut self.buf.as_flattened_mut()[start..start + n];
        dst[..n].copy_from_slice(src);
        // A plain memset: the buffer lives on (and is read again) after this
        // call, so the store cannot be optimised away, and zeroize's
        // byte-at-a-time volatile writes would cost more than the AES.
        src.fill(0);
        self.remaining -= n;
        n
    }

    /// Refills the whole buffer under a fresh key; unread bytes are overwritten.
    fn refill(&mut self) {
        Self::generate(&mut self.key, &mut self.until_reseed, self.buf.as_flattened_mut());
        self.remaining = Self::LEN;
    }

    /// Writes `out.len() <= LEN` bytes of keystream and rotates the key,
    /// reseeding first if the interval is used up.
    fn generate_into(&mut self, out: &mut [u8]) {
        Self::generate(&mut self.key, &mut self.until_reseed, out);
    }

    fn generate(key: &mut [u8; KEY_LEN], until_reseed: &mut usize, out: &mut [u8]) {
        debug_assert!(out.len() <= Self::LEN);
        if *until_reseed < out.len() {
            reseed(key);
            *until_reseed = RESEED;
        }
        keystream::generate(key, out);
        *until_reseed -= out.len();
    }

    /// Zeroes the whole generator, which makes it unseeded again.
    pub(crate) fn wipe(&mut self) {
        self.key.zeroize();
        self.buf.as_flattened_mut().zeroize();
        self.remaining.zeroize();
        self.until_reseed.zeroize();
    }
}

/// Mixes 32 fresh bytes from the OS into `key`. An all-zero key becomes
/// exactly those bytes.
fn reseed(key: &mut [u8; KEY_LEN]) {
    let mut fresh = [0u8; KEY_LEN];
    entropy::os_fill(&mut fresh);
    for (k, f) in key.iter_mut().zip(&fresh) {
        *k ^= f;
    }
    fresh.zeroize();
}

#[cfg(feature = "internals")]
impl<const BLOCKS: usize, const RESEED: usize> Generator<BLOCKS, RESEED> {
    /// A new generator; it seeds itself from the OS at its first draw.
    pub fn new() -> Box<Self> {
        // SAFETY: every field is an integer or an array of bytes, for which
        // all-zero is a valid value; zero is the documented unseeded state.
        unsafe { Box::<Self>::new_zeroed().assume_init() }
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
mod tests {
    use super::*;
    use aes::Aes256;
    use aes::cipher::{BlockCipherEncrypt, KeyInit};
    use hex_literal::hex;

    type Small = Generator<4, 64>;

    /// A generator with a fixed key and reseeding pushed out of reach, so its
    /// output is known. Test-only: randp has no seed API.
    fn keyed(key: [u8; 32]) -> Box<Small> {
        // SAFETY: all-zero is a valid generator (see the module docs).
        let mut g = unsafe { Box::<Small>::new_zeroed().assume_init() };
        g.key = key;
        g.until_reseed = usize::MAX;
        g
    }

    /// Blocks `from..from + n` of AES-256 in counter mode under `key`,
    /// computed with single block encryptions.
    fn ctr_blocks(key: &[u8; 32], from: u128, n: usize) -> Vec<u8> {
        let aes = Aes256::new(key.into());
        (0..n as u128)
            .flat_map(|i| {
                let mut b = (from + i).to_be_bytes().into();
                aes.encrypt_block(&mut b);
                <[u8; 16]>::from(b)
            })
            .collect()
    }

    #[test]
    fn fixed_key_output_follows_fast_key_erasure() {
        let mut key = hex!("8f3a0be6a3d5c2a1f0e1d2c3b4a5968778695a4b3c2d1e0f1122334455667788");
        let mut g = keyed(key);
        // Three refills' worth of output, read in uneven pieces.
        let mut out = vec![0u8; 3 * 64];
        let (a, rest) = out.split_at_mut(5);
        g.fill_bytes(a);
        let (b, c) = rest.split_at_mut(100);
        g.fill_bytes(b);
        g.fill_bytes(c);

        let mut expected = Vec::new();
        for _ in 0..3 {
            let stream = ctr_blocks(&key, 0, 2 + 4);
            expected.extend_from_slice(&stream[32..]);
            key.copy_from_slice(&stream[..32]);
        }
        assert_eq!(out, expected);
        assert_eq!(g.key, key, "the key after three refills is the erasure chain's");
    }

    #[test]
    fn large_requests_rotate_the_key_every_buffer() {
        let key = [7u8; 32];
        let mut direct = keyed(key);
        let mut piecewise = keyed(key);
        let mut big = vec![0u8; 64 * 5 + 3];
        direct.fill_bytes(&mut big);
        let mut small = vec![0u8; big.len()];
        for chunk in small.chunks_mut(8) {
            piecewise.fill_bytes(chunk);
        }
        // Whole buffers go straight to the caller but use the same key chain.
        assert_eq!(big[..64 * 5], small[..64 * 5]);
    }

    #[test]
    fn old_key_is_gone_after_refill_and_read_bytes_are_zero() {
        let key = [0x5au8; 32];
        let mut g = keyed(key);
        let mut first = [0u8; 24];
        g.fill_bytes(&mut first);

        // SAFETY: reading the generator's own bytes as a byte slice; it is
        // `repr(C)` plain data and outlives the slice.
        let bytes = unsafe {
            core::slice::from_raw_parts((&*g as *const Small).cast::<u8>(), size_of::<Small>())
        };
        assert!(
            !bytes.windows(32).any(|w| w == key),
            "the key that made the buffer is no longer anywhere in the state"
        );
        assert_eq!(g.buf.as_flattened()[..24], [0u8; 24], "handed-out bytes read back as zero");
        assert_ne!(g.buf.as_flattened()[24..], [0u8; 40], "unread bytes are still there");
        assert!(!bytes.windows(24).any(|w| w == first), "output is not kept");
    }

    #[test]
    fn zeroed_generator_reseeds_before_output() {
        // SAFETY: all-zero is a valid generator.
        let mut g = unsafe { Box::<Small>::new_zeroed().assume_init() };
        let mut out = [0u8; 64];
        g.fill_bytes(&mut out);
        let zero_key_stream = ctr_blocks(&[0u8; 32], 2, 4);
        assert_ne!(out[..], zero_key_stream[..], "never output under the all-zero key");
        assert_eq!(g.until_reseed, 64 - 64);
        assert_ne!(g.key, [0u8; 32]);
    }

    #[test]
    fn reseeds_when_interval_is_used_up() {
        let key = [1u8; 32];
        let mut g = keyed(key);
        g.until_reseed = 64; // exactly one refill left
        let mut out = [0u8; 128];
        g.fill_bytes(&mut out);
        let chain = ctr_blocks(&key, 0, 6);
        assert_eq!(out[..64], chain[32..], "first buffer still from the old chain");
        let next_key: [u8; 32] = chain[..32].try_into().unwrap();
        assert_ne!(out[64..], ctr_blocks(&next_key, 2, 4)[..], "second buffer after a reseed");
        assert_eq!(g.until_reseed, 0);
    }

    #[test]
    fn take_hands_out_each_byte_once() {
        let mut g = keyed([3u8; 32]);
        let mut via_take = Vec::new();
        for _ in 0..8 {
            via_take.extend_from_slice(&g.take::<8>().unwrap_or_else(|| {
                let mut b = [0; 8];
                g.fill_bytes(&mut b);
                b
            }));
        }
        let mut h = keyed([3u8; 32]);
        let mut via_fill = [0u8; 64];
        h.fill_bytes(&mut via_fill);
        assert_eq!(via_take, via_fill);
    }

    #[test]
    fn debug_hides_state() {
        assert_eq!(format!("{:?}", keyed([9; 32])), "Generator { .. }");
    }
}
