//! Every backend this CPU runs, block for block against the `aes` crate's
//! AES-256 block function.

use super::*;
use aes::Aes256;
use aes::cipher::{BlockCipherEncrypt, KeyInit};
use hex_literal::hex;
use std::vec::Vec;

/// Blocks `0..n` of AES-256 in counter mode under `key` (128-bit big-endian
/// counter from zero), one block encryption at a time.
fn reference(key: &[u8; 32], n: usize) -> Vec<u8> {
    let aes = Aes256::new(key.into());
    (0..n as u128)
        .flat_map(|i| {
            let mut b = i.to_be_bytes().into();
            aes.encrypt_block(&mut b);
            <[u8; 16]>::from(b)
        })
        .collect()
}

fn random_key() -> [u8; 32] {
    let mut k = [0u8; 32];
    crate::entropy::os_fill(&mut k);
    k
}

/// A schedule for `key` made by backend `b` (`xor_seed_into_key` on a
/// zeroed one).
fn schedule(b: Backend, key: &[u8; 32]) -> std::boxed::Box<Schedule> {
    let mut ks = std::boxed::Box::new(Schedule::zero());
    // SAFETY: `ks` is a valid schedule, `key` 32 readable bytes, and the
    // callers only pass supported backends.
    unsafe { xor_seed_into_key_with(b, &mut *ks, key) };
    ks
}

fn key_of(ks: &Schedule) -> [u8; 32] {
    let mut k = [0u8; 32];
    k[..16].copy_from_slice(&ks.current()[0]);
    k[16..].copy_from_slice(&ks.current()[1]);
    k
}

fn supported() -> Vec<Backend> {
    let all: Vec<Backend> = Backend::ALL.into_iter().filter(|b| b.supported()).collect();
    std::eprintln!("keystream backends tested on this CPU: {:?}", all);
    all
}

#[test]
fn every_backend_matches_aes_for_every_block_count() {
    // 64 KiB + 17 bytes of output: block counts 0 ..= 4098.
    const MAX_BLOCKS: usize = (64usize * 1024 + 17).div_ceil(16);
    for b in supported() {
        // The portable backend is the `aes` crate itself: one key is enough
        // (and under qemu-user, where it is tested on aarch64, it is slow).
        let keys = if b == Backend::Portable { 1 } else { 2 };
        for _ in 0..keys {
            let key = random_key();
            let stream = reference(&key, MAX_BLOCKS + 2);
            let mut out = std::vec![0u8; MAX_BLOCKS * 16 + 64];
            for n in 0..=MAX_BLOCKS {
                let mut ks = schedule(b, &key);
                out.fill(0xa5);
                // SAFETY: `ks` is a schedule made by `b`; `out` holds `16 * n + 64` bytes.
                unsafe { write_and_rekey_with(b, &mut *ks, out.as_mut_ptr(), n) };
                assert_eq!(out[..n * 16], stream[32..32 + n * 16], "{b:?}: {n} blocks");
                assert!(out[n * 16..].iter().all(|&x| x == 0xa5), "{b:?}: wrote past {n} blocks");
                assert_eq!(key_of(&ks)[..], stream[..32], "{b:?}: next key after {n} blocks");
            }
        }
    }
}

/// Block counts of successive calls: each leaves the next key's expansion
/// at a different place in the kernels (all in the blocks' groups, some
/// after them, all after them) and every kernel's groups end differently.
const CHAIN_CALLS: [usize; 12] = [37, 0, 1, 5, 21, 40, 69, 100, 135, 220, 988, 1000];

#[test]
fn every_backend_expands_the_next_key_and_mixes_seeds() {
    for b in supported() {
        let key = random_key();
        let mut ks = schedule(b, &key);
        let mut chain = key;
        let mut out = std::vec![0u8; 1000 * 16];
        for (call, n) in CHAIN_CALLS.into_iter().enumerate() {
            // SAFETY: as above.
            unsafe { write_and_rekey_with(b, &mut *ks, out.as_mut_ptr(), n) };
            let stream = reference(&chain, n + 2);
            assert_eq!(out[..n * 16], stream[32..], "{b:?}: call {call}, {n} blocks");
            chain.copy_from_slice(&stream[..32]);
        }
        // Mixing XORs fresh bytes into the key and re-expands.
        let seed = random_key();
        // SAFETY: `ks` is `b`'s schedule; `seed` is 32 readable bytes.
        unsafe { xor_seed_into_key_with(b, &mut *ks, &seed) };
        for (c, s) in chain.iter_mut().zip(seed) {
            *c ^= s;
        }
        // SAFETY: as above.
        unsafe { write_and_rekey_with(b, &mut *ks, out.as_mut_ptr(), 37) };
        assert_eq!(out[..37 * 16], reference(&chain, 39)[32..], "{b:?}: after a mix");
    }
}

#[test]
fn backends_agree_with_each_other() {
    let key = random_key();
    let mut outputs = Vec::new();
    for b in supported() {
        let mut ks = schedule(b, &key);
        let mut out = std::vec![0u8; 1000 * 16];
        for _ in 0..3 {
            // SAFETY: as above.
            unsafe { write_and_rekey_with(b, &mut *ks, out.as_mut_ptr(), 1000) };
        }
        outputs.push((b, out, key_of(&ks)));
    }
    for w in outputs.windows(2) {
        assert!(w[0].1 == w[1].1 && w[0].2 == w[1].2, "{:?} and {:?} differ", w[0].0, w[1].0);
    }
}

#[test]
fn the_chosen_backend_is_the_fastest_supported() {
    let chosen = backend();
    assert!(chosen.supported());
    let first = Backend::ALL.into_iter().find(|b| b.supported()).unwrap();
    assert_eq!(chosen, first);
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("aes") && std::is_x86_feature_detected!("ssse3") {
        assert_ne!(chosen, Backend::Portable, "AES-NI is there but not used");
    }
}

/// Each x86_64 kernel is supported exactly where the CPU and the OS have
/// what it runs on, as the standard library detects it (not the `cpufeatures`
/// crate and the CPUID read the library uses): a CPU with VAES and AVX-512
/// must not pass the tests of every backend with its widest kernel unused.
#[cfg(target_arch = "x86_64")]
#[test]
fn each_kernel_is_supported_where_the_cpu_has_its_instructions() {
    use std::is_x86_feature_detected as has;
    let aesni = has!("aes") && has!("ssse3");
    let vaes256 = has!("aes") && has!("avx2") && has!("vaes");
    let vaes512 = has!("aes") && has!("avx512f") && has!("avx512bw") && has!("vaes");
    for (b, want) in [(Backend::Vaes512, vaes512), (Backend::Vaes256, vaes256), (Backend::AesNi, aesni)] {
        assert_eq!(b.supported(), want, "{} supported", b.name());
    }
    std::eprintln!("this CPU runs: {:?}", Backend::ALL.iter().filter(|b| b.supported()).collect::<Vec<_>>());
}

/// The `aes` crate, which every kernel is tested against, against FIPS-197
/// appendix C.3 (AES-256).
#[test]
fn reference_aes_matches_fips_197_c3() {
    let key = hex!("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f");
    let mut block = hex!("00112233445566778899aabbccddeeff").into();
    Aes256::new(&key.into()).encrypt_block(&mut block);
    assert_eq!(<[u8; 16]>::from(block), hex!("8ea2b7ca516745bfeafc49904b496089"));
}

/// NIST SP 800-38A, appendix F.5.5, CTR-AES256.Encrypt, through the `ctr`
/// crate that the portable backend uses.
#[test]
fn portable_ctr_matches_sp800_38a_f55() {
    use ctr::cipher::{KeyIvInit, StreamCipher};
    let key = hex!("603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4");
    let counter = hex!("f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff");
    let mut data = hex!(
        "6bc1bee22e409f96e93d7e117393172a"
        "ae2d8a571e03ac9c9eb76fac45af8e51"
        "30c81c46a35ce411e5fbc1191a0a52ef"
        "f69f2445df4f9b17ad2b417be66c3710"
    );
    let expected = hex!(
        "601ec313775789a5b7a7f504bbf3d228"
        "f443e3ca4d62b59aca84e990cacaf5c5"
        "2b0930daa23de94ce87017ba2d84988d"
        "dfc9c58db67aada613c2dd08457941a6"
    );
    ctr::Ctr128BE::<Aes256>::new(&key.into(), &counter.into()).apply_keystream(&mut data);
    assert_eq!(data, expected);
}

/// Once a key has been made, the backend is fixed: switching from the
/// portable backend (which keeps two round keys) to an x86 one would run AES
/// with 13 zero round keys.
#[cfg(feature = "internals")]
#[test]
fn force_is_refused_once_a_key_exists() {
    let mut ks = std::boxed::Box::new(Schedule::zero());
    // SAFETY: `ks` is a valid (zeroed) schedule and the key 32 readable bytes.
    unsafe { xor_seed_into_key(&mut *ks, &random_key()) };
    let current = backend();
    for b in Backend::ALL.into_iter().filter(|b| b.supported()) {
        assert_eq!(force(b), b == current, "force({b:?}) after a key was made, backend {current:?}");
    }
    assert_eq!(backend(), current);
}

/// Every copy-out this CPU runs ([`move_out`], which picks by the chosen
/// backend and the length, the short move alone up to its limit, and each
/// vector width directly): for lengths
/// around every vector and word boundary and both sides of `SPLIT_FROM`, and
/// for `src` and `dst` on and off every alignment a vector cares about,
/// `dst` gets exactly the `n` bytes, they are zero at `src`, and nothing
/// before or after either range changes.
#[test]
fn every_move_out_copies_exactly_and_zeroes_behind() {
    type Move = unsafe fn(*mut u8, *mut u8, usize);
    let mut moves: Vec<(&str, Move, usize, usize)> = std::vec![
        ("move_out", move_out, 0, usize::MAX),
        ("short", move_out_short, 0, WORDS_UP_TO),
        ("gprs", arch::move_gprs, 0, 15),
    ];
    #[cfg(target_arch = "aarch64")]
    moves.push(("long", aarch64::move_out_long, 64, usize::MAX));
    #[cfg(target_arch = "x86_64")]
    {
        moves.push(("128", x86::move_out_128, 16, usize::MAX));
        if x86::has_vaes256() {
            moves.push(("256", x86::move_out_256, 32, usize::MAX));
        }
        if x86::has_vaes512() {
            moves.push(("512", x86::move_out_512, 64, usize::MAX));
        }
    }
    std::eprintln!("copy-outs tested on this CPU: {:?}", moves.iter().map(|m| m.0).collect::<Vec<_>>());
    let lengths =
        (0..=200).chain([255, 256, 257, 383, 447, 500, 511, 512, 513, 527, 575, 1000, 1023, 1024, 1025, 2047]);
    let offsets = [0, 1, 7, 16, 31, 32, 33, 48, 63];
    const PAD: usize = 64;
    let pattern = |i: usize| (i * 7 + 1) as u8 | 1; // never zero
    for n in lengths {
        for (name, f, min, max) in &moves {
            if n < *min || n > *max {
                continue;
            }
            for s_off in offsets {
                for d_off in offsets {
                    let mut src = std::vec![0u8; n + 2 * PAD + 64];
                    let mut dst = std::vec![0u8; n + 2 * PAD + 64];
                    // Offsets from a 64-byte boundary inside each vector.
                    let s0 = PAD + s_off + (64 - src.as_ptr() as usize % 64) % 64;
                    let d0 = PAD + d_off + (64 - dst.as_ptr() as usize % 64) % 64;
                    src.iter_mut().enumerate().for_each(|(i, b)| *b = pattern(i));
                    dst.iter_mut().for_each(|b| *b = 0xee);
                    let before = src.clone();
                    // SAFETY: `n` bytes from `s0` and `d0` lie inside the two
                    // vectors (PAD and 64 spare bytes around them), which do
                    // not overlap; `n` is at least the vector width of `f`.
                    unsafe { f(src.as_mut_ptr().add(s0), dst.as_mut_ptr().add(d0), n) };
                    let at = || std::format!("{name}: n {n}, src +{s_off}, dst +{d_off}");
                    assert_eq!(&dst[d0..d0 + n], &before[s0..s0 + n], "copied bytes, {}", at());
                    assert!(src[s0..s0 + n].iter().all(|&b| b == 0), "zeroed at src, {}", at());
                    assert_eq!(&src[..s0], &before[..s0], "bytes before src, {}", at());
                    assert_eq!(&src[s0 + n..], &before[s0 + n..], "bytes after src, {}", at());
                    assert!(dst[..d0].iter().chain(&dst[d0 + n..]).all(|&b| b == 0xee), "bytes around dst, {}", at());
                }
            }
        }
    }
}
