//! AES-256-CTR with fast key erasure: the only place where keystream is made.
//!
//! Each call expands the current key, writes the first 32 bytes of its
//! keystream over that key and the rest to the caller, then drops (and so
//! zeroes) the expanded key schedule. A key is therefore used for exactly one
//! call and the counter can start at zero every time; whoever later captures
//! the state learns the next key, never one that produced past output.

use aes::Aes256;
use ctr::cipher::{KeyIvInit, StreamCipher};

/// AES-256 in counter mode with a 128-bit big-endian counter (NIST SP 800-38A).
pub(crate) type Aes256Ctr = ctr::Ctr128BE<Aes256>;

/// Length of an AES-256 key in bytes.
pub(crate) const KEY_LEN: usize = 32;

/// Length of an AES block in bytes; every output buffer is a whole number of them.
pub(crate) const BLOCK_LEN: usize = 16;

/// Replaces `key` with keystream blocks 0 and 1 under `key`, and writes the
/// keystream that follows (from block 2 on) to `out`.
///
/// `out.len()` should be a multiple of [`BLOCK_LEN`]; any length is correct.
pub(crate) fn generate(key: &mut [u8; KEY_LEN], out: &mut [u8]) {
    let mut cipher = Aes256Ctr::new((&*key).into(), &Default::default());
    // Writing over the key itself leaves no copy of the old key behind.
    cipher.write_keystream(key);
    cipher.write_keystream(out);
    // `cipher` holds the expanded schedule; the `zeroize` features of `aes`
    // and `ctr` overwrite it when it is dropped here.
}

#[cfg(test)]
mod tests {
    use super::*;
    use hex_literal::hex;

    /// NIST SP 800-38A, appendix F.5.5, CTR-AES256.Encrypt.
    #[test]
    fn aes256_ctr_matches_sp800_38a_f55() {
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
        Aes256Ctr::new(&key.into(), &counter.into()).apply_keystream(&mut data);
        assert_eq!(data, expected);
    }

    /// `generate` is plain CTR from counter zero, with blocks 0 and 1 taken as
    /// the next key: checked against single AES block encryptions.
    #[test]
    fn generate_rotates_key_from_counter_zero() {
        use aes::cipher::{BlockCipherEncrypt, KeyInit};
        let first_key = hex!("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f");
        let aes = Aes256::new(&first_key.into());
        let block = |i: u128| {
            let mut b = i.to_be_bytes().into();
            aes.encrypt_block(&mut b);
            <[u8; 16]>::from(b)
        };

        let mut key = first_key;
        let mut out = [0u8; 48];
        generate(&mut key, &mut out);

        assert_eq!(key[..16], block(0));
        assert_eq!(key[16..], block(1));
        for i in 0..3 {
            assert_eq!(out[i * 16..(i + 1) * 16], block(i as u128 + 2));
        }
    }
}
