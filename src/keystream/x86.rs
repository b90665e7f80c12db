//! What the x86_64 kernels share: CPU feature detection, constants, the
//! calling convention of every kernel, the restartable-sequence frame around
//! them, and the AES-256 key expansion (SubWord on `aesenclast`), done in
//! place in the thread's state.
//!
//! # Kernels
//! Every kernel is a naked `sysv64` function that uses only caller-saved
//! registers and no stack, and returns a [`Progress`]. Its arguments are `rdi`
//! the current round keys, `rsi` the output (or the seed), `rdx` a block count,
//! `rcx` the first counter, `r8` this thread's `rseq_cs` word (or null) and
//! `r9` the other half of the [`Schedule`](super::Schedule), where it writes
//! the next key's round keys. Everything a kernel does between its labels `30:`
//! and `8:` is a restartable sequence: it may be interrupted at any instruction
//! and run again with the same arguments (less the blocks already done),
//! because it writes nothing that it reads. Every key it holds lives in vector
//! registers between those labels only: the sequence ends with the instruction
//! that zeroes the last of them. With `r8` non-null the kernel first points the
//! thread's `rseq_cs` word at its descriptor, so that the kernel diverts a
//! signal's (or a preemption's) return into the sequence to the abort label
//! `7:`, which zeroes the registers and reports the abort: the caller then
//! wipes the signal frame, whose register image may hold the key (see
//! [`super::signal_frames`]). With `r8` null the caller blocks signals instead.

use super::RoundKeys;

cpufeatures::new!(cpu_aesni, "aes", "ssse3");
cpufeatures::new!(cpu_avx, "avx");
cpufeatures::new!(cpu_avx512f, "avx512f");
cpufeatures::new!(cpu_avx2, "avx2", "aes");
cpufeatures::new!(cpu_avx512, "avx512f", "avx512bw", "aes");

/// The VAES bit (CPUID leaf 7, ECX bit 9). `cpufeatures` ties VAES to the
/// OS's AVX-512 state, which a VAES-256 CPU without AVX-512 (AMD Zen 3) does
/// not have, so the bit is read here and combined with the vector-width
/// checks above, which do look at the OS's support (XCR0).
fn cpuid_vaes() -> bool {
    // SAFETY: CPUID leaf 7 exists on every x86_64 CPU that has AVX2
    // (checked first by the callers); on others it returns zeroes. (The
    // intrinsic is safe from Rust 1.87 on, unsafe before.)
    #[allow(unused_unsafe)]
    let leaf7 = unsafe { core::arch::x86_64::__cpuid_count(7, 0) };
    leaf7.ecx & (1 << 9) != 0
}

pub(super) fn has_aesni() -> bool {
    cpu_aesni::get()
}

pub(super) fn has_vaes256() -> bool {
    cpu_avx2::get() && cpuid_vaes()
}

pub(super) fn has_vaes512() -> bool {
    cpu_avx512::get() && cpuid_vaes()
}

/// What a kernel reports: how many blocks it wrote (all of them unless
/// `aborted`), and whether a signal or a preemption diverted it to its abort
/// label. Returned in `rax` and `rdx`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub(super) struct Progress {
    pub done: usize,
    pub aborted: usize,
}

/// A kernel: see the module documentation.
pub(super) type Kernel =
    unsafe extern "sysv64" fn(*const RoundKeys, *mut u8, usize, u64, *mut u64, *mut RoundKeys) -> Progress;

/// Constants the kernels load, laid out for 16-byte-aligned loads.
#[repr(C, align(64))]
pub(super) struct Consts {
    /// Counters 0, 1, 2, 3 as little-endian 128-bit lanes.
    pub counters: [u64; 8],
    /// Reverses the bytes of each 128-bit lane (little- to big-endian counter).
    pub bswap: [u8; 16],
    /// 1, 2 and 4 as little-endian 128-bit values.
    pub one: [u64; 2],
    pub two: [u64; 2],
    pub four: [u64; 2],
    /// RotWord of the last column, in every column (a `pshufb` control).
    pub rot_word: [u8; 16],
    /// The key expansion's round keys for `aesenclast`: entry `i` holds the
    /// round constant of step `i` (2 to the `i - 1`) in every column, entry
    /// 0 zero.
    pub rcon: [[u32; 4]; 8],
}

pub(super) static CONSTS: Consts = Consts {
    counters: [0, 0, 1, 0, 2, 0, 3, 0],
    bswap: [15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
    one: [1, 0],
    two: [2, 0],
    four: [4, 0],
    rot_word: [13, 14, 15, 12, 13, 14, 15, 12, 13, 14, 15, 12, 13, 14, 15, 12],
    rcon: [[0; 4], [1; 4], [2; 4], [4; 4], [8; 4], [0x10; 4], [0x20; 4], [0x40; 4]],
};

/// Byte offsets into [`Consts`] for the assembly.
pub(super) const C_COUNTERS: usize = 0;
pub(super) const C_BSWAP: usize = 64;
pub(super) const C_ONE: usize = 80;
pub(super) const C_TWO: usize = 96;
pub(super) const C_FOUR: usize = 112;
/// Written into [`expand_step`]'s text.
const C_ROT_WORD: usize = 128;
const C_RCON: usize = 144;

const _: () = {
    assert!(core::mem::offset_of!(Consts, bswap) == C_BSWAP);
    assert!(core::mem::offset_of!(Consts, one) == C_ONE);
    assert!(core::mem::offset_of!(Consts, two) == C_TWO);
    assert!(core::mem::offset_of!(Consts, four) == C_FOUR);
    assert!(core::mem::offset_of!(Consts, rot_word) == C_ROT_WORD);
    assert!(core::mem::offset_of!(Consts, rcon) == C_RCON);
};

/// Where the sequences' descriptors go: read-only data after relocation.
/// On Windows no descriptor is ever registered (the kernels run with a null
/// `rseq_cs`), but the code names it.
#[cfg(target_os = "linux")]
macro_rules! rseq_cs_section {
    () => {
        ".pushsection .data.rel.ro.randp_rseq_cs, \"aw\", @progbits\n"
    };
}
#[cfg(windows)]
macro_rules! rseq_cs_section {
    () => {
        ".pushsection .rdata$randp_rseq_cs, \"dr\"\n"
    };
}
pub(super) use rseq_cs_section;

/// The start of every kernel: keeps the block count in `r10` (for
/// [`rseq_end`]), arms the restartable sequence when `r8` is not null, and
/// opens it at label `30:`. (No label of these kernels is made of the
/// digits 0 and 1 only, which LLVM's Intel syntax reads as binary numbers.)
#[rustfmt::skip] // one assembly line per source line
macro_rules! rseq_begin {
    () => {
        concat!(
            "mov r10, rdx\n",
            "test r8, r8\n",
            "jz 30f\n",
            "lea rax, [rip + 9f]\n",
            "mov qword ptr [r8], rax\n",
            "30:\n",
        )
    };
}
pub(super) use rseq_begin;

/// The end of every kernel. `$zero` zeroes every register the kernel used;
/// its last instruction is the last one of the sequence (label `8:` follows
/// it). The normal return disarms the sequence, zeroes the round keys the
/// kernel read (at `rdi`: the next key's are at `r9`, and the caller makes
/// that half current) and reports `r10` blocks done;
/// the abort label `7:`, preceded by the signature glibc registers for the
/// thread (RSEQ_SIG, inside a `ud1` so that nothing runs into it), zeroes
/// the registers and reports `r10 - rdx` blocks done and the abort. Label
/// `9:` is the sequence's descriptor (struct rseq_cs: version, flags,
/// start, length, abort).
#[rustfmt::skip] // one assembly line per source line
macro_rules! rseq_end {
    ($zero:expr) => {
        concat!(
            $zero,
            "8:\n",
            "test r8, r8\n",
            "jz 20f\n",
            "mov qword ptr [r8], 0\n",
            "20:\n",
            // The round keys the kernel read (at `rdi`), with xmm0 zeroed.
            "xorps xmm0, xmm0\n",
            "movups xmmword ptr [rdi], xmm0\nmovups xmmword ptr [rdi + 16], xmm0\n",
            "movups xmmword ptr [rdi + 32], xmm0\nmovups xmmword ptr [rdi + 48], xmm0\n",
            "movups xmmword ptr [rdi + 64], xmm0\nmovups xmmword ptr [rdi + 80], xmm0\n",
            "movups xmmword ptr [rdi + 96], xmm0\nmovups xmmword ptr [rdi + 112], xmm0\n",
            "movups xmmword ptr [rdi + 128], xmm0\nmovups xmmword ptr [rdi + 144], xmm0\n",
            "movups xmmword ptr [rdi + 160], xmm0\nmovups xmmword ptr [rdi + 176], xmm0\n",
            "movups xmmword ptr [rdi + 192], xmm0\nmovups xmmword ptr [rdi + 208], xmm0\n",
            "movups xmmword ptr [rdi + 224], xmm0\n",
            "mov rax, r10\n",
            "xor edx, edx\n",
            "ret\n",
            ".byte 0x0f, 0xb9, 0x3d\n",
            ".long 0x53053053\n",
            "7:\n",
            $zero,
            "mov rax, r10\n",
            "sub rax, rdx\n",
            "mov edx, 1\n",
            "ret\n",
            $crate::keystream::x86::rseq_cs_section!(),
            ".balign 32\n",
            "9:\n",
            ".long 0, 0\n",
            ".quad 30b, 8b - 30b, 7b\n",
            ".popsection\n",
        )
    };
}
pub(super) use rseq_end;

/// Step `$i` (1 to 7) of the AES-256 key expansion (FIPS 197, 5.2): round
/// key `2i`, and, in steps 1 to 6, round key `2i + 1`, from the two before
/// them, `$even` holding round key `2i - 2` and `$odd` round key `2i - 1`
/// (both replaced), `$t` and `$u` scratch; stored at `[r9 + 32 * i]` and
/// `[r9 + 32 * i + 16]`. `$i` also picks the round constant. Every kernel
/// that uses it names [`CONSTS`] as `consts`. `sse`: legacy encodings;
/// `vex`: AVX encodings, for the kernels that use wider vectors.
///
/// SubWord runs on `aesenclast` rather than `aeskeygenassist`, whose latency
/// on Intel cores makes the 13 dependent steps the longest part of a short
/// call: with the same word in all four columns (a `pshufb` or `pshufd`
/// broadcast), ShiftRows moves nothing, so `aesenclast` of it is SubWord in
/// every column XORed with its round key, the round constant (or zero). Each
/// new round key is then the old one's prefix XOR (two shifts by one and two
/// words) XORed with that.
///
/// Step 7 makes round key 14, the last, only: the assembler's `.if` leaves
/// the odd key's instructions out of it. (The assembler also computes the
/// offsets, so `$i` is a digit, `"1"` to `"7"`.)
#[rustfmt::skip] // one assembly line per source line
macro_rules! expand_step {
    (sse, $even:literal, $odd:literal, $t:literal, $u:literal, $i:literal) => {
        concat!(
            "movdqa ", $t, ", ", $odd, "\n",
            "pshufb ", $t, ", xmmword ptr [rip + {consts} + 128]\n",
            "aesenclast ", $t, ", xmmword ptr [rip + {consts} + 144 + 16 * ", $i, "]\n",
            "movdqa ", $u, ", ", $even, "\n", "pslldq ", $u, ", 4\n", "pxor ", $even, ", ", $u, "\n",
            "movdqa ", $u, ", ", $even, "\n", "pslldq ", $u, ", 8\n", "pxor ", $even, ", ", $u, "\n",
            "pxor ", $even, ", ", $t, "\n",
            "movdqu xmmword ptr [r9 + 32 * ", $i, "], ", $even, "\n",
            ".if ", $i, " < 7\n",
            "pshufd ", $t, ", ", $even, ", 0xff\n",
            "aesenclast ", $t, ", xmmword ptr [rip + {consts} + 144]\n",
            "movdqa ", $u, ", ", $odd, "\n", "pslldq ", $u, ", 4\n", "pxor ", $odd, ", ", $u, "\n",
            "movdqa ", $u, ", ", $odd, "\n", "pslldq ", $u, ", 8\n", "pxor ", $odd, ", ", $u, "\n",
            "pxor ", $odd, ", ", $t, "\n",
            "movdqu xmmword ptr [r9 + 32 * ", $i, " + 16], ", $odd, "\n",
            ".endif\n",
        )
    };
    (vex, $even:literal, $odd:literal, $t:literal, $u:literal, $i:literal) => {
        concat!(
            "vpshufb ", $t, ", ", $odd, ", xmmword ptr [rip + {consts} + 128]\n",
            "vaesenclast ", $t, ", ", $t, ", xmmword ptr [rip + {consts} + 144 + 16 * ", $i, "]\n",
            "vpslldq ", $u, ", ", $even, ", 4\n", "vpxor ", $even, ", ", $even, ", ", $u, "\n",
            "vpslldq ", $u, ", ", $even, ", 8\n", "vpxor ", $even, ", ", $even, ", ", $u, "\n",
            "vpxor ", $even, ", ", $even, ", ", $t, "\n",
            "vmovdqu xmmword ptr [r9 + 32 * ", $i, "], ", $even, "\n",
            ".if ", $i, " < 7\n",
            "vpshufd ", $t, ", ", $even, ", 0xff\n",
            "vaesenclast ", $t, ", ", $t, ", xmmword ptr [rip + {consts} + 144]\n",
            "vpslldq ", $u, ", ", $odd, ", 4\n", "vpxor ", $odd, ", ", $odd, ", ", $u, "\n",
            "vpslldq ", $u, ", ", $odd, ", 8\n", "vpxor ", $odd, ", ", $odd, ", ", $u, "\n",
            "vpxor ", $odd, ", ", $odd, ", ", $t, "\n",
            "vmovdqu xmmword ptr [r9 + 32 * ", $i, " + 16], ", $odd, "\n",
            ".endif\n",
        )
    };
}
pub(super) use expand_step;

/// The whole expansion of a key held in round keys 0 and 1 into round keys 2
/// to 14 at `r9` (round keys 0 and 1 are stored by the caller): the seven
/// steps in order, each `$step!(i)`, `$step` being the caller's
/// [`expand_step`] on its registers. The seed mix makes all seven; the
/// keystream kernels spread them over their groups of blocks and make those
/// left with [`expand_rest`], which enters this list at the labels `12:` to
/// `17:` before steps 2 to 7.
#[rustfmt::skip] // one assembly line per source line
macro_rules! expand_all {
    ($step:ident) => {
        concat!(
            $step!("1"),
            "12:\n", $step!("2"),
            "13:\n", $step!("3"),
            "14:\n", $step!("4"),
            "15:\n", $step!("5"),
            "16:\n", $step!("6"),
            "17:\n", $step!("7"),
        )
    };
}
pub(super) use expand_all;

/// The expansion steps a kernel's groups did not make: with `r11` (0 to 7)
/// the number of steps they made, steps `r11 + 1` to 7 of [`expand_all`],
/// by `$step`, the macro the groups made theirs with (on the same
/// registers). Only compares `r11`; uses the labels `12:` to `17:` and `6:`
/// (its end).
#[rustfmt::skip] // one assembly line per source line
macro_rules! expand_rest {
    ($step:ident) => {
        concat!(
            "cmp r11d, 7\n", "je 6f\n",
            "cmp r11d, 6\n", "je 17f\n",
            "cmp r11d, 5\n", "je 16f\n",
            "cmp r11d, 4\n", "je 15f\n",
            "cmp r11d, 3\n", "je 14f\n",
            "cmp r11d, 2\n", "je 13f\n",
            "cmp r11d, 1\n", "je 12f\n",
            $crate::keystream::x86::expand_all!($step),
            "6:\n",
        )
    };
}
pub(super) use expand_rest;

/// The rest of the AES-NI and VAES-256 kernels after their setup: every
/// block, in groups of `$n`, and the next key's expansion, two steps in
/// each of the first four groups (counted in `r11`), the rest by
/// [`expand_rest`]. Expects `rdx` the block count, `rsi` the output, the
/// counters ready for `$group`, and the next key's counter blocks in the
/// registers `$more`, which go through the rounds of the first group (or
/// of the only, partial one). Uses the labels `2:`, `3:`, `5:`, `18:`,
/// `19:` and those of [`expand_rest`], and these macros of the kernel:
/// - `$group!([regs], step1, step2, store)`: the next `$n` counter blocks
///   (and the registers `regs`) through the 14 rounds, with the expansion
///   steps `step1` and `step2` (or nothing) among them, then `store`;
/// - `$step!(i)`: [`expand_step`] on the kernel's registers;
/// - `$store_group!()`: stores a whole group at `rsi`, moves `rsi` on and
///   subtracts `$n` from `rdx`;
/// - `$store_part!(label)`: stores the first `rdx` (below `$n`) blocks of
///   a group, then jumps to `label` with `rdx` zero;
/// - `$key_out!()`: stores the next key (round keys 0 and 1) from `$more`
///   at `r9` and leaves it in `$step`'s registers.
#[rustfmt::skip] // one assembly line per source line
macro_rules! group_schedule {
    (
        $n:literal, [$($more:literal),*],
        $group:ident, $step:ident, $store_group:ident, $store_part:ident, $key_out:ident
    ) => {
        concat!(
            "cmp rdx, ", $n, "\n",
            "jb 18f\n",
            $group!([$($more),*], "", "", $store_group!()),
            $key_out!(),
            // Two expansion steps per group while there are groups (a step
            // is a chain of a few dependent instructions, a group 112
            // independent AES instructions); r11 counts the steps made. The
            // steps left when the groups run out come after the last blocks
            // (label 5), so that those blocks are under way while the steps
            // wait for one another.
            "xor r11d, r11d\n",
            "cmp rdx, ", $n, "\n", "jb 3f\n",
            $group!([], $step!("1"), $step!("2"), $store_group!()), "add r11d, 2\n",
            "cmp rdx, ", $n, "\n", "jb 3f\n",
            $group!([], $step!("3"), $step!("4"), $store_group!()), "add r11d, 2\n",
            "cmp rdx, ", $n, "\n", "jb 3f\n",
            $group!([], $step!("5"), $step!("6"), $store_group!()), "add r11d, 2\n",
            "cmp rdx, ", $n, "\n", "jb 3f\n",
            $group!([], $step!("7"), "", $store_group!()), "inc r11d\n",
            "2:\n",
            "cmp rdx, ", $n, "\n",
            "jb 3f\n",
            $group!([], "", "", $store_group!()),
            "jmp 2b\n",
            // Fewer than `$n` blocks left: one more group, of which only
            // those are stored (the blocks run side by side, not one after
            // another).
            "3:\n",
            "test rdx, rdx\n",
            "jz 5f\n",
            $group!([], "", "", $store_part!("5")),
            // Fewer than `$n` blocks in all: the next key goes through the
            // rounds of their group (also when there are none), then its
            // expansion.
            "18:\n",
            $group!([$($more),*], "", "", $store_part!("19")),
            "19:\n",
            $key_out!(),
            "xor r11d, r11d\n",
            "5:\n",
            // The expansion steps the groups did not make: from step r11 + 1.
            $crate::keystream::x86::expand_rest!($step),
        )
    };
}
pub(super) use group_schedule;

/// An expansion step of the seed mix on xmm1 (even round key) and xmm3
/// (odd), scratch xmm2 and xmm4.
#[rustfmt::skip] // one assembly line per source line
macro_rules! mix_step {
    ($i:literal) => {
        expand_step!(sse, "xmm1", "xmm3", "xmm2", "xmm4", $i)
    };
}

/// Zeroes the registers the seed mix uses.
#[rustfmt::skip] // one assembly line per source line
macro_rules! zero_xmm1_4 {
    () => {
        "pxor xmm1, xmm1\npxor xmm2, xmm2\npxor xmm3, xmm3\npxor xmm4, xmm4\n"
    };
}

/// Writes the key of the round keys at `rdi` (round keys 0 and 1) XORed
/// with the 32 bytes at `rsi`, and its expansion, to the round keys at `r9`
/// (a kernel: `rdx` and `rcx` are ignored). Reads nothing it writes, so it
/// can be run again.
///
/// # Safety
/// `rdi` is valid for reads of [`RoundKeys`], `r9` for writes, `rsi` for
/// reads of 32 bytes, none overlapping `r9`; `r8` is null or this thread's
/// registered `rseq_cs` word; the CPU has AES-NI.
#[unsafe(naked)]
#[rustfmt::skip] // one assembly line per source line
pub(super) unsafe extern "sysv64" fn mix_expand(
    _cur: *const RoundKeys,
    _seed: *mut u8,
    _n: usize,
    _first: u64,
    _rseq_cs: *mut u64,
    _next: *mut RoundKeys,
) -> Progress {
    core::arch::naked_asm!(
        rseq_begin!(),
        "movdqu xmm1, xmmword ptr [rdi]",
        "movdqu xmm3, xmmword ptr [rdi + 16]",
        "movdqu xmm4, xmmword ptr [rsi]",
        "pxor xmm1, xmm4",
        "movdqu xmm4, xmmword ptr [rsi + 16]",
        "pxor xmm3, xmm4",
        "movdqu xmmword ptr [r9], xmm1",
        "movdqu xmmword ptr [r9 + 16], xmm3",
        expand_all!(mix_step),
        rseq_end!(zero_xmm1_4!()),
        consts = sym CONSTS,
    )
}

/// From this many bytes, a move whose `src` or `dst` is off the vector
/// boundary copies and zeroes in two passes, each on its own pointer's
/// boundaries. One pass on the same offsets splits every other 32-byte
/// store (every 64-byte one) across a cache line when a pointer is off the
/// boundary: on AMD Zen 3 (family 25 model 1), a C `randp_bytes` of 512 B
/// into a `dst` 16 bytes off took 55.6 ns in one pass and 52.1 ns in two,
/// 1 KiB 108.8 ns and 100.5 ns (99.6 ns on the boundary); below 512 B the
/// second pass costs more than the split stores save (256 B: 29.6 ns in
/// two passes, 28.8 ns in one).
const SPLIT_FROM: usize = 512;

/// Defines a [`super::move_out`] for one vector width `$w`, for `n >= $w`
/// bytes, in assembly on three vector registers (`$v` moves, `$z` holds
/// zeroes, `$t` the last vector), all three zeroed before it returns, so that
/// no byte moved is left in a register (the compiler's version leaves the
/// last vectors it moved in whichever registers it picked). One pass of
/// whole vectors on the same offsets of `src` and `dst` when both are on the
/// vector boundary or the move is short, else ([`SPLIT_FROM`]) the copy with
/// its stores on `dst`'s vector boundaries and then the zeroing on `src`'s.
/// Either way the last vector, which may overlap the one before it, is loaded
/// before the first zero is stored. The three registers are scratch in both
/// the System V and the Windows calling conventions.
macro_rules! move_out_vectors {
    (
        $(#[$doc:meta])* $name:ident, $feature:literal, $w:literal, $mov:literal,
        $v:tt, $z:tt, $t:tt, zero: $zero:literal, clear: $clear:literal
    ) => {
        $(#[$doc])*
        ///
        /// # Safety
        /// As for [`super::move_out`], with `n` at least the vector width;
        /// the CPU has the target feature.
        #[target_feature(enable = $feature)]
        #[inline(never)] // its `vzeroupper` must not land among a caller's vectors
        pub(super) unsafe fn $name(src: *mut u8, dst: *mut u8, n: usize) {
            const W: usize = $w;
            debug_assert!(n >= W);
            if n < SPLIT_FROM || (src as usize | dst as usize) & (W - 1) == 0 {
                // SAFETY: the caller gives `n >= W` bytes at `src` (read and
                // written) and `dst` (written), not overlapping; every access
                // is a whole vector at an offset from 0 to `n - W`. The
                // assembly touches no stack.
                unsafe {
                    core::arch::asm!(
                        concat!($mov, " ", $t, ", [{s} + {n} - {w}]"),
                        $zero,
                        "xor {i:e}, {i:e}",
                        "lea {e}, [{n} - {w}]",
                        "2:",
                        concat!($mov, " ", $v, ", [{s} + {i}]"),
                        concat!($mov, " [{d} + {i}], ", $v),
                        concat!($mov, " [{s} + {i}], ", $z),
                        "add {i}, {w}",
                        "cmp {i}, {e}",
                        "jb 2b",
                        concat!($mov, " [{d} + {e}], ", $t),
                        concat!($mov, " [{s} + {e}], ", $z),
                        $clear,
                        s = in(reg) src, d = in(reg) dst, n = in(reg) n, w = const W,
                        i = out(reg) _, e = out(reg) _,
                        out($v) _, out($z) _, out($t) _,
                        options(nostack),
                    )
                };
                return;
            }
            // SAFETY: as above; the first offsets after the first vector
            // (`W` less each pointer's misalignment) are between 1 and `W`,
            // below `n - W` (`n >= SPLIT_FROM`).
            unsafe {
                core::arch::asm!(
                    concat!($mov, " ", $t, ", [{s} + {n} - {w}]"),
                    concat!($mov, " ", $v, ", [{s}]"),
                    concat!($mov, " [{d}], ", $v),
                    "lea {e}, [{n} - {w}]",
                    "mov {i}, {d}",
                    "and {i}, {w} - 1",
                    "neg {i}",
                    "add {i}, {w}",
                    "2:",
                    concat!($mov, " ", $v, ", [{s} + {i}]"),
                    concat!($mov, " [{d} + {i}], ", $v),
                    "add {i}, {w}",
                    "cmp {i}, {e}",
                    "jb 2b",
                    concat!($mov, " [{d} + {e}], ", $t),
                    $zero,
                    concat!($mov, " [{s}], ", $z),
                    "mov {i}, {s}",
                    "and {i}, {w} - 1",
                    "neg {i}",
                    "add {i}, {w}",
                    "3:",
                    concat!($mov, " [{s} + {i}], ", $z),
                    "add {i}, {w}",
                    "cmp {i}, {e}",
                    "jb 3b",
                    concat!($mov, " [{s} + {e}], ", $z),
                    $clear,
                    s = in(reg) src, d = in(reg) dst, n = in(reg) n, w = const W,
                    i = out(reg) _, e = out(reg) _,
                    out($v) _, out($z) _, out($t) _,
                    options(nostack),
                )
            }
        }
    };
}

move_out_vectors!(
    /// [`super::move_out`] with 64-byte vectors.
    move_out_512, "avx512f", 64, "vmovdqu64", "zmm0", "zmm1", "zmm2",
    zero: "vpxord zmm1, zmm1, zmm1",
    clear: "vpxor xmm0, xmm0, xmm0\nvpxor xmm2, xmm2, xmm2\nvzeroupper"
);
move_out_vectors!(
    /// [`super::move_out`] with 32-byte vectors.
    move_out_256, "avx", 32, "vmovdqu", "ymm0", "ymm1", "ymm2",
    zero: "vpxor ymm1, ymm1, ymm1",
    clear: "vpxor xmm0, xmm0, xmm0\nvpxor xmm2, xmm2, xmm2\nvzeroupper"
);
move_out_vectors!(
    /// [`super::move_out`] with 16-byte vectors (SSE2: every x86_64 CPU),
    /// for the backends without wider ones.
    move_out_128, "sse2", 16, "movdqu", "xmm0", "xmm1", "xmm2",
    zero: "pxor xmm1, xmm1",
    clear: "pxor xmm0, xmm0\npxor xmm2, xmm2"
);

/// Moves `K` (2, 4 or 8) 16-byte words from `src` to the same offsets of
/// `dst`, zeroing them at `src`: the first half at 0, 16, … from the front,
/// the second half at `e`, `e + 16`, … (so that the words may overlap),
/// each loaded into its own register among xmm0 to xmm7 (SSE2: baseline on
/// x86_64, so this inlines anywhere), then every store, then every zero, and
/// last the registers zeroed: no copy of a byte moved is left in a register
/// or on the stack. xmm0 to xmm7 are scratch registers in both the System V
/// and the Windows calling conventions, so the callers save nothing for it.
///
/// # Safety
/// As for [`super::move_out`], with `e + 8 * K <= n` and `8 * K <= n`.
#[inline(always)]
pub(super) unsafe fn move_words<const K: usize>(src: *mut u8, dst: *mut u8, e: usize) {
    // SAFETY: forwarded from the caller: every word lies inside the `n`
    // bytes at `src` and at `dst`; the assembly touches no stack and no
    // flags.
    unsafe {
        match K {
            2 => core::arch::asm!(
                "movdqu xmm0, xmmword ptr [{s}]",
                "movdqu xmm1, xmmword ptr [{s} + {e}]",
                "movdqu xmmword ptr [{d}], xmm0",
                "movdqu xmmword ptr [{d} + {e}], xmm1",
                "pxor xmm0, xmm0",
                "pxor xmm1, xmm1",
                "movdqu xmmword ptr [{s}], xmm0",
                "movdqu xmmword ptr [{s} + {e}], xmm0",
                s = in(reg) src, d = in(reg) dst, e = in(reg) e,
                out("xmm0") _, out("xmm1") _,
                options(nostack, preserves_flags),
            ),
            4 => core::arch::asm!(
                "movdqu xmm0, xmmword ptr [{s}]",
                "movdqu xmm1, xmmword ptr [{s} + 16]",
                "movdqu xmm2, xmmword ptr [{s} + {e}]",
                "movdqu xmm3, xmmword ptr [{s} + {e} + 16]",
                "movdqu xmmword ptr [{d}], xmm0",
                "movdqu xmmword ptr [{d} + 16], xmm1",
                "movdqu xmmword ptr [{d} + {e}], xmm2",
                "movdqu xmmword ptr [{d} + {e} + 16], xmm3",
                "pxor xmm0, xmm0",
                "pxor xmm1, xmm1",
                "pxor xmm2, xmm2",
                "pxor xmm3, xmm3",
                "movdqu xmmword ptr [{s}], xmm0",
                "movdqu xmmword ptr [{s} + 16], xmm0",
                "movdqu xmmword ptr [{s} + {e}], xmm0",
                "movdqu xmmword ptr [{s} + {e} + 16], xmm0",
                s = in(reg) src, d = in(reg) dst, e = in(reg) e,
                out("xmm0") _, out("xmm1") _, out("xmm2") _, out("xmm3") _,
                options(nostack, preserves_flags),
            ),
            8 => core::arch::asm!(
                "movdqu xmm0, xmmword ptr [{s}]",
                "movdqu xmm1, xmmword ptr [{s} + 16]",
                "movdqu xmm2, xmmword ptr [{s} + 32]",
                "movdqu xmm3, xmmword ptr [{s} + 48]",
                "movdqu xmm4, xmmword ptr [{s} + {e}]",
                "movdqu xmm5, xmmword ptr [{s} + {e} + 16]",
                "movdqu xmm6, xmmword ptr [{s} + {e} + 32]",
                "movdqu xmm7, xmmword ptr [{s} + {e} + 48]",
                "movdqu xmmword ptr [{d}], xmm0",
                "movdqu xmmword ptr [{d} + 16], xmm1",
                "movdqu xmmword ptr [{d} + 32], xmm2",
                "movdqu xmmword ptr [{d} + 48], xmm3",
                "movdqu xmmword ptr [{d} + {e}], xmm4",
                "movdqu xmmword ptr [{d} + {e} + 16], xmm5",
                "movdqu xmmword ptr [{d} + {e} + 32], xmm6",
                "movdqu xmmword ptr [{d} + {e} + 48], xmm7",
                "pxor xmm0, xmm0",
                "pxor xmm1, xmm1",
                "pxor xmm2, xmm2",
                "pxor xmm3, xmm3",
                "pxor xmm4, xmm4",
                "pxor xmm5, xmm5",
                "pxor xmm6, xmm6",
                "pxor xmm7, xmm7",
                "movdqu xmmword ptr [{s}], xmm0",
                "movdqu xmmword ptr [{s} + 16], xmm0",
                "movdqu xmmword ptr [{s} + 32], xmm0",
                "movdqu xmmword ptr [{s} + 48], xmm0",
                "movdqu xmmword ptr [{s} + {e}], xmm0",
                "movdqu xmmword ptr [{s} + {e} + 16], xmm0",
                "movdqu xmmword ptr [{s} + {e} + 32], xmm0",
                "movdqu xmmword ptr [{s} + {e} + 48], xmm0",
                s = in(reg) src, d = in(reg) dst, e = in(reg) e,
                out("xmm0") _, out("xmm1") _, out("xmm2") _, out("xmm3") _,
                out("xmm4") _, out("xmm5") _, out("xmm6") _, out("xmm7") _,
                options(nostack, preserves_flags),
            ),
            _ => unreachable!("2, 4 or 8 words"),
        }
    }
}

/// Moves `n` (0 to 15) bytes from `src` to `dst`, zeroing them at `src`,
/// through two general registers that are zeroed afterwards: two words of
/// the widest size that fits, one from each end (they overlap unless `n` is
/// twice that size), or one byte. No copy of a byte moved is left in a
/// register or on the stack.
///
/// # Safety
/// As for [`super::move_out`], with `n < 16`.
#[inline(always)]
pub(super) unsafe fn move_gprs(src: *mut u8, dst: *mut u8, n: usize) {
    debug_assert!(n < 16);
    /// The assembly for two words of `$size` (`ptr` keyword) in register
    /// part `$part`, the second at `src + e` and `dst + e`.
    macro_rules! two {
        ($size:literal, $part:literal, $e:expr) => {
            core::arch::asm!(
                concat!("mov {a", $part, "}, ", $size, " ptr [{s}]"),
                concat!("mov {b", $part, "}, ", $size, " ptr [{s} + {e}]"),
                concat!("mov ", $size, " ptr [{d}], {a", $part, "}"),
                concat!("mov ", $size, " ptr [{d} + {e}], {b", $part, "}"),
                "xor {a:e}, {a:e}",
                "xor {b:e}, {b:e}",
                concat!("mov ", $size, " ptr [{s}], {a", $part, "}"),
                concat!("mov ", $size, " ptr [{s} + {e}], {a", $part, "}"),
                s = in(reg) src, d = in(reg) dst, e = in(reg) $e,
                a = out(reg_abcd) _, b = out(reg_abcd) _,
                options(nostack),
            )
        };
    }
    // SAFETY: forwarded from the caller: both words of each branch lie
    // inside the `n` bytes at `src` and at `dst`; the assembly touches no
    // stack.
    unsafe {
        match n {
            8.. => two!("qword", "", n - 8),
            4.. => two!("dword", ":e", n - 4),
            2.. => two!("word", ":x", n - 2),
            1 => two!("byte", ":l", 0usize),
            _ => {}
        }
    }
}

/// Zeroes the `len` bytes below its own return address, down to `low` at the
/// lowest: where the kernel put the signal frame of a signal that interrupted
/// a kernel called from the same frame (whose stack pointer was the same).
/// Not a kernel: takes `rdi = len` and `rsi = low`, uses `rax`, `rcx`, `rdi`,
/// and no stack.
///
/// # Safety
/// The `len` bytes below the caller's stack pointer, above `low`, are
/// mapped, writable and unused (dead stack below the red zone's end).
#[unsafe(naked)]
#[rustfmt::skip] // one assembly line per source line
pub(super) unsafe extern "sysv64" fn wipe_below_stack(_len: usize, _low: usize) {
    core::arch::naked_asm!(
        "mov rax, rsp",
        "mov rcx, rax",
        "sub rcx, rdi",
        "cmp rcx, rsi",
        "cmovb rcx, rsi",
        "mov rdi, rcx",
        "sub rax, rcx",
        "jbe 2f",
        "mov rcx, rax",
        "xor eax, eax",
        "rep stosb",
        "2:",
        "ret",
    )
}

/// Zeroes every vector register: xmm0..15 always, their upper halves when
/// `level >= 1` (AVX), and zmm16..31 when `level >= 2` (AVX-512F). For code
/// that leaves key material in them: the `aes` crate (the portable backend),
/// and the test views of the state.
///
/// # Safety
/// The CPU has the features `level` names.
#[unsafe(naked)]
#[rustfmt::skip] // one assembly line per source line
pub(super) unsafe extern "sysv64" fn zero_vector_registers(_level: usize) {
    core::arch::naked_asm!(
        "pxor xmm0, xmm0", "pxor xmm1, xmm1", "pxor xmm2, xmm2", "pxor xmm3, xmm3",
        "pxor xmm4, xmm4", "pxor xmm5, xmm5", "pxor xmm6, xmm6", "pxor xmm7, xmm7",
        "pxor xmm8, xmm8", "pxor xmm9, xmm9", "pxor xmm10, xmm10", "pxor xmm11, xmm11",
        "pxor xmm12, xmm12", "pxor xmm13, xmm13", "pxor xmm14, xmm14", "pxor xmm15, xmm15",
        "test rdi, rdi",
        "jz 2f",
        "vzeroall",
        "cmp rdi, 2",
        "jb 2f",
        "vpxord zmm16, zmm16, zmm16", "vpxord zmm17, zmm17, zmm17", "vpxord zmm18, zmm18, zmm18",
        "vpxord zmm19, zmm19, zmm19", "vpxord zmm20, zmm20, zmm20", "vpxord zmm21, zmm21, zmm21",
        "vpxord zmm22, zmm22, zmm22", "vpxord zmm23, zmm23, zmm23", "vpxord zmm24, zmm24, zmm24",
        "vpxord zmm25, zmm25, zmm25", "vpxord zmm26, zmm26, zmm26", "vpxord zmm27, zmm27, zmm27",
        "vpxord zmm28, zmm28, zmm28", "vpxord zmm29, zmm29, zmm29", "vpxord zmm30, zmm30, zmm30",
        "vpxord zmm31, zmm31, zmm31",
        "2:",
        "ret",
    )
}

/// The `level` argument of [`zero_vector_registers`] for this CPU.
pub(super) fn vector_level() -> usize {
    if cpu_avx512f::get() {
        2
    } else if cpu_avx::get() {
        1
    } else {
        0
    }
}
