//! The free functions: every draw goes to the calling thread's generator, or
//! straight to the OS when that generator cannot serve the call.

use crate::bounded;
use crate::entropy;
use crate::keystream;
use crate::prefault;
use crate::thread_state::{self, with_generator};

/// Fills `dst` with unpredictable bytes. An empty `dst` does nothing (no
/// state is touched and the OS is not read).
///
/// Safe from any thread and from a signal handler ([Threads and
/// signals](crate#threads-and-signals)).
///
/// # Aborts
/// If the OS entropy source fails when randp reads it (to seed or reseed a
/// thread's state, or for a call served by the OS directly), the process
/// aborts with a message rather than return predictable bytes ([Panics and
/// aborts](crate#panics-and-aborts)).
///
/// # Examples
/// ```
/// let mut key = [0u8; 32];
/// randp::fill_bytes(&mut key);
/// ```
#[inline]
pub fn fill_bytes(dst: &mut [u8]) {
    if dst.is_empty() {
        return;
    }
    // Short requests move their bytes inline and call nothing on the way
    // (the slow path is a tail call), so the function needs no stack frame;
    // longer ones go on in `fill_longer`, which calls the backend's vector
    // move.
    if dst.len() > keystream::WORDS_UP_TO {
        return fill_longer(dst);
    }
    // SAFETY: `dst` is a valid, writable slice, outside the generator.
    if !unsafe { thread_state::take_bytes(dst.as_mut_ptr(), dst.len()) } {
        fill_slow(dst);
    }
}

/// [`fill_bytes`] for requests longer than [`keystream::WORDS_UP_TO`].
#[inline(never)]
fn fill_longer(dst: &mut [u8]) {
    // SAFETY: `dst` is a valid, writable slice, outside the generator.
    if !unsafe { thread_state::take_bytes(dst.as_mut_ptr(), dst.len()) } {
        fill_slow(dst);
    }
}

/// [`fill_bytes`] when the buffer cannot serve the request at once: refills,
/// direct writes, a thread's first draw, a call inside a signal handler.
#[cold]
#[inline(never)]
fn fill_slow(dst: &mut [u8]) {
    // SAFETY: `dst` is a valid, writable slice, outside the generator.
    if with_generator(|g| unsafe { g.fill(dst.as_mut_ptr(), dst.len()) }).is_none() {
        // SAFETY: `dst` is a valid, writable slice, overwritten next.
        unsafe { prefault::touch_pages(dst.as_mut_ptr(), dst.len()) };
        entropy::os_fill(dst);
    }
}

/// Returns `N` unpredictable bytes: from the buffer on the fast path, else
/// through [`fill_bytes`].
#[inline(always)]
fn bytes<const N: usize>() -> [u8; N] {
    match thread_state::take::<N>() {
        Some(b) => b,
        None => bytes_slow(),
    }
}

#[cold]
#[inline(never)]
fn bytes_slow<const N: usize>() -> [u8; N] {
    let mut b = [0; N];
    fill_bytes(&mut b);
    b
}

/// Returns a uniform random `u8`.
///
/// Safe from any thread and from a signal handler ([Threads and
/// signals](crate#threads-and-signals)). Never fails: if the OS entropy
/// source fails, the process aborts with a message ([Panics and
/// aborts](crate#panics-and-aborts)).
///
/// ```
/// let _byte: u8 = randp::u8();
/// ```
#[inline]
pub fn u8() -> u8 {
    bytes::<1>()[0]
}

/// Returns a uniform random `u16`.
///
/// Safe from any thread and from a signal handler ([Threads and
/// signals](crate#threads-and-signals)). Never fails: if the OS entropy
/// source fails, the process aborts with a message ([Panics and
/// aborts](crate#panics-and-aborts)).
///
/// ```
/// let _x: u16 = randp::u16();
/// ```
#[inline]
pub fn u16() -> u16 {
    u16::from_ne_bytes(bytes())
}

/// Returns a uniform random `u32`.
///
/// Safe from any thread and from a signal handler ([Threads and
/// signals](crate#threads-and-signals)). Never fails: if the OS entropy
/// source fails, the process aborts with a message ([Panics and
/// aborts](crate#panics-and-aborts)).
///
/// ```
/// let _x: u32 = randp::u32();
/// ```
#[inline]
pub fn u32() -> u32 {
    u32::from_ne_bytes(bytes())
}

/// Returns a uniform random `u64`.
///
/// Safe from any thread and from a signal handler ([Threads and
/// signals](crate#threads-and-signals)). Never fails: if the OS entropy
/// source fails, the process aborts with a message ([Panics and
/// aborts](crate#panics-and-aborts)).
///
/// ```
/// let _x: u64 = randp::u64();
/// ```
#[inline]
pub fn u64() -> u64 {
    u64::from_ne_bytes(bytes())
}

/// Returns a uniform random `u32` in `[0, bound)`, without modulo bias.
///
/// A `bound` of 0 or 1 returns 0, as planet36/randp's `randp_lt_u32` and
/// `arc4random_uniform` do.
///
/// Safe from any thread and from a signal handler ([Threads and
/// signals](crate#threads-and-signals)). Never fails: if the OS entropy
/// source fails, the process aborts with a message ([Panics and
/// aborts](crate#panics-and-aborts)).
///
/// ```
/// let die = randp::lt_u32(6) + 1;
/// assert!((1..=6).contains(&die));
/// assert_eq!(randp::lt_u32(0), 0);
/// ```
#[inline]
pub fn lt_u32(bound: u32) -> u32 {
    // The common case calls nothing, so it needs no stack frame: a word from
    // the buffer whose product's low half is at least the bound, which
    // Lemire's method accepts at once. Everything else (a bound of 0 or 1,
    // an empty buffer, a low half that needs the threshold) goes on in
    // `lt_u32_slow`, from the same product.
    if bound > 1
        && let Some(b) = thread_state::take::<4>()
    {
        let m = u64::from(u32::from_ne_bytes(b)) * u64::from(bound);
        if m as u32 >= bound {
            return (m >> 32) as u32;
        }
        return lt_u32_slow(bound, Some(m));
    }
    lt_u32_slow(bound, None)
}

/// [`lt_u32`] from its first product, or from its first draw if `m` is
/// `None`.
#[cold]
#[inline(never)]
fn lt_u32_slow(bound: u32, m: Option<u64>) -> u32 {
    match m {
        Some(m) => bounded::below_u32_from(bound, m, u32),
        None => bounded::below_u32(bound, u32),
    }
}

/// Returns a uniform random `u64` in `[0, bound)`, without modulo bias.
///
/// A `bound` of 0 or 1 returns 0, like [`lt_u32`].
///
/// Safe from any thread and from a signal handler ([Threads and
/// signals](crate#threads-and-signals)). Never fails: if the OS entropy
/// source fails, the process aborts with a message ([Panics and
/// aborts](crate#panics-and-aborts)).
///
/// ```
/// assert!(randp::lt_u64(1 << 40) < 1 << 40);
/// ```
#[inline]
pub fn lt_u64(bound: u64) -> u64 {
    // As in `lt_u32`.
    if bound > 1
        && let Some(b) = thread_state::take::<8>()
    {
        let m = u128::from(u64::from_ne_bytes(b)) * u128::from(bound);
        if m as u64 >= bound {
            return (m >> 64) as u64;
        }
        return lt_u64_slow(bound, Some(m));
    }
    lt_u64_slow(bound, None)
}

/// [`lt_u64`] from its first product, or from its first draw if `m` is
/// `None`.
#[cold]
#[inline(never)]
fn lt_u64_slow(bound: u64, m: Option<u128>) -> u64 {
    match m {
        Some(m) => bounded::below_u64_from(bound, m, u64),
        None => bounded::below_u64(bound, u64),
    }
}

/// Whether a draw made now, at this point of the calling thread, comes
/// from the thread's userspace generator (`true`) or reads the OS
/// (`false`). Both are secure; the second is slower. Diagnostic only.
///
/// It returns `false` in any of these cases:
/// - the kernel's wipe of the state on fork cannot be verified
///   (MADV_WIPEONFORK not honoured: Linux before 4.14, some emulators, a
///   seccomp filter that fakes it, no /proc); then no thread keeps a state;
/// - no state could be mapped for this thread (no memory, or no release at
///   thread exit could be arranged);
/// - it is called in a signal handler that interrupted a randp call on this
///   thread, or after such a handler left a randp call with `siglongjmp`;
/// - the thread is exiting and its state was released (a later pthread key
///   destructor or TLS callback).
///
/// Like a draw, it maps the thread's state if the thread has none yet
/// (locked in memory where the limit allows), and may lock the state's
/// extension; it is safe wherever a draw is.
///
/// ```
/// println!("userspace generator: {}", randp::uses_userspace_generator());
/// ```
pub fn uses_userspace_generator() -> bool {
    crate::thread_state::uses_generator()
}

/// Whether this process reads a VM generation counter: on Linux 6.13+, the
/// VMClock device's (`/dev/vmclock0`, which only root may open by default),
/// where the hypervisor keeps one. Where it does, each thread's generator
/// compares the counter before it hands out any byte, and a clone of a
/// restored VM snapshot discards its state and reseeds rather than repeat
/// its original's output; such draws skip the fast path, and cost several
/// times as much. Looks once per process; false on Windows.
///
/// ```
/// println!("VM generation counter: {}", randp::vm_generation_readable());
/// ```
pub fn vm_generation_readable() -> bool {
    crate::os::vm_generation_available()
}

/// The name of the keystream backend this process uses, chosen once at run
/// time: `"vaes512"`, `"vaes256"` or `"aesni"` (x86_64 kernels on the CPU's
/// AES instructions), or `"portable"` (the `aes` crate: ARMv8 AES on aarch64,
/// constant-time software elsewhere). Diagnostic only.
///
/// ```
/// println!("keystream: {}", randp::keystream_backend());
/// ```
pub fn keystream_backend() -> &'static str {
    crate::keystream::backend().name()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::vec;
    use std::vec::Vec;

    /// Pearson's chi-square statistic of `counts` against a uniform spread.
    fn chi_square(counts: &[u64]) -> f64 {
        let total: u64 = counts.iter().sum();
        let expected = total as f64 / counts.len() as f64;
        counts.iter().map(|&c| (c as f64 - expected).powi(2) / expected).sum()
    }

    /// A bound that a uniform draw's chi-square statistic with `df` degrees
    /// of freedom exceeds with probability at most e^-25 (about 1.4e-11), by
    /// Laurent and Massart's tail bound P(X >= df + 2 sqrt(df t) + 2t) <=
    /// e^-t; a modulo-biased method on the large bounds exceeds it
    /// a hundredfold. (Mean plus 7 standard deviations, the bound before,
    /// is exceeded far more often on few degrees of freedom, whose tail is
    /// heavy: about 4e-5 at 6, 3e-4 at 2, and CI met it once.)
    fn limit(df: usize) -> f64 {
        const T: f64 = 25.0;
        let df = df as f64;
        df + 2.0 * (df * T).sqrt() + 2.0 * T
    }

    fn check_u32(bound: u32, buckets: u32, draws: usize) {
        let mut counts = vec![0u64; buckets as usize];
        for _ in 0..draws {
            let x = lt_u32(bound);
            assert!(x < bound);
            counts[(u64::from(x) * u64::from(buckets) / u64::from(bound)) as usize] += 1;
        }
        let stat = chi_square(&counts);
        assert!(stat < limit(counts.len() - 1), "bound {bound}: chi-square {stat}");
    }

    fn check_u64(bound: u64, buckets: u64, draws: usize) {
        let mut counts = vec![0u64; buckets as usize];
        for _ in 0..draws {
            let x = lt_u64(bound);
            assert!(x < bound);
            counts[(u128::from(x) * u128::from(buckets) / u128::from(bound)) as usize] += 1;
        }
        let stat = chi_square(&counts);
        assert!(stat < limit(counts.len() - 1), "bound {bound}: chi-square {stat}");
    }

    #[test]
    fn lt_u32_is_uniform() {
        check_u32(3, 3, 300_000);
        check_u32(7, 7, 300_000);
        check_u32(1000, 1000, 2_000_000);
        // Just above 2^31: modulo would make the lower half twice as likely.
        check_u32((1 << 31) + 1, 64, 1_000_000);
    }

    #[test]
    fn lt_u64_is_uniform() {
        check_u64(3, 3, 300_000);
        check_u64(7, 7, 300_000);
        check_u64(1000, 1000, 2_000_000);
        check_u64((1 << 63) + 1, 64, 1_000_000);
    }

    /// Bound 3 · 2^30 (3 · 2^62): word `x` maps to `3x / 4` with the low
    /// half `(3x mod 4) · 2^30`, so only the words `4j + 1`, which map to
    /// the multiples of 3, have a low half at or above the bound; every
    /// other value needs the threshold (2^30). A draw that replaced a first
    /// product below the bound by a fresh word, instead of going on from
    /// it, would return a multiple of 3 half the time instead of a third.
    #[test]
    fn lt_goes_on_from_a_product_below_the_bound() {
        let (mut mod32, mut mod64) = ([0u64; 3], [0u64; 3]);
        for _ in 0..300_000 {
            mod32[(lt_u32(3 << 30) % 3) as usize] += 1;
            mod64[(lt_u64(3 << 62) % 3) as usize] += 1;
        }
        for counts in [mod32, mod64] {
            let stat = chi_square(&counts);
            assert!(stat < limit(2), "values mod 3 {counts:?}: chi-square {stat}");
        }
    }

    #[test]
    fn trivial_bounds_return_zero() {
        for _ in 0..100 {
            assert_eq!(lt_u32(0), 0);
            assert_eq!(lt_u32(1), 0);
            assert_eq!(lt_u64(0), 0);
            assert_eq!(lt_u64(1), 0);
        }
    }

    #[test]
    fn every_width_varies() {
        let distinct = |f: &dyn Fn() -> u64| {
            let mut v: Vec<u64> = (0..64).map(|_| f()).collect();
            v.sort_unstable();
            v.dedup();
            v.len()
        };
        assert!(distinct(&|| u64::from(u8())) > 30);
        assert!(distinct(&|| u64::from(u16())) > 60);
        assert_eq!(distinct(&|| u64::from(u32())), 64);
        assert_eq!(distinct(&u64), 64);
    }

    #[test]
    fn reads_of_any_size_are_filled() {
        for len in [0, 1, 15, 16, 17, 4095, 16 * 1024, 16 * 1024 + 1, 3 * 16 * 1024 + 5, 1 << 20] {
            let mut buf = vec![0u8; len + 2];
            fill_bytes(&mut buf[1..=len]);
            assert_eq!((buf[0], buf[len + 1]), (0, 0), "nothing written outside, len {len}");
            // Any 16-byte window of real output is zero with probability 2^-128.
            assert!(buf[1..=len].chunks(16).all(|c| c.len() < 16 || c != [0; 16]), "len {len}");
        }
    }
}
