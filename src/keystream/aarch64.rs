//! The aarch64 moves out of the buffer: assembly that copies keystream to the
//! caller, zeroes it behind and then zeroes every register it moved bytes
//! through, so that no byte of a fill's output is left in a register once the
//! fill returns (a signal delivered then would save the registers in its
//! frame), in release and debug builds alike (the assembly keeps nothing in a
//! stack slot). Only scratch registers of the AAPCS64: x9 and up, v0 to v7
//! and v16.

/// The assembly that zeroes v0 to v7, the registers the longer moves load.
macro_rules! zero_v0_v7 {
    () => {
        "movi v0.16b, #0\nmovi v1.16b, #0\nmovi v2.16b, #0\nmovi v3.16b, #0\n\
         movi v4.16b, #0\nmovi v5.16b, #0\nmovi v6.16b, #0\nmovi v7.16b, #0"
    };
}

/// Moves `n` (0 to 15) bytes from `src` to `dst`, zeroing them at `src`,
/// through two general registers that are zeroed afterwards: two words of
/// the widest size that fits, one from each end (they overlap unless `n` is
/// twice that size), or one byte.
///
/// # Safety
/// As for [`super::move_out`], with `n < 16`.
#[inline(always)]
pub(super) unsafe fn move_gprs(src: *mut u8, dst: *mut u8, n: usize) {
    debug_assert!(n < 16);
    /// The assembly for two words loaded with `$ld` and stored with `$st`
    /// in register part `$part` (zeroed through `$zr`), the second at
    /// `src + e` and `dst + e`.
    macro_rules! two {
        ($ld:literal, $st:literal, $part:literal, $zr:literal, $e:expr) => {
            core::arch::asm!(
                concat!($ld, " {a", $part, "}, [{s}]"),
                concat!($ld, " {b", $part, "}, [{s}, {e}]"),
                concat!($st, " {a", $part, "}, [{d}]"),
                concat!($st, " {b", $part, "}, [{d}, {e}]"),
                concat!($st, " ", $zr, ", [{s}]"),
                concat!($st, " ", $zr, ", [{s}, {e}]"),
                "mov {a}, xzr",
                "mov {b}, xzr",
                s = in(reg) src, d = in(reg) dst, e = in(reg) $e,
                a = out(reg) _, b = out(reg) _,
                options(nostack, preserves_flags),
            )
        };
    }
    // SAFETY: forwarded from the caller: both words of each branch lie
    // inside the `n` bytes at `src` and at `dst`; the assembly touches no
    // stack.
    unsafe {
        match n {
            8.. => two!("ldr", "str", "", "xzr", n - 8),
            4.. => two!("ldr", "str", ":w", "wzr", n - 4),
            2.. => two!("ldrh", "strh", ":w", "wzr", n - 2),
            1 => two!("ldrb", "strb", ":w", "wzr", 0usize),
            _ => {}
        }
    }
}

/// Moves `K` (2, 4 or 8) 16-byte words from `src` to the same offsets of
/// `dst`, zeroing them at `src`: the first half at 0, 16, … from the front,
/// the second half at `e`, `e + 16`, … (so that the words may overlap),
/// each loaded into its own register among v0 to v7, then every store, then
/// the registers zeroed, then the zeroes stored at `src`.
///
/// # Safety
/// As for [`super::move_out`], with `e + 8 * K <= n` and `8 * K <= n`.
#[inline(always)]
pub(super) unsafe fn move_words<const K: usize>(src: *mut u8, dst: *mut u8, e: usize) {
    // SAFETY: forwarded from the caller: every word lies inside the `n`
    // bytes at `src` and at `dst`; the assembly touches no stack and no
    // flags.
    unsafe {
        let (t, u) = (src.add(e), dst.add(e));
        match K {
            2 => core::arch::asm!(
                "ldr q0, [{s}]",
                "ldr q1, [{t}]",
                "str q0, [{d}]",
                "str q1, [{u}]",
                "movi v0.16b, #0",
                "movi v1.16b, #0",
                "str q0, [{s}]",
                "str q0, [{t}]",
                s = in(reg) src, d = in(reg) dst, t = in(reg) t, u = in(reg) u,
                out("v0") _, out("v1") _,
                options(nostack, preserves_flags),
            ),
            4 => core::arch::asm!(
                "ldp q0, q1, [{s}]",
                "ldp q2, q3, [{t}]",
                "stp q0, q1, [{d}]",
                "stp q2, q3, [{u}]",
                "movi v0.16b, #0",
                "movi v1.16b, #0",
                "movi v2.16b, #0",
                "movi v3.16b, #0",
                "stp q0, q0, [{s}]",
                "stp q0, q0, [{t}]",
                s = in(reg) src, d = in(reg) dst, t = in(reg) t, u = in(reg) u,
                out("v0") _, out("v1") _, out("v2") _, out("v3") _,
                options(nostack, preserves_flags),
            ),
            8 => core::arch::asm!(
                "ldp q0, q1, [{s}]",
                "ldp q2, q3, [{s}, #32]",
                "ldp q4, q5, [{t}]",
                "ldp q6, q7, [{t}, #32]",
                "stp q0, q1, [{d}]",
                "stp q2, q3, [{d}, #32]",
                "stp q4, q5, [{u}]",
                "stp q6, q7, [{u}, #32]",
                zero_v0_v7!(),
                "stp q0, q0, [{s}]",
                "stp q0, q0, [{s}, #32]",
                "stp q0, q0, [{t}]",
                "stp q0, q0, [{t}, #32]",
                s = in(reg) src, d = in(reg) dst, t = in(reg) t, u = in(reg) u,
                out("v0") _, out("v1") _, out("v2") _, out("v3") _,
                out("v4") _, out("v5") _, out("v6") _, out("v7") _,
                options(nostack, preserves_flags),
            ),
            _ => unreachable!("2, 4 or 8 words"),
        }
    }
}

/// [`super::move_out`] of 64 bytes or more: 64 bytes per step in v0 to v3,
/// each step's bytes stored to `dst` and then zeroed at `src` (from v16,
/// zero), and the last 64 bytes, which may overlap the step before them,
/// loaded into v4 to v7 before the first zero is stored. Every register is
/// zeroed before it returns.
///
/// # Safety
/// As for [`super::move_out`], with `n >= 64`.
#[inline(never)]
pub(super) unsafe fn move_out_long(src: *mut u8, dst: *mut u8, n: usize) {
    debug_assert!(n >= 64);
    // SAFETY: the caller gives `n >= 64` bytes at `src` (read and written)
    // and `dst` (written), not overlapping; every access is 32 bytes at an
    // offset from 0 to `n - 32`. The assembly touches no stack.
    unsafe {
        let (t, u) = (src.add(n - 64), dst.add(n - 64));
        core::arch::asm!(
            "ldp q4, q5, [{t}]",
            "ldp q6, q7, [{t}, #32]",
            "movi v16.16b, #0",
            "2:",
            "ldp q0, q1, [{s}]",
            "ldp q2, q3, [{s}, #32]",
            "stp q0, q1, [{d}]",
            "stp q2, q3, [{d}, #32]",
            "stp q16, q16, [{s}]",
            "stp q16, q16, [{s}, #32]",
            "add {s}, {s}, #64",
            "add {d}, {d}, #64",
            "cmp {s}, {t}",
            "b.lo 2b",
            "stp q4, q5, [{u}]",
            "stp q6, q7, [{u}, #32]",
            "stp q16, q16, [{t}]",
            "stp q16, q16, [{t}, #32]",
            zero_v0_v7!(),
            s = inout(reg) src => _, d = inout(reg) dst => _, t = in(reg) t, u = in(reg) u,
            out("v0") _, out("v1") _, out("v2") _, out("v3") _,
            out("v4") _, out("v5") _, out("v6") _, out("v7") _, out("v16") _,
            options(nostack),
        )
    }
}

#[cfg(test)]
mod tests;
