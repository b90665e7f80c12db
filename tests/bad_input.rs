//! Bad input at the Rust API and at the C ABI (called here through the shared
//! library a C program links, loaded with dlopen): empty and huge lengths,
//! NULL buffers, trivial and extreme bounds, and the absence of any seeding
//! API.
//! The CLI's bad input is in tests/cli.rs, the Go module's in go/.

#[path = "support/capi.rs"]
mod capi;
mod support;
use capi::RANDP_ERR_NULL;
use rand_core::Rng;

/// Set in a re-run of this test binary that must abort.
const ROLE: &str = "RANDP_BAD_INPUT_ROLE";

/// Known bytes placed around every buffer under test.
const GUARD: usize = 64;

fn guard_byte(i: usize) -> u8 {
    0xA5 ^ (i as u8).wrapping_mul(37)
}

/// Fills the middle `len` bytes of a guarded buffer with `fill`, then checks
/// that no guard byte changed and that every 16-byte block of the middle is
/// non-zero (a block left unwritten stays zero; real output is zero with
/// probability 2^-128).
fn check_fill(name: &str, len: usize, fill: impl FnOnce(&mut [u8])) {
    let mut buf = vec![0u8; GUARD + len + GUARD];
    for i in (0..GUARD).chain(GUARD + len..GUARD + len + GUARD) {
        buf[i] = guard_byte(i);
    }
    fill(&mut buf[GUARD..GUARD + len]);
    for i in (0..GUARD).chain(GUARD + len..GUARD + len + GUARD) {
        assert_eq!(buf[i], guard_byte(i), "{name}({len}) wrote outside its buffer at {i}");
    }
    let body = &buf[GUARD..GUARD + len];
    let zero = |c: &[u8]| u128::from_ne_bytes(c.try_into().unwrap()) == 0;
    if let Some(k) = body.chunks_exact(16).position(zero) {
        panic!("{name}({len}): block {k} left unwritten");
    }
}

#[test]
fn zero_length_writes_nothing() {
    let c = capi::load();
    check_fill("fill_bytes", 0, randp::fill_bytes);
    check_fill("Randp::fill_bytes", 0, |b| randp::Randp.fill_bytes(b));
    check_fill("randp_bytes", 0, |b| {
        // SAFETY: a valid pointer with length 0.
        unsafe { (c.randp_bytes)(b.as_mut_ptr().cast(), 0) }
    });
    check_fill("randp_read", 0, |b| {
        // SAFETY: a valid pointer with length 0.
        assert_eq!(unsafe { (c.randp_read)(b.as_mut_ptr().cast(), 0) }, 0);
    });
    // SAFETY: NULL with length 0 is documented as a no-op for both.
    unsafe {
        (c.randp_bytes)(std::ptr::null_mut(), 0);
        assert_eq!((c.randp_read)(std::ptr::null_mut(), 0), 0);
    }
}

#[test]
fn null_with_a_length_is_rejected_by_randp_read() {
    let c = capi::load();
    for len in [1, 16, 4096, usize::MAX / 2, usize::MAX] {
        // SAFETY: NULL with len > 0 is the documented error case; nothing is written.
        assert_eq!(unsafe { (c.randp_read)(std::ptr::null_mut(), len) }, RANDP_ERR_NULL, "len {len}");
    }
    assert_eq!(RANDP_ERR_NULL, 1);
}

/// randp_bytes has no error return: NULL with any non-zero length, including
/// SIZE_MAX, aborts with a message and writes nothing.
#[test]
fn null_with_a_length_aborts_randp_bytes() {
    let c = capi::load();
    if let Ok(len) = std::env::var(ROLE) {
        let len: usize = len.parse().unwrap();
        // SAFETY: the documented abort case under test, in a child process.
        unsafe { (c.randp_bytes)(std::ptr::null_mut(), len) };
        println!("randp_bytes returned");
        std::process::exit(0);
    }
    for len in [1usize, usize::MAX] {
        let out = support::command(std::env::current_exe().unwrap())
            .args(["--exact", "null_with_a_length_aborts_randp_bytes", "--test-threads=1"])
            .env(ROLE, len.to_string())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(capi::is_abort(&out.status), "len {len}: {:?} {stderr}", out.status);
        assert!(stderr.contains("randp_bytes called with a NULL buffer"), "len {len}: {stderr}");
        assert!(!String::from_utf8_lossy(&out.stdout).contains("returned"));
    }
}

/// A length past 4 GiB through the C ABI (randp_read hands it on to
/// fill_bytes): no 32-bit truncation anywhere, nothing written past the end.
/// Release only.
#[test]
#[cfg_attr(debug_assertions, ignore = "fills 4 GiB: run with --release")]
fn huge_length_fills_exactly() {
    let c = capi::load();
    let len = (4usize << 30) + 17;
    check_fill("randp_read", len, |b| {
        // SAFETY: b is valid for writes of b.len() bytes.
        assert_eq!(unsafe { (c.randp_read)(b.as_mut_ptr().cast(), b.len()) }, 0);
    });
}

#[test]
fn large_odd_lengths_fill_exactly() {
    let c = capi::load();
    let len = (256 << 20) + 5;
    check_fill("fill_bytes", len, randp::fill_bytes);
    check_fill("Randp::fill_bytes", len, |b| randp::Randp.fill_bytes(b));
    check_fill("randp_bytes", len, |b| {
        // SAFETY: b is valid for writes of b.len() bytes.
        unsafe { (c.randp_bytes)(b.as_mut_ptr().cast(), b.len()) }
    });
}

#[test]
fn bounds_zero_and_one_return_zero() {
    let c = capi::load();
    for _ in 0..1000 {
        assert_eq!(randp::lt_u32(0), 0);
        assert_eq!(randp::lt_u32(1), 0);
        assert_eq!(randp::lt_u64(0), 0);
        assert_eq!(randp::lt_u64(1), 0);
        assert_eq!((c.randp_lt_u32)(0), 0);
        assert_eq!((c.randp_lt_u32)(1), 0);
        assert_eq!((c.randp_lt_u64)(0), 0);
        assert_eq!((c.randp_lt_u64)(1), 0);
    }
}

/// The largest bounds stay in range and still reach the top half.
#[test]
fn extreme_bounds_stay_in_range() {
    let c = capi::load();
    let (mut top32, mut top64) = (false, false);
    for _ in 0..10_000 {
        for b in [u32::MAX, u32::MAX - 1, (1 << 31) + 1] {
            let x = randp::lt_u32(b);
            let y = (c.randp_lt_u32)(b);
            assert!(x < b && y < b, "lt_u32({b}) = {x}, {y}");
            top32 |= x >= 1 << 31;
        }
        for b in [u64::MAX, u64::MAX - 1, (1 << 63) + 1] {
            let x = randp::lt_u64(b);
            let y = (c.randp_lt_u64)(b);
            assert!(x < b && y < b, "lt_u64({b}) = {x}, {y}");
            top64 |= x >= 1 << 63;
        }
    }
    assert!(top32 && top64);
}

/// `(&Probe::<T>(..)).seedable()` is true exactly when T implements
/// SeedableRng: method lookup tries the receiver `&Probe<T>` (ViaSeedable,
/// only for seedable T) before autoref to `&&Probe<T>` (ViaFallback).
struct Probe<T>(std::marker::PhantomData<T>);
trait ViaSeedable {
    fn seedable(&self) -> bool {
        true
    }
}
impl<T: rand_core::SeedableRng> ViaSeedable for Probe<T> {}
trait ViaFallback {
    fn seedable(&self) -> bool {
        false
    }
}
impl<T> ViaFallback for &Probe<T> {}

/// Seed: there is nothing to call. Randp implements no SeedableRng; the
/// probe does see that rand's StdRng does, so it can tell the difference.
#[test]
#[allow(clippy::needless_borrow)] // the `&` is the probe: both calls must read alike
fn no_seeding_api() {
    assert!((&Probe::<rand::rngs::StdRng>(std::marker::PhantomData)).seedable());
    assert!(!(&Probe::<randp::Randp>(std::marker::PhantomData)).seedable());
    assert_eq!(std::mem::size_of::<randp::Randp>(), 0, "Randp holds no state to seed");
}

/// Seed, C side: the header declares exactly the documented functions, and
/// none of them takes a seed or a key.
#[test]
fn c_header_has_no_seeding_function() {
    let header = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/include/randp.h")).unwrap();
    let mut names: Vec<&str> = header
        .lines()
        .filter(|l| !l.trim_start().starts_with(['*', '/']))
        .filter_map(|l| {
            let open = l.find('(')?;
            let start = l[..open].rfind(' ').map_or(0, |i| i + 1);
            l[start..open].starts_with("randp_").then_some(&l[start..open])
        })
        .collect();
    names.sort_unstable();
    assert_eq!(
        names,
        [
            "randp_bytes",
            "randp_int63",
            "randp_lt_u32",
            "randp_lt_u64",
            "randp_read",
            "randp_u16",
            "randp_u32",
            "randp_u64",
            "randp_u8",
            "randp_uint64",
            "randp_vm_generation_readable",
        ]
    );
    let lower = header.to_lowercase();
    assert!(!lower.contains("seed(") && !lower.contains("_seed"), "the header mentions a seeding function");
}
