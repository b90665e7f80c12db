//! The VAES-256 kernel: sixteen blocks in flight in eight 256-bit registers,
//! each round key broadcast from the state once per round.

use super::Schedule;
use super::x86::{C_BSWAP, C_COUNTERS, C_TWO, CONSTS};
use core::arch::asm;

/// One round on ymm0..ymm7 with the round key at `$off`.
#[rustfmt::skip] // one assembly line per source line
macro_rules! round8 {
    ($op:literal, $off:literal) => {
        concat!(
            "vbroadcasti128 ymm8, xmmword ptr [{ks} + ", $off, "]\n",
            $op, " ymm0, ymm0, ymm8\n", $op, " ymm1, ymm1, ymm8\n", $op, " ymm2, ymm2, ymm8\n",
            $op, " ymm3, ymm3, ymm8\n", $op, " ymm4, ymm4, ymm8\n", $op, " ymm5, ymm5, ymm8\n",
            $op, " ymm6, ymm6, ymm8\n", $op, " ymm7, ymm7, ymm8\n",
        )
    };
}

/// One round on a single register (`ymm` or `xmm` width) with the round key at `$off`.
#[rustfmt::skip] // one assembly line per source line
macro_rules! round1 {
    ($op:literal, $off:literal, ymm, $reg:literal) => {
        concat!("vbroadcasti128 ymm8, xmmword ptr [{ks} + ", $off, "]\n", $op, " ", $reg, ", ", $reg, ", ymm8\n")
    };
    ($op:literal, $off:literal, xmm, $reg:literal) => {
        concat!($op, " ", $reg, ", ", $reg, ", xmmword ptr [{ks} + ", $off, "]\n")
    };
}

/// All 14 rounds on one register.
#[rustfmt::skip] // one assembly line per source line
macro_rules! cipher1 {
    ($w:tt, $reg:literal) => {
        concat!(
            round1!("vpxor", "0", $w, $reg),
            round1!("vaesenc", "16", $w, $reg), round1!("vaesenc", "32", $w, $reg),
            round1!("vaesenc", "48", $w, $reg), round1!("vaesenc", "64", $w, $reg),
            round1!("vaesenc", "80", $w, $reg), round1!("vaesenc", "96", $w, $reg),
            round1!("vaesenc", "112", $w, $reg), round1!("vaesenc", "128", $w, $reg),
            round1!("vaesenc", "144", $w, $reg), round1!("vaesenc", "160", $w, $reg),
            round1!("vaesenc", "176", $w, $reg), round1!("vaesenc", "192", $w, $reg),
            round1!("vaesenc", "208", $w, $reg), round1!("vaesenclast", "224", $w, $reg),
        )
    };
}

/// Two counter blocks into `$reg`: the big-endian form of ymm9, which then advances by two.
#[rustfmt::skip] // one assembly line per source line
macro_rules! next_counters {
    ($reg:literal) => {
        concat!("vpshufb ", $reg, ", ymm9, ymm11\nvpaddq ymm9, ymm9, ymm10\n")
    };
}

/// Writes `n` keystream blocks under `ks` (counters 2, 3, …) to `out` and
/// stores blocks 0 and 1 as the next key in round keys 0 and 1 of `ks`.
///
/// # Safety
/// `ks` is valid for reads and writes, `out` for writes of `16 * n` bytes, and
/// they do not overlap; the CPU has AVX2 and VAES.
#[target_feature(enable = "avx2,vaes,aes")]
#[rustfmt::skip] // one assembly line per source line
pub(super) unsafe fn keystream(ks: *mut Schedule, out: *mut u8, n: usize) {
    // SAFETY: the caller guarantees the pointers and the CPU features. The
    // block reads `ks` and CONSTS, writes `out` and round keys 0 and 1 of
    // `ks`, uses no stack, and zeroes every vector register (vzeroall).
    unsafe {
        asm!(
            "vbroadcasti128 ymm11, xmmword ptr [{c} + {bswap}]",
            "vbroadcasti128 ymm10, xmmword ptr [{c} + {two}]",
            "vmovdqu ymm9, ymmword ptr [{c} + {counters}]",
            next_counters!("ymm12"),
            cipher1!(ymm, "ymm12"),
            "2:",
            "cmp {n}, 16",
            "jb 3f",
            next_counters!("ymm0"), next_counters!("ymm1"), next_counters!("ymm2"), next_counters!("ymm3"),
            next_counters!("ymm4"), next_counters!("ymm5"), next_counters!("ymm6"), next_counters!("ymm7"),
            round8!("vpxor", "0"),
            round8!("vaesenc", "16"), round8!("vaesenc", "32"), round8!("vaesenc", "48"),
            round8!("vaesenc", "64"), round8!("vaesenc", "80"), round8!("vaesenc", "96"),
            round8!("vaesenc", "112"), round8!("vaesenc", "128"), round8!("vaesenc", "144"),
            round8!("vaesenc", "160"), round8!("vaesenc", "176"), round8!("vaesenc", "192"),
            round8!("vaesenc", "208"), round8!("vaesenclast", "224"),
            "vmovdqu ymmword ptr [{out}], ymm0",
            "vmovdqu ymmword ptr [{out} + 32], ymm1",
            "vmovdqu ymmword ptr [{out} + 64], ymm2",
            "vmovdqu ymmword ptr [{out} + 96], ymm3",
            "vmovdqu ymmword ptr [{out} + 128], ymm4",
            "vmovdqu ymmword ptr [{out} + 160], ymm5",
            "vmovdqu ymmword ptr [{out} + 192], ymm6",
            "vmovdqu ymmword ptr [{out} + 224], ymm7",
            "add {out}, 256",
            "sub {n}, 16",
            "jmp 2b",
            "3:",
            "cmp {n}, 2",
            "jb 4f",
            next_counters!("ymm0"),
            cipher1!(ymm, "ymm0"),
            "vmovdqu ymmword ptr [{out}], ymm0",
            "add {out}, 32",
            "sub {n}, 2",
            "jmp 3b",
            "4:",
            "test {n}, {n}",
            "jz 5f",
            next_counters!("ymm0"),
            cipher1!(xmm, "xmm0"),
            "vmovdqu xmmword ptr [{out}], xmm0",
            "5:",
            "vmovdqu ymmword ptr [{ks}], ymm12",
            "vzeroall",
            ks = in(reg) ks,
            out = inout(reg) out => _,
            n = inout(reg) n => _,
            c = in(reg) &CONSTS,
            bswap = const C_BSWAP,
            two = const C_TWO,
            counters = const C_COUNTERS,
            out("ymm0") _, out("ymm1") _, out("ymm2") _, out("ymm3") _,
            out("ymm4") _, out("ymm5") _, out("ymm6") _, out("ymm7") _,
            out("ymm8") _, out("ymm9") _, out("ymm10") _, out("ymm11") _,
            out("ymm12") _, out("ymm13") _, out("ymm14") _, out("ymm15") _,
            options(nostack),
        );
    }
}
