//! The VAES-256 kernel: sixteen blocks in flight in eight 256-bit registers,
//! each round key broadcast from the state once per round.

use super::RoundKeys;
use super::x86::{C_BSWAP, C_COUNTERS, C_TWO, CONSTS, Progress, expand_step};
use super::x86::{group_schedule, rseq_begin, rseq_end};

/// One round with the round key at `$off` on ymm0..ymm7 and on the extra
/// registers named (the next key's blocks, in the first group).
#[rustfmt::skip] // one assembly line per source line
macro_rules! round {
    ($op:literal, $off:literal $(, $more:literal)*) => {
        concat!(
            "vbroadcasti128 ymm8, xmmword ptr [rdi + ", $off, "]\n",
            $op, " ymm0, ymm0, ymm8\n", $op, " ymm1, ymm1, ymm8\n", $op, " ymm2, ymm2, ymm8\n",
            $op, " ymm3, ymm3, ymm8\n", $op, " ymm4, ymm4, ymm8\n", $op, " ymm5, ymm5, ymm8\n",
            $op, " ymm6, ymm6, ymm8\n", $op, " ymm7, ymm7, ymm8\n",
            $($op, " ", $more, ", ", $more, ", ymm8\n",)*
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

/// A group: the next 16 counter blocks through all 14 rounds on ymm0..ymm7
/// (and the extra registers named, through the same rounds), with
/// `$step1` and `$step2` (steps of the next key's expansion, or nothing)
/// among the rounds, where their chain of dependent instructions runs in
/// the shadow of the group's 112 independent `vaesenc`; then `$store`.
#[rustfmt::skip] // one assembly line per source line
macro_rules! group {
    ([$($more:literal),*], $step1:expr, $step2:expr, $store:expr) => {
        concat!(
            next_counters!("ymm0"), next_counters!("ymm1"), next_counters!("ymm2"), next_counters!("ymm3"),
            next_counters!("ymm4"), next_counters!("ymm5"), next_counters!("ymm6"), next_counters!("ymm7"),
            round!("vpxor", "0" $(, $more)*), round!("vaesenc", "16" $(, $more)*),
            round!("vaesenc", "32" $(, $more)*),
            $step1,
            round!("vaesenc", "48" $(, $more)*), round!("vaesenc", "64" $(, $more)*),
            round!("vaesenc", "80" $(, $more)*), round!("vaesenc", "96" $(, $more)*),
            round!("vaesenc", "112" $(, $more)*), round!("vaesenc", "128" $(, $more)*),
            $step2,
            round!("vaesenc", "144" $(, $more)*), round!("vaesenc", "160" $(, $more)*),
            round!("vaesenc", "176" $(, $more)*), round!("vaesenc", "192" $(, $more)*),
            round!("vaesenc", "208" $(, $more)*), round!("vaesenclast", "224" $(, $more)*),
            $store,
        )
    };
}

/// Stores a whole group (ymm0..ymm7) at `rsi` and moves on by 16 blocks.
#[rustfmt::skip] // one assembly line per source line
macro_rules! store_group {
    () => {
        concat!(
            "vmovdqu ymmword ptr [rsi], ymm0\n",
            "vmovdqu ymmword ptr [rsi + 32], ymm1\n",
            "vmovdqu ymmword ptr [rsi + 64], ymm2\n",
            "vmovdqu ymmword ptr [rsi + 96], ymm3\n",
            "vmovdqu ymmword ptr [rsi + 128], ymm4\n",
            "vmovdqu ymmword ptr [rsi + 160], ymm5\n",
            "vmovdqu ymmword ptr [rsi + 192], ymm6\n",
            "vmovdqu ymmword ptr [rsi + 224], ymm7\n",
            "add rsi, 256\n",
            "sub rdx, 16\n",
        )
    };
}

/// Stores the first `rdx` (below 16) blocks of a group at `rsi`, two at a
/// time while two are left, then jumps to `$done` with `rdx` zero. (The
/// group's other blocks are never stored.)
#[rustfmt::skip] // one assembly line per source line
macro_rules! store_part {
    ($done:literal) => {
        concat!(
            store_pair!("ymm0", "40"), store_pair!("ymm1", "41"), store_pair!("ymm2", "42"),
            store_pair!("ymm3", "43"), store_pair!("ymm4", "44"), store_pair!("ymm5", "45"),
            store_pair!("ymm6", "46"),
            store_last!("xmm7", $done),
            "40:\n", store_last!("xmm0", $done), "41:\n", store_last!("xmm1", $done),
            "42:\n", store_last!("xmm2", $done), "43:\n", store_last!("xmm3", $done),
            "44:\n", store_last!("xmm4", $done), "45:\n", store_last!("xmm5", $done),
            "46:\n", store_last!("xmm6", $done),
        )
    };
}

/// Part of [`store_part`]: the two blocks in `$reg` if two are left, else
/// on to label `$short`.
#[rustfmt::skip] // one assembly line per source line
macro_rules! store_pair {
    ($reg:literal, $short:literal) => {
        concat!(
            "cmp rdx, 2\n", "jb ", $short, "f\n",
            "vmovdqu ymmword ptr [rsi], ", $reg, "\n", "add rsi, 32\n", "sub rdx, 2\n",
        )
    };
}

/// Part of [`store_part`]: the low block of `$reg` if one is left, then on
/// to `$done`.
#[rustfmt::skip] // one assembly line per source line
macro_rules! store_last {
    ($reg:literal, $done:literal) => {
        concat!(
            "test rdx, rdx\n", "jz ", $done, "f\n",
            "vmovdqu xmmword ptr [rsi], ", $reg, "\n", "xor edx, edx\n", "jmp ", $done, "f\n",
        )
    };
}

/// The next key's round keys 0 and 1, from ymm12, to `r9`, and into xmm12
/// and xmm13 for its expansion.
#[rustfmt::skip] // one assembly line per source line
macro_rules! key_out {
    () => {
        concat!(
            "vextracti128 xmm13, ymm12, 1\n",
            "vmovdqu xmmword ptr [r9], xmm12\n",
            "vmovdqu xmmword ptr [r9 + 16], xmm13\n",
        )
    };
}

/// An expansion step on xmm12 (even round key) and xmm13 (odd), scratch
/// xmm14 and xmm15.
#[rustfmt::skip] // one assembly line per source line
macro_rules! step {
    ($i:literal) => {
        expand_step!(vex, "xmm12", "xmm13", "xmm14", "xmm15", $i)
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
        // Counters 0 and 1, the next key, in ymm12: they go through the
        // rounds of the first group, or of the only (partial) one.
        "vpshufb ymm12, ymm9, ymm11",
        // Then counters first, first + 1, …: `first` added to the low
        // quadword of each lane.
        "vmovq xmm13, rcx",
        "vinserti128 ymm13, ymm13, xmm13, 1",
        "vpaddq ymm9, ymm9, ymm13",
        // Every block, in groups of 16, and the next key's expansion.
        group_schedule!("16", ["ymm12"], group, step, store_group, store_part, key_out),
        rseq_end!("vzeroall\n"),
        consts = sym CONSTS,
        bswap = const C_BSWAP,
        two = const C_TWO,
        counters = const C_COUNTERS,
    )
}
