//! The AES-NI kernel: eight blocks in flight, round keys read from the state
//! one round at a time.

use super::Schedule;
use super::x86::{C_BSWAP, C_ONE, CONSTS};
use core::arch::asm;

/// One round on the eight blocks xmm0..xmm7 with the round key at `$off`.
#[rustfmt::skip] // one assembly line per source line
macro_rules! round8 {
    ($op:literal, $off:literal) => {
        concat!(
            "movdqu xmm8, xmmword ptr [{ks} + ", $off, "]\n",
            $op, " xmm0, xmm8\n", $op, " xmm1, xmm8\n", $op, " xmm2, xmm8\n", $op, " xmm3, xmm8\n",
            $op, " xmm4, xmm8\n", $op, " xmm5, xmm8\n", $op, " xmm6, xmm8\n", $op, " xmm7, xmm8\n",
        )
    };
}

/// One round on the two next-key blocks xmm12, xmm13 and the single block xmm0.
#[rustfmt::skip] // one assembly line per source line
macro_rules! round_small {
    ($op:literal, $off:literal, $($reg:literal),+) => {
        concat!("movdqu xmm8, xmmword ptr [{ks} + ", $off, "]\n", $($op, " ", $reg, ", xmm8\n"),+)
    };
}

/// All 14 rounds on the registers named.
#[rustfmt::skip] // one assembly line per source line
macro_rules! cipher_small {
    ($($reg:literal),+) => {
        concat!(
            round_small!("pxor", "0", $($reg),+),
            round_small!("aesenc", "16", $($reg),+), round_small!("aesenc", "32", $($reg),+),
            round_small!("aesenc", "48", $($reg),+), round_small!("aesenc", "64", $($reg),+),
            round_small!("aesenc", "80", $($reg),+), round_small!("aesenc", "96", $($reg),+),
            round_small!("aesenc", "112", $($reg),+), round_small!("aesenc", "128", $($reg),+),
            round_small!("aesenc", "144", $($reg),+), round_small!("aesenc", "160", $($reg),+),
            round_small!("aesenc", "176", $($reg),+), round_small!("aesenc", "192", $($reg),+),
            round_small!("aesenc", "208", $($reg),+), round_small!("aesenclast", "224", $($reg),+),
        )
    };
}

/// Counter block into `$reg`: the big-endian form of xmm9, which then advances.
#[rustfmt::skip] // one assembly line per source line
macro_rules! next_counter {
    ($reg:literal) => {
        concat!("movdqa ", $reg, ", xmm9\npshufb ", $reg, ", xmm11\npaddq xmm9, xmm10\n")
    };
}

/// Writes `n` keystream blocks under `ks` (counters 2, 3, …) to `out` and
/// stores blocks 0 and 1 as the next key in round keys 0 and 1 of `ks`.
///
/// # Safety
/// `ks` is valid for reads and writes, `out` for writes of `16 * n` bytes, and
/// they do not overlap; the CPU has AES-NI and SSSE3.
#[target_feature(enable = "aes,ssse3")]
#[rustfmt::skip] // one assembly line per source line
pub(super) unsafe fn keystream(ks: *mut Schedule, out: *mut u8, n: usize) {
    // SAFETY: the caller guarantees the pointers and the CPU features. The
    // block reads `ks` and CONSTS, writes `out` and round keys 0 and 1 of
    // `ks`, uses no stack, and zeroes the vector registers it used.
    unsafe {
        asm!(
            "movdqu xmm11, xmmword ptr [{c} + {bswap}]",
            "movdqu xmm10, xmmword ptr [{c} + {one}]",
            "pxor xmm9, xmm9",
            next_counter!("xmm12"),
            next_counter!("xmm13"),
            cipher_small!("xmm12", "xmm13"),
            "2:",
            "cmp {n}, 8",
            "jb 3f",
            next_counter!("xmm0"), next_counter!("xmm1"), next_counter!("xmm2"), next_counter!("xmm3"),
            next_counter!("xmm4"), next_counter!("xmm5"), next_counter!("xmm6"), next_counter!("xmm7"),
            round8!("pxor", "0"),
            round8!("aesenc", "16"), round8!("aesenc", "32"), round8!("aesenc", "48"),
            round8!("aesenc", "64"), round8!("aesenc", "80"), round8!("aesenc", "96"),
            round8!("aesenc", "112"), round8!("aesenc", "128"), round8!("aesenc", "144"),
            round8!("aesenc", "160"), round8!("aesenc", "176"), round8!("aesenc", "192"),
            round8!("aesenc", "208"), round8!("aesenclast", "224"),
            "movdqu xmmword ptr [{out}], xmm0",
            "movdqu xmmword ptr [{out} + 16], xmm1",
            "movdqu xmmword ptr [{out} + 32], xmm2",
            "movdqu xmmword ptr [{out} + 48], xmm3",
            "movdqu xmmword ptr [{out} + 64], xmm4",
            "movdqu xmmword ptr [{out} + 80], xmm5",
            "movdqu xmmword ptr [{out} + 96], xmm6",
            "movdqu xmmword ptr [{out} + 112], xmm7",
            "add {out}, 128",
            "sub {n}, 8",
            "jmp 2b",
            "3:",
            "test {n}, {n}",
            "jz 4f",
            next_counter!("xmm0"),
            cipher_small!("xmm0"),
            "movdqu xmmword ptr [{out}], xmm0",
            "add {out}, 16",
            "dec {n}",
            "jmp 3b",
            "4:",
            "movdqu xmmword ptr [{ks}], xmm12",
            "movdqu xmmword ptr [{ks} + 16], xmm13",
            "pxor xmm0, xmm0", "pxor xmm1, xmm1", "pxor xmm2, xmm2", "pxor xmm3, xmm3",
            "pxor xmm4, xmm4", "pxor xmm5, xmm5", "pxor xmm6, xmm6", "pxor xmm7, xmm7",
            "pxor xmm8, xmm8", "pxor xmm9, xmm9", "pxor xmm10, xmm10", "pxor xmm11, xmm11",
            "pxor xmm12, xmm12", "pxor xmm13, xmm13",
            ks = in(reg) ks,
            out = inout(reg) out => _,
            n = inout(reg) n => _,
            c = in(reg) &CONSTS,
            bswap = const C_BSWAP,
            one = const C_ONE,
            out("xmm0") _, out("xmm1") _, out("xmm2") _, out("xmm3") _,
            out("xmm4") _, out("xmm5") _, out("xmm6") _, out("xmm7") _,
            out("xmm8") _, out("xmm9") _, out("xmm10") _, out("xmm11") _,
            out("xmm12") _, out("xmm13") _,
            options(nostack),
        );
    }
}
