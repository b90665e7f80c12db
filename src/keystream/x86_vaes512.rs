//! The VAES-512 kernel: 32 blocks in flight in eight 512-bit registers, the
//! 15 round keys broadcast once into zmm16..zmm30.

use super::Schedule;
use super::x86::{C_BSWAP, C_COUNTERS, C_FOUR, C_TWO, CONSTS};
use core::arch::asm;

/// One round on zmm0..zmm7 with the round key in `$k`.
#[rustfmt::skip] // one assembly line per source line
macro_rules! round8 {
    ($op:literal, $k:literal) => {
        concat!(
            $op, " zmm0, zmm0, ", $k, "\n", $op, " zmm1, zmm1, ", $k, "\n",
            $op, " zmm2, zmm2, ", $k, "\n", $op, " zmm3, zmm3, ", $k, "\n",
            $op, " zmm4, zmm4, ", $k, "\n", $op, " zmm5, zmm5, ", $k, "\n",
            $op, " zmm6, zmm6, ", $k, "\n", $op, " zmm7, zmm7, ", $k, "\n",
        )
    };
}

/// All 14 rounds on one register.
#[rustfmt::skip] // one assembly line per source line
macro_rules! cipher1 {
    ($r:literal) => {
        concat!(
            "vpxorq ", $r, ", ", $r, ", zmm16\n",
            "vaesenc ", $r, ", ", $r, ", zmm17\n", "vaesenc ", $r, ", ", $r, ", zmm18\n",
            "vaesenc ", $r, ", ", $r, ", zmm19\n", "vaesenc ", $r, ", ", $r, ", zmm20\n",
            "vaesenc ", $r, ", ", $r, ", zmm21\n", "vaesenc ", $r, ", ", $r, ", zmm22\n",
            "vaesenc ", $r, ", ", $r, ", zmm23\n", "vaesenc ", $r, ", ", $r, ", zmm24\n",
            "vaesenc ", $r, ", ", $r, ", zmm25\n", "vaesenc ", $r, ", ", $r, ", zmm26\n",
            "vaesenc ", $r, ", ", $r, ", zmm27\n", "vaesenc ", $r, ", ", $r, ", zmm28\n",
            "vaesenc ", $r, ", ", $r, ", zmm29\n", "vaesenclast ", $r, ", ", $r, ", zmm30\n",
        )
    };
}

/// Four counter blocks into `$reg`: the big-endian form of zmm8, which then advances by four.
#[rustfmt::skip] // one assembly line per source line
macro_rules! next_counters {
    ($reg:literal) => {
        concat!("vpshufb ", $reg, ", zmm8, zmm10\nvpaddq zmm8, zmm8, zmm9\n")
    };
}

/// Broadcasts round key `$i` (at byte offset `$off`) into `$k`.
#[rustfmt::skip] // one assembly line per source line
macro_rules! load_key {
    ($k:literal, $off:literal) => {
        concat!("vbroadcasti32x4 ", $k, ", xmmword ptr [{ks} + ", $off, "]\n")
    };
}

/// Writes `n` keystream blocks under `ks` (counters 2, 3, …) to `out` and
/// stores blocks 0 and 1 as the next key in round keys 0 and 1 of `ks`.
///
/// # Safety
/// `ks` is valid for reads and writes, `out` for writes of `16 * n` bytes, and
/// they do not overlap; the CPU has AVX-512F, AVX-512BW and VAES.
#[target_feature(enable = "avx512f,avx512bw,vaes,aes")]
#[rustfmt::skip] // one assembly line per source line
pub(super) unsafe fn keystream(ks: *mut Schedule, out: *mut u8, n: usize) {
    // SAFETY: the caller guarantees the pointers and the CPU features. The
    // block reads `ks` and CONSTS, writes `out` and round keys 0 and 1 of
    // `ks`, uses no stack, and zeroes every vector register it used
    // (vzeroall for zmm0..15, then zmm16..31 one by one).
    unsafe {
        asm!(
            load_key!("zmm16", "0"), load_key!("zmm17", "16"), load_key!("zmm18", "32"),
            load_key!("zmm19", "48"), load_key!("zmm20", "64"), load_key!("zmm21", "80"),
            load_key!("zmm22", "96"), load_key!("zmm23", "112"), load_key!("zmm24", "128"),
            load_key!("zmm25", "144"), load_key!("zmm26", "160"), load_key!("zmm27", "176"),
            load_key!("zmm28", "192"), load_key!("zmm29", "208"), load_key!("zmm30", "224"),
            "vbroadcasti32x4 zmm10, xmmword ptr [{c} + {bswap}]",
            "vbroadcasti32x4 zmm9, xmmword ptr [{c} + {four}]",
            "vmovdqu64 zmm8, zmmword ptr [{c} + {counters}]",
            // Counters 0..3: blocks 0 and 1 are the next key.
            "vpshufb zmm11, zmm8, zmm10",
            cipher1!("zmm11"),
            "vbroadcasti32x4 zmm12, xmmword ptr [{c} + {two}]",
            "vpaddq zmm8, zmm8, zmm12",
            "2:",
            "cmp {n}, 32",
            "jb 3f",
            next_counters!("zmm0"), next_counters!("zmm1"), next_counters!("zmm2"), next_counters!("zmm3"),
            next_counters!("zmm4"), next_counters!("zmm5"), next_counters!("zmm6"), next_counters!("zmm7"),
            round8!("vpxorq", "zmm16"),
            round8!("vaesenc", "zmm17"), round8!("vaesenc", "zmm18"), round8!("vaesenc", "zmm19"),
            round8!("vaesenc", "zmm20"), round8!("vaesenc", "zmm21"), round8!("vaesenc", "zmm22"),
            round8!("vaesenc", "zmm23"), round8!("vaesenc", "zmm24"), round8!("vaesenc", "zmm25"),
            round8!("vaesenc", "zmm26"), round8!("vaesenc", "zmm27"), round8!("vaesenc", "zmm28"),
            round8!("vaesenc", "zmm29"), round8!("vaesenclast", "zmm30"),
            "vmovdqu64 zmmword ptr [{out}], zmm0",
            "vmovdqu64 zmmword ptr [{out} + 64], zmm1",
            "vmovdqu64 zmmword ptr [{out} + 128], zmm2",
            "vmovdqu64 zmmword ptr [{out} + 192], zmm3",
            "vmovdqu64 zmmword ptr [{out} + 256], zmm4",
            "vmovdqu64 zmmword ptr [{out} + 320], zmm5",
            "vmovdqu64 zmmword ptr [{out} + 384], zmm6",
            "vmovdqu64 zmmword ptr [{out} + 448], zmm7",
            "add {out}, 512",
            "sub {n}, 32",
            "jmp 2b",
            "3:",
            "cmp {n}, 4",
            "jb 4f",
            next_counters!("zmm0"),
            cipher1!("zmm0"),
            "vmovdqu64 zmmword ptr [{out}], zmm0",
            "add {out}, 64",
            "sub {n}, 4",
            "jmp 3b",
            "4:",
            "test {n}, {n}",
            "jz 5f",
            // 1 to 3 blocks left: a masked store of 2n quadwords.
            next_counters!("zmm0"),
            cipher1!("zmm0"),
            "lea ecx, [{n:e} + {n:e}]",
            "mov eax, 1",
            "shl eax, cl",
            "dec eax",
            "kmovw k1, eax",
            "vmovdqu64 zmmword ptr [{out}] {{k1}}, zmm0",
            "5:",
            "vmovdqu ymmword ptr [{ks}], ymm11",
            "vzeroall",
            "vpxord zmm16, zmm16, zmm16", "vpxord zmm17, zmm17, zmm17", "vpxord zmm18, zmm18, zmm18",
            "vpxord zmm19, zmm19, zmm19", "vpxord zmm20, zmm20, zmm20", "vpxord zmm21, zmm21, zmm21",
            "vpxord zmm22, zmm22, zmm22", "vpxord zmm23, zmm23, zmm23", "vpxord zmm24, zmm24, zmm24",
            "vpxord zmm25, zmm25, zmm25", "vpxord zmm26, zmm26, zmm26", "vpxord zmm27, zmm27, zmm27",
            "vpxord zmm28, zmm28, zmm28", "vpxord zmm29, zmm29, zmm29", "vpxord zmm30, zmm30, zmm30",
            ks = in(reg) ks,
            out = inout(reg) out => _,
            n = inout(reg) n => _,
            c = in(reg) &CONSTS,
            bswap = const C_BSWAP,
            two = const C_TWO,
            four = const C_FOUR,
            counters = const C_COUNTERS,
            out("eax") _, out("ecx") _, out("k1") _,
            out("zmm0") _, out("zmm1") _, out("zmm2") _, out("zmm3") _,
            out("zmm4") _, out("zmm5") _, out("zmm6") _, out("zmm7") _,
            out("zmm8") _, out("zmm9") _, out("zmm10") _, out("zmm11") _,
            out("zmm12") _, out("zmm13") _, out("zmm14") _, out("zmm15") _,
            out("zmm16") _, out("zmm17") _, out("zmm18") _, out("zmm19") _,
            out("zmm20") _, out("zmm21") _, out("zmm22") _, out("zmm23") _,
            out("zmm24") _, out("zmm25") _, out("zmm26") _, out("zmm27") _,
            out("zmm28") _, out("zmm29") _, out("zmm30") _,
            options(nostack),
        );
    }
}
