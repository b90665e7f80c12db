//! The VAES-512 kernel: 32 blocks in flight in eight 512-bit registers, the
//! 15 round keys broadcast once into zmm16..zmm30.

use super::RoundKeys;
use super::x86::{C_BSWAP, C_COUNTERS, C_FOUR, CONSTS, Progress, expand_step};
use super::x86::{expand_rest, rseq_begin, rseq_end};

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
        concat!("vbroadcasti32x4 ", $k, ", xmmword ptr [rdi + ", $off, "]\n")
    };
}

/// Zeroes every vector register the kernel uses.
#[rustfmt::skip] // one assembly line per source line
macro_rules! zero_all {
    () => {
        concat!(
            "vzeroall\n",
            "vpxord zmm16, zmm16, zmm16\nvpxord zmm17, zmm17, zmm17\nvpxord zmm18, zmm18, zmm18\n",
            "vpxord zmm19, zmm19, zmm19\nvpxord zmm20, zmm20, zmm20\nvpxord zmm21, zmm21, zmm21\n",
            "vpxord zmm22, zmm22, zmm22\nvpxord zmm23, zmm23, zmm23\nvpxord zmm24, zmm24, zmm24\n",
            "vpxord zmm25, zmm25, zmm25\nvpxord zmm26, zmm26, zmm26\nvpxord zmm27, zmm27, zmm27\n",
            "vpxord zmm28, zmm28, zmm28\nvpxord zmm29, zmm29, zmm29\nvpxord zmm30, zmm30, zmm30\n",
        )
    };
}

/// A group of 32 blocks on zmm0..zmm7 stored at `rsi`, with two steps of
/// the next key's expansion among its rounds, where they run in the shadow
/// of the AES instructions (the expansion is a chain of 13 dependent
/// steps, a group's 120 rounds of blocks are many and independent).
#[rustfmt::skip] // one assembly line per source line
macro_rules! group_expanding {
    ($step1:expr, $step2:expr) => {
        concat!(
            next_counters!("zmm0"), next_counters!("zmm1"), next_counters!("zmm2"), next_counters!("zmm3"),
            next_counters!("zmm4"), next_counters!("zmm5"), next_counters!("zmm6"), next_counters!("zmm7"),
            round8!("vpxorq", "zmm16"), round8!("vaesenc", "zmm17"), round8!("vaesenc", "zmm18"),
            $step1,
            round8!("vaesenc", "zmm19"), round8!("vaesenc", "zmm20"), round8!("vaesenc", "zmm21"),
            round8!("vaesenc", "zmm22"), round8!("vaesenc", "zmm23"), round8!("vaesenc", "zmm24"),
            $step2,
            round8!("vaesenc", "zmm25"), round8!("vaesenc", "zmm26"), round8!("vaesenc", "zmm27"),
            round8!("vaesenc", "zmm28"), round8!("vaesenc", "zmm29"), round8!("vaesenclast", "zmm30"),
            store8!(),
        )
    };
}

/// Stores zmm0..zmm7 at `rsi` and moves on by 32 blocks.
#[rustfmt::skip] // one assembly line per source line
macro_rules! store8 {
    () => {
        concat!(
            "vmovdqu64 zmmword ptr [rsi], zmm0\n",
            "vmovdqu64 zmmword ptr [rsi + 64], zmm1\n",
            "vmovdqu64 zmmword ptr [rsi + 128], zmm2\n",
            "vmovdqu64 zmmword ptr [rsi + 192], zmm3\n",
            "vmovdqu64 zmmword ptr [rsi + 256], zmm4\n",
            "vmovdqu64 zmmword ptr [rsi + 320], zmm5\n",
            "vmovdqu64 zmmword ptr [rsi + 384], zmm6\n",
            "vmovdqu64 zmmword ptr [rsi + 448], zmm7\n",
            "add rsi, 512\n",
            "sub rdx, 32\n",
        )
    };
}

/// An expansion step on xmm11 (even round key) and xmm12 (odd), scratch
/// xmm13 and xmm14.
#[rustfmt::skip] // one assembly line per source line
macro_rules! step {
    ($i:literal) => {
        expand_step!(vex, "xmm11", "xmm12", "xmm13", "xmm14", $i)
    };
}

/// The keystream kernel (see `x86`'s module documentation): writes blocks
/// `first .. first + n` of AES-256-CTR under the round keys at `rdi` to
/// `rsi`, and the round keys of the key made of blocks 0 and 1 to `r9`.
///
/// # Safety
/// `rdi` is valid for reads of [`RoundKeys`], `r9` for writes, `rsi` for
/// writes of `16 * n` bytes, none of them overlapping; `r8` is null or this
/// thread's registered `rseq_cs` word; the CPU has AVX-512F, AVX-512BW and
/// VAES.
#[unsafe(naked)]
#[rustfmt::skip] // one assembly line per source line
pub(super) unsafe extern "sysv64" fn keystream(
    _cur: *const RoundKeys,
    _out: *mut u8,
    _n: usize,
    _first: u64,
    _rseq_cs: *mut u64,
    _next: *mut RoundKeys,
) -> Progress {
    core::arch::naked_asm!(
        rseq_begin!(),
        load_key!("zmm16", "0"), load_key!("zmm17", "16"), load_key!("zmm18", "32"),
        load_key!("zmm19", "48"), load_key!("zmm20", "64"), load_key!("zmm21", "80"),
        load_key!("zmm22", "96"), load_key!("zmm23", "112"), load_key!("zmm24", "128"),
        load_key!("zmm25", "144"), load_key!("zmm26", "160"), load_key!("zmm27", "176"),
        load_key!("zmm28", "192"), load_key!("zmm29", "208"), load_key!("zmm30", "224"),
        "lea r11, [rip + {consts}]",
        "vbroadcasti32x4 zmm10, xmmword ptr [r11 + {bswap}]",
        "vbroadcasti32x4 zmm9, xmmword ptr [r11 + {four}]",
        "vmovdqu64 zmm8, zmmword ptr [r11 + {counters}]",
        // Counters 0..3: blocks 0 and 1 are the next key.
        "vpshufb zmm11, zmm8, zmm10",
        cipher1!("zmm11"),
        // Then counters first, first + 1, …: `first` added to the low
        // quadword of each lane.
        "mov eax, 0x55",
        "kmovw k1, eax",
        "vpbroadcastq zmm12 {{k1}}{{z}}, rcx",
        "vpaddq zmm8, zmm8, zmm12",
        // The next key's round keys 0 and 1 (xmm11, xmm12), then its
        // expansion.
        "vextracti32x4 xmm12, zmm11, 1",
        "vmovdqu xmmword ptr [r9], xmm11",
        "vmovdqu xmmword ptr [r9 + 16], xmm12",
        // Two expansion steps per group of 32 blocks while there are groups
        // (a step's chain is about a quarter of a group's time); r11 counts
        // the steps made. The steps left when the groups run out come after
        // the last blocks (label 5), so that those blocks are under way
        // while the steps wait for one another.
        "xor r11d, r11d",
        "cmp rdx, 32", "jb 3f",
        group_expanding!(step!("1"), step!("2")), "add r11d, 2",
        "cmp rdx, 32", "jb 3f",
        group_expanding!(step!("3"), step!("4")), "add r11d, 2",
        "cmp rdx, 32", "jb 3f",
        group_expanding!(step!("5"), step!("6")), "add r11d, 2",
        "cmp rdx, 32", "jb 3f",
        group_expanding!(step!("7"), ""), "inc r11d",
        "2:",
        "cmp rdx, 32",
        "jb 3f",
        next_counters!("zmm0"), next_counters!("zmm1"), next_counters!("zmm2"), next_counters!("zmm3"),
        next_counters!("zmm4"), next_counters!("zmm5"), next_counters!("zmm6"), next_counters!("zmm7"),
        round8!("vpxorq", "zmm16"),
        round8!("vaesenc", "zmm17"), round8!("vaesenc", "zmm18"), round8!("vaesenc", "zmm19"),
        round8!("vaesenc", "zmm20"), round8!("vaesenc", "zmm21"), round8!("vaesenc", "zmm22"),
        round8!("vaesenc", "zmm23"), round8!("vaesenc", "zmm24"), round8!("vaesenc", "zmm25"),
        round8!("vaesenc", "zmm26"), round8!("vaesenc", "zmm27"), round8!("vaesenc", "zmm28"),
        round8!("vaesenc", "zmm29"), round8!("vaesenclast", "zmm30"),
        store8!(),
        "jmp 2b",
        "3:",
        "cmp rdx, 4",
        "jb 4f",
        next_counters!("zmm0"),
        cipher1!("zmm0"),
        "vmovdqu64 zmmword ptr [rsi], zmm0",
        "add rsi, 64",
        "sub rdx, 4",
        "jmp 3b",
        "4:",
        "test rdx, rdx",
        "jz 5f",
        // 1 to 3 blocks left: a masked store of 2n quadwords.
        next_counters!("zmm0"),
        cipher1!("zmm0"),
        "lea ecx, [rdx + rdx]",
        "mov eax, 1",
        "shl eax, cl",
        "dec eax",
        "kmovw k1, eax",
        "vmovdqu64 zmmword ptr [rsi] {{k1}}, zmm0",
        "xor edx, edx",
        "5:",
        // The expansion steps the groups did not make: from step r11 + 1.
        expand_rest!(step),
        rseq_end!(zero_all!()),
        consts = sym CONSTS,
        bswap = const C_BSWAP,
        four = const C_FOUR,
        counters = const C_COUNTERS,
    )
}
