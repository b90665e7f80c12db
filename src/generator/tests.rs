use super::*;
use aes::Aes256;
use aes::cipher::{BlockCipherEncrypt, KeyInit};
use hex_literal::hex;
use std::boxed::Box;
use std::vec::Vec;

type Small = Generator<4, 64>;

/// A zeroed (unseeded) generator on the heap.
fn zeroed() -> Box<Small> {
    // SAFETY: all-zero is a valid generator (see the module docs).
    unsafe { Box::<Small>::new_zeroed().assume_init() }
}

/// A generator with a fixed key and reseeding pushed out of reach, so its
/// output is known. Test-only: randp has no seed API.
fn keyed(key: [u8; 32]) -> Box<Small> {
    let g = zeroed();
    // SAFETY: mixing into the zeroed schedule makes `key` the key.
    unsafe { keystream::mix(g.schedule.get(), &key) };
    g.until_reseed.store(usize::MAX / 2, Relaxed);
    g
}

fn key_of(g: &Small) -> [u8; 32] {
    // SAFETY: reading the generator's own schedule; nothing writes it meanwhile.
    let ks = unsafe { &*g.schedule.get() };
    let mut k = [0u8; 32];
    k[..16].copy_from_slice(&ks.current()[0]);
    k[16..].copy_from_slice(&ks.current()[1]);
    k
}

fn fill(g: &Small, dst: &mut [u8]) {
    // SAFETY: `dst` is a valid slice outside the generator.
    unsafe { g.fill(dst.as_mut_ptr(), dst.len()) }
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

/// The first output of a fixed key, as a known answer of the whole
/// construction: AES-256-CTR from counter zero, blocks 0 and 1 the next key.
#[test]
fn fixed_key_known_answer() {
    let key = hex!("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f");
    let g = keyed(key);
    let mut out = [0u8; 16];
    fill(&g, &mut out);
    // AES-256(key, counter block 2), computed independently of this crate.
    assert_eq!(out[..], ctr_blocks(&key, 2, 1)[..]);
    assert_eq!(key_of(&g)[..], ctr_blocks(&key, 0, 2)[..]);
}

#[test]
fn fixed_key_output_follows_fast_key_erasure() {
    let mut key = hex!("8f3a0be6a3d5c2a1f0e1d2c3b4a5968778695a4b3c2d1e0f1122334455667788");
    let g = keyed(key);
    // Three refills' worth of output, read in uneven pieces smaller than the
    // buffer (larger ones would go straight to the caller).
    let mut out = std::vec![0u8; 3 * 64];
    let mut at = 0;
    for len in [5, 50, 60, 63, 14] {
        fill(&g, &mut out[at..at + len]);
        at += len;
    }
    assert_eq!(at, out.len());

    let mut expected = Vec::new();
    for _ in 0..3 {
        let stream = ctr_blocks(&key, 0, 2 + 4);
        expected.extend_from_slice(&stream[32..]);
        key.copy_from_slice(&stream[..32]);
    }
    assert_eq!(out, expected);
    assert_eq!(key_of(&g), key, "the key after three refills is the erasure chain's");
}

#[test]
fn large_requests_go_straight_to_the_caller_one_interval_per_key() {
    let mut key = [7u8; 32];
    let g = keyed(key);
    let mut big = std::vec![0u8; 64 * 5 + 3];
    fill(&g, &mut big);
    // 20 whole blocks straight to the caller, at most one reseed interval
    // (64 bytes here) per key, then 3 bytes from a refill under the next key.
    let mut expected = Vec::new();
    for _ in 0..5 {
        let stream = ctr_blocks(&key, 0, 6);
        expected.extend_from_slice(&stream[32..]);
        key.copy_from_slice(&stream[..32]);
    }
    expected.extend_from_slice(&ctr_blocks(&key, 2, 1)[..3]);
    assert_eq!(big, expected);
}

#[test]
fn large_requests_reseed_at_the_interval() {
    // A zeroed generator: the interval is 64 bytes, so a 256-byte request
    // takes four keys, each from a reseed; no two chunks share a key.
    let g = zeroed();
    let mut big = std::vec![0u8; 256];
    fill(&g, &mut big);
    let mut blocks: Vec<&[u8]> = big.chunks(16).collect();
    blocks.sort();
    blocks.dedup();
    assert_eq!(blocks.len(), 16);
    assert_eq!(g.until_reseed.load(Relaxed), 0);
}

#[test]
fn old_key_is_gone_after_refill_and_read_bytes_are_zero() {
    let key = [0x5au8; 32];
    let g = keyed(key);
    let mut first = [0u8; 24];
    fill(&g, &mut first);

    // SAFETY: reading the generator's own bytes as a byte slice; it is
    // `repr(C)` plain data, outlives the slice, and nothing writes it meanwhile.
    let bytes = unsafe { core::slice::from_raw_parts((&*g as *const Small).cast::<u8>(), size_of::<Small>()) };
    for half in [&key[..16], &key[16..]] {
        assert!(!bytes.windows(16).any(|w| w == half), "no half of the old key is left in the state");
    }
    // SAFETY: as above.
    let buf = unsafe { (*g.buf.get()).0.as_flattened() };
    assert_eq!(buf[..24], [0u8; 24], "handed-out bytes read back as zero");
    assert_ne!(buf[24..], [0u8; 40], "unread bytes are still there");
    assert!(!bytes.windows(24).any(|w| w == first), "output is not kept");
}

#[test]
fn zeroed_generator_reseeds_before_output() {
    let g = zeroed();
    let mut out = [0u8; 64];
    fill(&g, &mut out);
    let zero_key_stream = ctr_blocks(&[0u8; 32], 2, 4);
    assert_ne!(out[..], zero_key_stream[..], "never output under the all-zero key");
    assert_eq!(g.until_reseed.load(Relaxed), 0);
    assert_ne!(key_of(&g), [0u8; 32]);
    // SAFETY: reading the generator's own seed field.
    assert_eq!(unsafe { *g.seed.get() }, [0u8; 32], "the fresh OS bytes are wiped after use");
}

#[test]
fn reseeds_when_interval_is_used_up() {
    let key = [1u8; 32];
    let g = keyed(key);
    g.until_reseed.store(64, Relaxed); // exactly one refill left
    let mut out = [0u8; 128];
    fill(&g, &mut out);
    let chain = ctr_blocks(&key, 0, 6);
    assert_eq!(out[..64], chain[32..], "first buffer still from the old chain");
    let next_key: [u8; 32] = chain[..32].try_into().unwrap();
    assert_ne!(out[64..], ctr_blocks(&next_key, 2, 4)[..], "second buffer after a reseed");
    assert_eq!(g.until_reseed.load(Relaxed), 0);
}

#[test]
fn take_hands_out_each_byte_once() {
    let g = keyed([3u8; 32]);
    let mut via_take = Vec::new();
    for _ in 0..8 {
        via_take.extend_from_slice(&g.take::<8>().unwrap_or_else(|| {
            let mut b = [0; 8];
            fill(&g, &mut b);
            b
        }));
    }
    let h = keyed([3u8; 32]);
    let mut via_fill = [0u8; 64];
    fill(&h, &mut via_fill);
    assert_eq!(via_take, via_fill);
}

#[test]
fn wipe_makes_it_unseeded() {
    let g = keyed([9u8; 32]);
    let mut out = [0u8; 10];
    fill(&g, &mut out);
    g.wipe();
    // SAFETY: reading the generator's own bytes, as above.
    let bytes = unsafe { core::slice::from_raw_parts((&*g as *const Small).cast::<u8>(), size_of::<Small>()) };
    assert!(bytes.iter().all(|&b| b == 0));
}

#[test]
fn debug_hides_state() {
    assert_eq!(std::format!("{:?}", keyed([9; 32])), "Generator { .. }");
}
