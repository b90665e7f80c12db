//! The AES-NI kernel: eight blocks in flight, round keys read from the state
//! one round at a time.

use super::RoundKeys;
use super::x86::{C_BSWAP, C_ONE, CONSTS, Progress, expand_step, expand_steps_1_4, expand_steps_5_7};
use super::x86::{rseq_begin, rseq_end};

/// One round on the eight blocks xmm0..xmm7 with the round key at `$off`.
#[rustfmt::skip] // one assembly line per source line
macro_rules! round8 {
    ($op:literal, $off:literal) => {
        concat!(
            "movdqu xmm8, xmmword ptr [rdi + ", $off, "]\n",
            $op, " xmm0, xmm8\n", $op, " xmm1, xmm8\n", $op, " xmm2, xmm8\n", $op, " xmm3, xmm8\n",
            $op, " xmm4, xmm8\n", $op, " xmm5, xmm8\n", $op, " xmm6, xmm8\n", $op, " xmm7, xmm8\n",
        )
    };
}

/// One round on the two next-key blocks xmm12, xmm13 and the single block xmm0.
#[rustfmt::skip] // one assembly line per source line
macro_rules! round_small {
    ($op:literal, $off:literal, $($reg:literal),+) => {
        concat!("movdqu xmm8, xmmword ptr [rdi + ", $off, "]\n", $($op, " ", $reg, ", xmm8\n"),+)
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
        // Counters 0 and 1: the next key.
        "pxor xmm9, xmm9",
        next_counter!("xmm12"),
        next_counter!("xmm13"),
        cipher_small!("xmm12", "xmm13"),
        // Then counters first, first + 1, ….
        "movq xmm9, rcx",
        "2:",
        "cmp rdx, 8",
        "jb 3f",
        next_counter!("xmm0"), next_counter!("xmm1"), next_counter!("xmm2"), next_counter!("xmm3"),
        next_counter!("xmm4"), next_counter!("xmm5"), next_counter!("xmm6"), next_counter!("xmm7"),
        round8!("pxor", "0"),
        round8!("aesenc", "16"), round8!("aesenc", "32"), round8!("aesenc", "48"),
        round8!("aesenc", "64"), round8!("aesenc", "80"), round8!("aesenc", "96"),
        round8!("aesenc", "112"), round8!("aesenc", "128"), round8!("aesenc", "144"),
        round8!("aesenc", "160"), round8!("aesenc", "176"), round8!("aesenc", "192"),
        round8!("aesenc", "208"), round8!("aesenclast", "224"),
        "movdqu xmmword ptr [rsi], xmm0",
        "movdqu xmmword ptr [rsi + 16], xmm1",
        "movdqu xmmword ptr [rsi + 32], xmm2",
        "movdqu xmmword ptr [rsi + 48], xmm3",
        "movdqu xmmword ptr [rsi + 64], xmm4",
        "movdqu xmmword ptr [rsi + 80], xmm5",
        "movdqu xmmword ptr [rsi + 96], xmm6",
        "movdqu xmmword ptr [rsi + 112], xmm7",
        "add rsi, 128",
        "sub rdx, 8",
        "jmp 2b",
        "3:",
        "test rdx, rdx",
        "jz 4f",
        next_counter!("xmm0"),
        cipher_small!("xmm0"),
        "movdqu xmmword ptr [rsi], xmm0",
        "add rsi, 16",
        "dec rdx",
        "jmp 3b",
        "4:",
        // The next key's round keys: 0 and 1 from xmm12 and xmm13, then its
        // expansion.
        "movdqu xmmword ptr [r9], xmm12",
        "movdqu xmmword ptr [r9 + 16], xmm13",
        expand_steps_1_4!(sse, "xmm12", "xmm13", "xmm14", "xmm15"),
        expand_steps_5_7!(sse, "xmm12", "xmm13", "xmm14", "xmm15"),
        rseq_end!(zero_all!()),
        consts = sym CONSTS,
        bswap = const C_BSWAP,
        one = const C_ONE,
    )
}
