//! The VAES-256 kernel: sixteen blocks in flight in eight 256-bit registers,
//! each round key broadcast from the state once per round.

use super::RoundKeys;
use super::x86::{C_BSWAP, C_COUNTERS, C_TWO, CONSTS, Progress, expand_step, expand_steps_1_4, expand_steps_5_7};
use super::x86::{rseq_begin, rseq_end};

/// One round on ymm0..ymm7 with the round key at `$off`.
#[rustfmt::skip] // one assembly line per source line
macro_rules! round8 {
    ($op:literal, $off:literal) => {
        concat!(
            "vbroadcasti128 ymm8, xmmword ptr [rdi + ", $off, "]\n",
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
        concat!("vbroadcasti128 ymm8, xmmword ptr [rdi + ", $off, "]\n", $op, " ", $reg, ", ", $reg, ", ymm8\n")
    };
    ($op:literal, $off:literal, xmm, $reg:literal) => {
        concat!($op, " ", $reg, ", ", $reg, ", xmmword ptr [rdi + ", $off, "]\n")
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

/// The keystream kernel (see `x86`'s module documentation): writes blocks
/// `first .. first + n` of AES-256-CTR under the round keys at `rdi` to
/// `rsi`, and the round keys of the key made of blocks 0 and 1 to `r9`.
///
/// # Safety
/// `rdi` is valid for reads of [`RoundKeys`], `r9` for writes, `rsi` for
/// writes of `16 * n` bytes, none of them overlapping; `r8` is null or this
/// thread's registered `rseq_cs` word; the CPU has AVX2 and VAES.
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
        "lea r11, [rip + {consts}]",
        "vbroadcasti128 ymm11, xmmword ptr [r11 + {bswap}]",
        "vbroadcasti128 ymm10, xmmword ptr [r11 + {two}]",
        "vmovdqu ymm9, ymmword ptr [r11 + {counters}]",
        // Counters 0 and 1: the next key.
        "vpshufb ymm12, ymm9, ymm11",
        cipher1!(ymm, "ymm12"),
        // Then counters first, first + 1, …: `first` added to the low
        // quadword of each lane.
        "vmovq xmm13, rcx",
        "vinserti128 ymm13, ymm13, xmm13, 1",
        "vpaddq ymm9, ymm9, ymm13",
        "2:",
        "cmp rdx, 16",
        "jb 3f",
        next_counters!("ymm0"), next_counters!("ymm1"), next_counters!("ymm2"), next_counters!("ymm3"),
        next_counters!("ymm4"), next_counters!("ymm5"), next_counters!("ymm6"), next_counters!("ymm7"),
        round8!("vpxor", "0"),
        round8!("vaesenc", "16"), round8!("vaesenc", "32"), round8!("vaesenc", "48"),
        round8!("vaesenc", "64"), round8!("vaesenc", "80"), round8!("vaesenc", "96"),
        round8!("vaesenc", "112"), round8!("vaesenc", "128"), round8!("vaesenc", "144"),
        round8!("vaesenc", "160"), round8!("vaesenc", "176"), round8!("vaesenc", "192"),
        round8!("vaesenc", "208"), round8!("vaesenclast", "224"),
        "vmovdqu ymmword ptr [rsi], ymm0",
        "vmovdqu ymmword ptr [rsi + 32], ymm1",
        "vmovdqu ymmword ptr [rsi + 64], ymm2",
        "vmovdqu ymmword ptr [rsi + 96], ymm3",
        "vmovdqu ymmword ptr [rsi + 128], ymm4",
        "vmovdqu ymmword ptr [rsi + 160], ymm5",
        "vmovdqu ymmword ptr [rsi + 192], ymm6",
        "vmovdqu ymmword ptr [rsi + 224], ymm7",
        "add rsi, 256",
        "sub rdx, 16",
        "jmp 2b",
        "3:",
        "cmp rdx, 2",
        "jb 4f",
        next_counters!("ymm0"),
        cipher1!(ymm, "ymm0"),
        "vmovdqu ymmword ptr [rsi], ymm0",
        "add rsi, 32",
        "sub rdx, 2",
        "jmp 3b",
        "4:",
        "test rdx, rdx",
        "jz 5f",
        next_counters!("ymm0"),
        cipher1!(xmm, "xmm0"),
        "vmovdqu xmmword ptr [rsi], xmm0",
        "xor edx, edx",
        "5:",
        // The next key's round keys: 0 and 1 from ymm12, then its expansion.
        "vextracti128 xmm13, ymm12, 1",
        "vmovdqu xmmword ptr [r9], xmm12",
        "vmovdqu xmmword ptr [r9 + 16], xmm13",
        expand_steps_1_4!(vex, "xmm12", "xmm13", "xmm14", "xmm15"),
        expand_steps_5_7!(vex, "xmm12", "xmm13", "xmm14", "xmm15"),
        rseq_end!("vzeroall\n"),
        consts = sym CONSTS,
        bswap = const C_BSWAP,
        two = const C_TWO,
        counters = const C_COUNTERS,
    )
}
