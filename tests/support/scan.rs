//! What the tests that look for keys in memory share: running a draw deep
//! on the stack, masking a signal storm around it, the key chain of fast
//! key erasure, and a fast scan of memory for a set of 16-byte secrets.

use aes::Aes256;
use aes::cipher::{BlockCipherEncrypt, KeyInit};
use std::collections::HashSet;
use std::hint::black_box;

/// How far below the caller [`at_depth`] runs its function.
pub const DEPTH: usize = 32 * 1024;

/// Runs `f` with its frame at least [`DEPTH`] bytes below the caller's, so
/// that what it leaves on the stack is not overwritten by the caller's next
/// shallow calls.
#[inline(never)]
pub fn at_depth(f: &mut dyn FnMut()) {
    let pad = [0u8; DEPTH];
    black_box(&pad);
    f();
    black_box(&pad);
}

/// Blocks (`true`) or unblocks `sig` on this thread.
pub fn mask_signal(sig: libc::c_int, block: bool) {
    // SAFETY: a valid, initialised signal set; changes this thread's mask.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, sig);
        let how = if block { libc::SIG_BLOCK } else { libc::SIG_UNBLOCK };
        assert_eq!(libc::pthread_sigmask(how, &set, std::ptr::null_mut()), 0);
    }
}

/// The key after `key`: blocks 0 and 1 of AES-256-CTR under it.
pub fn next_key(key: &[u8; 32]) -> [u8; 32] {
    let aes = Aes256::new(key.into());
    let mut k = [0u8; 32];
    for (i, half) in k.chunks_mut(16).enumerate() {
        let mut b = (i as u128).to_be_bytes().into();
        aes.encrypt_block(&mut b);
        half.copy_from_slice(&b);
    }
    k
}

/// The keys from `first` along the chain up to `last` (not included), at
/// most `max` (a reseed breaks the chain: keys that never existed are never
/// found, so walking past it costs only time).
pub fn chain(first: [u8; 32], last: [u8; 32], max: usize) -> Vec<[u8; 32]> {
    let mut k = first;
    let mut keys = Vec::new();
    while k != last && keys.len() < max {
        keys.push(k);
        k = next_key(&k);
    }
    keys
}

/// A set of 16-byte secrets, with a filter on their first three bytes so
/// that a scan looks most windows up in a bitmap only.
pub struct Secrets {
    set: HashSet<[u8; 16]>,
    bits: Vec<u64>,
}

fn prefix_of(w: &[u8]) -> usize {
    usize::from(w[0]) << 16 | usize::from(w[1]) << 8 | usize::from(w[2])
}

impl Secrets {
    pub fn new(set: HashSet<[u8; 16]>) -> Self {
        let mut bits = vec![0u64; 1 << 18];
        for v in &set {
            let i = prefix_of(v);
            bits[i / 64] |= 1 << (i % 64);
        }
        Secrets { set, bits }
    }

    pub fn len(&self) -> usize {
        self.set.len()
    }

    /// How many 16-byte windows of `mem` (at every offset) are secrets.
    pub fn count_in(&self, mem: &[u8]) -> usize {
        mem.windows(16)
            .filter(|w| {
                let i = prefix_of(w);
                self.bits[i / 64] & (1 << (i % 64)) != 0 && self.set.contains(<&[u8; 16]>::try_from(*w).unwrap())
            })
            .count()
    }
}
