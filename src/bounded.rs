//! Uniform integers below a bound, without modulo bias.
//!
//! Lemire's nearly divisionless method ("Fast Random Integer Generation in an
//! Interval", ACM TOMACS 2019): multiply a uniform word by the bound, keep the
//! high half, and reject the few low halves that would bias it. A division is
//! needed only when the low half falls below the bound.

/// A uniform value in `[0, bound)` drawn from `next`, or 0 when `bound <= 1`.
#[inline]
pub(crate) fn below_u32(bound: u32, mut next: impl FnMut() -> u32) -> u32 {
    if bound <= 1 {
        return 0;
    }
    below_u32_from(bound, u64::from(next()) * u64::from(bound), next)
}

/// [`below_u32`] from its first product `m`, a uniform word times `bound`
/// (`bound >= 2`), for callers that drew that word themselves and took the
/// value at once when `m`'s low half was at least `bound`: this goes on
/// from the same `m` (drawing a new word in its place instead would bias
/// the result).
#[inline]
pub(crate) fn below_u32_from(bound: u32, mut m: u64, mut next: impl FnMut() -> u32) -> u32 {
    if (m as u32) < bound {
        let threshold = bound.wrapping_neg() % bound;
        while (m as u32) < threshold {
            m = u64::from(next()) * u64::from(bound);
        }
    }
    (m >> 32) as u32
}

/// A uniform value in `[0, bound)` drawn from `next`, or 0 when `bound <= 1`.
#[inline]
pub(crate) fn below_u64(bound: u64, mut next: impl FnMut() -> u64) -> u64 {
    if bound <= 1 {
        return 0;
    }
    below_u64_from(bound, u128::from(next()) * u128::from(bound), next)
}

/// [`below_u32_from`] for `u64`.
#[inline]
pub(crate) fn below_u64_from(bound: u64, mut m: u128, mut next: impl FnMut() -> u64) -> u64 {
    if (m as u64) < bound {
        let threshold = bound.wrapping_neg() % bound;
        while (m as u64) < threshold {
            m = u128::from(next()) * u128::from(bound);
        }
    }
    (m >> 64) as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_exactly_the_biased_low_halves() {
        // bound 3: 2^32 mod 3 == 1, so only a low half of 0 is rejected.
        // x = 0 gives m = 0 (low 0 < 1: rejected); the next word is used.
        let mut words = [0u32, u32::MAX].into_iter();
        assert_eq!(below_u32(3, || words.next().unwrap()), 2);
        let mut words = [0u64, u64::MAX].into_iter();
        assert_eq!(below_u64(3, || words.next().unwrap()), 2);
    }

    #[test]
    fn goes_on_from_the_first_product_it_is_given() {
        // bound 3: threshold 2^32 mod 3 == 1. A first product whose low half
        // is 2 (below the bound, at the threshold) is accepted as it is,
        // without a draw: a caller that replaced it by a new word would
        // drop the value it stands for. A low half of 0 is rejected.
        let never = || -> u32 { panic!("the given product is accepted") };
        assert_eq!(below_u32_from(3, 5 << 32 | 2, never), 5);
        let mut words = [u32::MAX].into_iter();
        assert_eq!(below_u32_from(3, 5 << 32, || words.next().unwrap()), 2);
        let never = || -> u64 { panic!("the given product is accepted") };
        assert_eq!(below_u64_from(3, 5 << 64 | 2, never), 5);
        let mut words = [u64::MAX].into_iter();
        assert_eq!(below_u64_from(3, 5 << 64, || words.next().unwrap()), 2);
    }

    #[test]
    fn extremes_map_to_ends_of_range() {
        assert_eq!(below_u32(1000, || 0x8000_0001), 500);
        assert_eq!(below_u32(1000, || u32::MAX), 999);
        assert_eq!(below_u64(1000, || u64::MAX), 999);
        assert_eq!(below_u32(u32::MAX, || u32::MAX), u32::MAX - 1);
    }

    #[test]
    fn bounds_zero_and_one_return_zero_without_drawing() {
        let never = || -> u32 { panic!("no draw for a trivial bound") };
        assert_eq!(below_u32(0, never), 0);
        assert_eq!(below_u32(1, never), 0);
        let never = || -> u64 { panic!("no draw for a trivial bound") };
        assert_eq!(below_u64(0, never), 0);
        assert_eq!(below_u64(1, never), 0);
    }
}
