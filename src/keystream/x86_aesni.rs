//! The AES-NI kernel: eight blocks in flight, round keys read from the state
//! one round at a time.

use super::RoundKeys;
use super::x86::{C_BSWAP, C_ONE, CONSTS, Progress, expand_step};
use super::x86::{group_schedule, rseq_begin, rseq_end};

/// One round with the round key at `$off` on the eight blocks xmm0..xmm7
/// and on the extra registers named (the next key's blocks, in the first
/// group).
#[rustfmt::skip] // one assembly line per source line
macro_rules! round {
    ($op:literal, $off:literal $(, $more:literal)*) => {
        concat!(
            "movdqu xmm8, xmmword ptr [rdi + ", $off, "]\n",
            $op, " xmm0, xmm8\n", $op, " xmm1, xmm8\n", $op, " xmm2, xmm8\n", $op, " xmm3, xmm8\n",
            $op, " xmm4, xmm8\n", $op, " xmm5, xmm8\n", $op, " xmm6, xmm8\n", $op, " xmm7, xmm8\n",
            $($op, " ", $more, ", xmm8\n",)*
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

/// A group: the next 8 counter blocks through all 14 rounds on xmm0..xmm7
/// (and the extra registers named, through the same rounds), with
/// `$step1` and `$step2` (steps of the next key's expansion, or nothing)
/// among the rounds, where their chain of dependent instructions runs in
/// the shadow of the group's 112 independent `aesenc`; then `$store`.
#[rustfmt::skip] // one assembly line per source line
macro_rules! group {
    ([$($more:literal),*], $step1:expr, $step2:expr, $store:expr) => {
        concat!(
            next_counter!("xmm0"), next_counter!("xmm1"), next_counter!("xmm2"), next_counter!("xmm3"),
            next_counter!("xmm4"), next_counter!("xmm5"), next_counter!("xmm6"), next_counter!("xmm7"),
            round!("pxor", "0" $(, $more)*), round!("aesenc", "16" $(, $more)*),
            round!("aesenc", "32" $(, $more)*),
            $step1,
            round!("aesenc", "48" $(, $more)*), round!("aesenc", "64" $(, $more)*),
            round!("aesenc", "80" $(, $more)*), round!("aesenc", "96" $(, $more)*),
            round!("aesenc", "112" $(, $more)*), round!("aesenc", "128" $(, $more)*),
            $step2,
            round!("aesenc", "144" $(, $more)*), round!("aesenc", "160" $(, $more)*),
            round!("aesenc", "176" $(, $more)*), round!("aesenc", "192" $(, $more)*),
            round!("aesenc", "208" $(, $more)*), round!("aesenclast", "224" $(, $more)*),
            $store,
        )
    };
}

/// Stores a whole group (xmm0..xmm7) at `rsi` and moves on by 8 blocks.
#[rustfmt::skip] // one assembly line per source line
macro_rules! store_group {
    () => {
        concat!(
            "movdqu xmmword ptr [rsi], xmm0\n",
            "movdqu xmmword ptr [rsi + 16], xmm1\n",
            "movdqu xmmword ptr [rsi + 32], xmm2\n",
            "movdqu xmmword ptr [rsi + 48], xmm3\n",
            "movdqu xmmword ptr [rsi + 64], xmm4\n",
            "movdqu xmmword ptr [rsi + 80], xmm5\n",
            "movdqu xmmword ptr [rsi + 96], xmm6\n",
            "movdqu xmmword ptr [rsi + 112], xmm7\n",
            "add rsi, 128\n",
            "sub rdx, 8\n",
        )
    };
}

/// Stores the first `rdx` (below 8) blocks of a group at `rsi`, then jumps
/// to `$done` with `rdx` zero. (The group's other blocks are never stored.)
#[rustfmt::skip] // one assembly line per source line
macro_rules! store_part {
    ($done:literal) => {
        concat!(
            store_one!("xmm0", $done), store_one!("xmm1", $done), store_one!("xmm2", $done),
            store_one!("xmm3", $done), store_one!("xmm4", $done), store_one!("xmm5", $done),
            store_one!("xmm6", $done), "jmp ", $done, "f\n",
        )
    };
}

/// Part of [`store_part`]: the block in `$reg` if one is left, else on to
/// `$done`.
#[rustfmt::skip] // one assembly line per source line
macro_rules! store_one {
    ($reg:literal, $done:literal) => {
        concat!(
            "test rdx, rdx\n", "jz ", $done, "f\n",
            "movdqu xmmword ptr [rsi], ", $reg, "\n", "add rsi, 16\n", "dec rdx\n",
        )
    };
}

/// The next key's round keys 0 and 1, in xmm12 and xmm13, to `r9`.
#[rustfmt::skip] // one assembly line per source line
macro_rules! key_out {
    () => {
        concat!("movdqu xmmword ptr [r9], xmm12\n", "movdqu xmmword ptr [r9 + 16], xmm13\n")
    };
}

/// An expansion step on xmm12 (even round key) and xmm13 (odd), scratch
/// xmm14 and xmm15.
#[rustfmt::skip] // one assembly line per source line
macro_rules! step {
    ($i:literal) => {
        expand_step!(sse, "xmm12", "xmm13", "xmm14", "xmm15", $i)
    };
}

/// Zeroes every vector register the kernel uses.
#[rustfmt::skip] // one assembly line per source line
macro_rules! zero_all {
    () => {
        concat!(
            "pxor xmm0, xmm0\npxor xmm1, xmm1\npxor xmm2, xmm2\npxor xmm3, xmm3\n",
            "pxor xmm4, xmm4\npxor xmm5, xmm5\npxor xmm6, xmm6\npxor xmm7, xmm7\n",
            "pxor xmm8, xmm8\npxor xmm9, xmm9\npxor xmm10, xmm10\npxor xmm11, xmm11\n",
            "pxor xmm12, xmm12\npxor xmm13, xmm13\npxor xmm14, xmm14\npxor xmm15, xmm15\n",
        )
    };
}

/// The keystream kernel (see `x86`'s module documentation): writes blocks
/// `first .. first + n` of AES-256-CTR under the round keys at `rdi` to
/// `rsi`, and the round keys of the key made of blocks 0 and 1 to `r9`.
///
/// # Safety
/// `rdi` is valid for reads of [`RoundKeys`], `r9` for writes, `rsi` for
/// writes of `16 * n` bytes, none of them overlapping; `r8` is null or this
/// thread's registered `rseq_cs` word; the CPU has AES-NI and SSSE3.
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
        "movdqu xmm11, xmmword ptr [r11 + {bswap}]",
        "movdqu xmm10, xmmword ptr [r11 + {one}]",
        // Counters 0 and 1, the next key, in xmm12 and xmm13: they go
        // through the rounds of the first group, or of the only (partial)
        // one.
        "pxor xmm9, xmm9",
        next_counter!("xmm12"),
        next_counter!("xmm13"),
        // Then counters first, first + 1, ….
        "movq xmm9, rcx",
        // Every block, in groups of 8, and the next key's expansion.
        group_schedule!("8", ["xmm12", "xmm13"], group, step, store_group, store_part, key_out),
        rseq_end!(zero_all!()),
        consts = sym CONSTS,
        bswap = const C_BSWAP,
        one = const C_ONE,
    )
}
