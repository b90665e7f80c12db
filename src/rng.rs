//! The `rand_core` face of randp: a zero-sized handle to the calling thread's generator.

use core::convert::Infallible;
use rand_core::{TryCryptoRng, TryRng};

/// A handle to the calling thread's randp generator, for code written against
/// the `rand_core` traits.
///
/// It implements rand_core 0.10's `TryRng` and `TryCryptoRng` with
/// `Error = Infallible`, and so `Rng` and `CryptoRng`: it works with rand
/// 0.10 (`RngExt`'s methods), not with rand 0.9 or earlier, whose `RngCore`
/// is another trait. The crate re-exports that rand_core as
/// `randp::rand_core`, so no dependency of your own is needed.
///
/// It is zero-sized, `Copy`, and holds no state: every call goes to the
/// thread-local generator through [`u32`](crate::u32), [`u64`](crate::u64)
/// or [`fill_bytes`](crate::fill_bytes), with their contract (safe from any
/// thread and from a signal handler; the process aborts if the OS entropy
/// source fails). There is no way to seed it.
///
/// # Examples
/// ```
/// use randp::rand_core::Rng;
///
/// let mut rng = randp::Randp;
/// let x = rng.next_u64();
/// let mut key = [0u8; 32];
/// rng.fill_bytes(&mut key);
/// # let _ = x;
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Randp;

impl TryRng for Randp {
    type Error = Infallible;

    /// [`randp::u32`](crate::u32). Never returns `Err`: safe from any
    /// thread and from a signal handler, and the process aborts if the OS
    /// entropy source fails ([Panics and aborts](crate#panics-and-aborts)).
    #[inline]
    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        Ok(crate::u32())
    }

    /// [`randp::u64`](crate::u64). Never returns `Err`, as
    /// [`try_next_u32`](Self::try_next_u32).
    #[inline]
    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        Ok(crate::u64())
    }

    /// [`randp::fill_bytes`](crate::fill_bytes): an empty `dst` does
    /// nothing. Never returns `Err`, as [`try_next_u32`](Self::try_next_u32).
    #[inline]
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        crate::fill_bytes(dst);
        Ok(())
    }
}

impl TryCryptoRng for Randp {}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_core::{CryptoRng, Rng};

    fn takes_crypto_rng(rng: &mut impl CryptoRng) -> [u8; 16] {
        let mut b = [0; 16];
        rng.fill_bytes(&mut b);
        b
    }

    #[test]
    fn is_a_crypto_rng() {
        let a = takes_crypto_rng(&mut Randp);
        let b = takes_crypto_rng(&mut Randp);
        assert_ne!(a, b);
        assert_ne!(Randp.next_u64(), Randp.next_u64());
        assert_eq!(size_of::<Randp>(), 0);
    }

    #[test]
    fn works_with_rand() {
        use rand::RngExt;
        let mut rng = Randp;
        let x: u32 = rng.random_range(10..20);
        assert!((10..20).contains(&x));
    }
}
