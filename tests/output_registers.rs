//! No register holds any byte of a fill's output once `fill_bytes` returns.
//! A signal delivered right after the call would save every register in its
//! frame on the stack, where the copy would outlive the caller's buffer;
//! so the registers are read right after the call, before anything else
//! runs: the general registers a callee may change and every vector
//! register at its full width (16 xmm, 16 ymm or 32 zmm registers, as the
//! CPU has). Every length from 1 to 300 and longer ones through every path
//! (inline moves, vector moves, refills, direct writes), on every keystream
//! backend the CPU runs (their long moves use vectors of their own width),
//! each in a process of its own. Fills of 1 to 3 bytes are too short to
//! tell from a value a register holds by chance, so each runs 64 times and
//! fails if a register holds its bytes in half of them. Release and debug
//! builds, Linux and Windows (under wine).
#![cfg(target_arch = "x86_64")]

use std::hint::black_box;

mod support;

/// The registers a fill may have changed, as found after it returned.
#[repr(C)]
struct Registers {
    /// rax, rcx, rdx, rsi, rdi, r8, r9, r10 and r11.
    general: [u64; 9],
    /// zmm0 to zmm31 (their low 32 or 16 bytes, and 16 registers, without
    /// AVX-512; the rest stays zero).
    vector: [[u8; 64]; 32],
}

/// Which vector registers [`registers_after`] reads: 2 for zmm0..31, 1 for
/// ymm0..15, 0 for xmm0..15.
fn vector_level() -> usize {
    if std::arch::is_x86_feature_detected!("avx512f") {
        2
    } else if std::arch::is_x86_feature_detected!("avx") {
        1
    } else {
        0
    }
}

/// A caller of `fill_bytes`, which is inlined into it as into any user's
/// code, with the C calling convention so that the assembly below can call
/// it.
extern "C" fn fill(p: *mut u8, n: usize) {
    // SAFETY: `registers_after` passes a live slice's pointer and length.
    randp::fill_bytes(unsafe { std::slice::from_raw_parts_mut(p, n) })
}

/// Calls `f(out)` and stores every register it may have changed, with
/// nothing in between. The arguments go in both conventions' registers
/// (rdi, rsi for System V; rcx, rdx for Windows, which also wants 32 bytes
/// of shadow space: given on both).
#[inline(never)]
fn registers_after(f: extern "C" fn(*mut u8, usize), out: &mut [u8]) -> Box<Registers> {
    let mut r = Box::new(Registers { general: [0; 9], vector: [[0; 64]; 32] });
    // SAFETY: calls `f` with a valid slice, the stack aligned as the asm
    // block's entry guarantees (32 bytes keep it so); stores 9 words and at
    // most 32 vectors of 64 bytes into `r`, through r12, which `f`
    // preserves (callee-saved in both conventions), as it does r13. Every
    // register the call may change is declared clobbered.
    unsafe {
        std::arch::asm!(
            "sub rsp, 32",
            "call {f}",
            "add rsp, 32",
            "mov [r12], rax", "mov [r12 + 8], rcx", "mov [r12 + 16], rdx",
            "mov [r12 + 24], rsi", "mov [r12 + 32], rdi", "mov [r12 + 40], r8",
            "mov [r12 + 48], r9", "mov [r12 + 56], r10", "mov [r12 + 64], r11",
            "cmp r13, 1",
            "jb 2f",
            "je 3f",
            "vmovdqu64 [r12 + 72], zmm0", "vmovdqu64 [r12 + 136], zmm1",
            "vmovdqu64 [r12 + 200], zmm2", "vmovdqu64 [r12 + 264], zmm3",
            "vmovdqu64 [r12 + 328], zmm4", "vmovdqu64 [r12 + 392], zmm5",
            "vmovdqu64 [r12 + 456], zmm6", "vmovdqu64 [r12 + 520], zmm7",
            "vmovdqu64 [r12 + 584], zmm8", "vmovdqu64 [r12 + 648], zmm9",
            "vmovdqu64 [r12 + 712], zmm10", "vmovdqu64 [r12 + 776], zmm11",
            "vmovdqu64 [r12 + 840], zmm12", "vmovdqu64 [r12 + 904], zmm13",
            "vmovdqu64 [r12 + 968], zmm14", "vmovdqu64 [r12 + 1032], zmm15",
            "vmovdqu64 [r12 + 1096], zmm16", "vmovdqu64 [r12 + 1160], zmm17",
            "vmovdqu64 [r12 + 1224], zmm18", "vmovdqu64 [r12 + 1288], zmm19",
            "vmovdqu64 [r12 + 1352], zmm20", "vmovdqu64 [r12 + 1416], zmm21",
            "vmovdqu64 [r12 + 1480], zmm22", "vmovdqu64 [r12 + 1544], zmm23",
            "vmovdqu64 [r12 + 1608], zmm24", "vmovdqu64 [r12 + 1672], zmm25",
            "vmovdqu64 [r12 + 1736], zmm26", "vmovdqu64 [r12 + 1800], zmm27",
            "vmovdqu64 [r12 + 1864], zmm28", "vmovdqu64 [r12 + 1928], zmm29",
            "vmovdqu64 [r12 + 1992], zmm30", "vmovdqu64 [r12 + 2056], zmm31",
            "jmp 4f",
            "3:",
            "vmovdqu [r12 + 72], ymm0", "vmovdqu [r12 + 136], ymm1",
            "vmovdqu [r12 + 200], ymm2", "vmovdqu [r12 + 264], ymm3",
            "vmovdqu [r12 + 328], ymm4", "vmovdqu [r12 + 392], ymm5",
            "vmovdqu [r12 + 456], ymm6", "vmovdqu [r12 + 520], ymm7",
            "vmovdqu [r12 + 584], ymm8", "vmovdqu [r12 + 648], ymm9",
            "vmovdqu [r12 + 712], ymm10", "vmovdqu [r12 + 776], ymm11",
            "vmovdqu [r12 + 840], ymm12", "vmovdqu [r12 + 904], ymm13",
            "vmovdqu [r12 + 968], ymm14", "vmovdqu [r12 + 1032], ymm15",
            "jmp 4f",
            "2:",
            "movdqu [r12 + 72], xmm0", "movdqu [r12 + 136], xmm1",
            "movdqu [r12 + 200], xmm2", "movdqu [r12 + 264], xmm3",
            "movdqu [r12 + 328], xmm4", "movdqu [r12 + 392], xmm5",
            "movdqu [r12 + 456], xmm6", "movdqu [r12 + 520], xmm7",
            "movdqu [r12 + 584], xmm8", "movdqu [r12 + 648], xmm9",
            "movdqu [r12 + 712], xmm10", "movdqu [r12 + 776], xmm11",
            "movdqu [r12 + 840], xmm12", "movdqu [r12 + 904], xmm13",
            "movdqu [r12 + 968], xmm14", "movdqu [r12 + 1032], xmm15",
            "4:",
            f = in(reg) f,
            in("rdi") out.as_mut_ptr(), in("rsi") out.len(),
            in("rcx") out.as_mut_ptr(), in("rdx") out.len(),
            in("r12") &mut *r as *mut Registers,
            in("r13") vector_level(),
            clobber_abi("C"),
        );
    }
    r
}

const GENERAL: [&str; 9] = ["rax", "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11"];

/// Where `regs` hold bytes of `out`: a general register equal to 8 bytes of
/// it (or, for outputs shorter than 16 bytes, whose moves use 4-byte words,
/// a zero-extended 4 bytes of it), a 16-byte lane of a vector register
/// equal to 16 bytes of it (or, for outputs of 4 to 15 bytes, holding 4
/// non-zero bytes of it anywhere). Outputs of 1 to 3 bytes are
/// [`short_output_in_registers`]'s.
fn output_in_registers(regs: &Registers, out: &[u8]) -> Vec<String> {
    let mut found = Vec::new();
    for (name, &v) in GENERAL.iter().zip(&regs.general) {
        let b = v.to_le_bytes();
        let word = v != 0 && out.windows(8).any(|w| w == b);
        let half = out.len() < 16 && v != 0 && v >> 32 == 0 && out.windows(4).any(|w| w == &b[..4]);
        if word || half {
            found.push(format!("{name} = {v:#x}"));
        }
    }
    for (i, lanes) in regs.vector.iter().enumerate() {
        for (lane, l) in lanes.chunks(16).enumerate() {
            let whole = out.windows(16).any(|w| w == l);
            let part = out.len() < 16 && out.windows(4).any(|w| w != [0; 4] && l.windows(4).any(|x| x == w));
            if l.iter().any(|&b| b != 0) && (whole || part) {
                found.push(format!("vector register {i}, bytes {}..{}", lane * 16, lane * 16 + 16));
            }
        }
    }
    found
}

/// For outputs of 1 to 3 bytes, the general registers whose low byte (one
/// byte out) or low 16 bits (two or three out: either of the two 2-byte
/// words a move from each end loads) equal the output's: what a byte or
/// word move through a register would leave. A register holds such a value
/// by chance too (1 in 256 for a pointer's low byte), so
/// [`check_short_fills`] counts matches over many fills: a register the
/// move left matches every time.
fn short_output_in_registers(regs: &Registers, out: &[u8]) -> Vec<String> {
    assert!((1..4).contains(&out.len()));
    let words: Vec<u64> = if out.len() == 1 {
        vec![u64::from(out[0])]
    } else {
        out.windows(2).map(|w| u64::from(u16::from_le_bytes([w[0], w[1]]))).collect()
    };
    let mask = if out.len() == 1 { 0xff } else { 0xffff };
    GENERAL
        .iter()
        .zip(&regs.general)
        .filter(|&(_, &v)| words.contains(&(v & mask)))
        .map(|(name, v)| format!("{name} = {v:#x}"))
        .collect()
}

/// Fills of 1 to 3 bytes, each this many times.
const SHORT_REPEATS: usize = 64;

/// Fills each length from 1 to 3 [`SHORT_REPEATS`] times with `f` and
/// returns, per length, in how many of the fills a register held the output.
fn short_matches(f: extern "C" fn(*mut u8, usize)) -> [usize; 3] {
    let mut out = [0u8; 3];
    let mut matches = [0; 3];
    for len in 1..=3 {
        for _ in 0..SHORT_REPEATS {
            let regs = registers_after(f, &mut out[..len]);
            if !short_output_in_registers(&regs, &out[..len]).is_empty() {
                matches[len - 1] += 1;
            }
        }
    }
    matches
}

/// Checks fills of 1 to 3 bytes: a register may hold their bytes by chance
/// in a few of the fills, not in half of them.
fn check_short_fills() {
    let matches = short_matches(fill);
    assert!(
        matches.iter().all(|&m| m < SHORT_REPEATS / 2),
        "fills of 1, 2 and 3 bytes ({} backend) left their output in a register {matches:?} times in {SHORT_REPEATS}",
        randp::keystream_backend()
    );
}

/// The lengths filled, twice over (the second pass finds the buffer at other
/// offsets, and the longer lengths cross refills and direct writes).
fn lengths() -> impl Iterator<Item = usize> {
    let longer = [383, 500, 511, 512, 513, 1000, 1024, 2047, 2048, 2049, 3000, 4096, 8191, 16384, 65536];
    let once = (1..=300).chain(longer);
    once.clone().chain(once)
}

/// Fills every length and checks the registers after each.
fn check_fills() {
    check_short_fills();
    let mut out = vec![0u8; 65536];
    for len in lengths().filter(|&len| len >= 4) {
        let regs = registers_after(fill, &mut out[..len]);
        let found = output_in_registers(&regs, &out[..len]);
        assert!(
            found.is_empty(),
            "a {len}-byte fill ({} backend) left its output in {found:?}",
            randp::keystream_backend()
        );
    }
}

#[test]
fn fills_leave_no_output_in_registers() {
    if support::skip_under_emulator(
        "fills_leave_no_output_in_registers",
        !randp::uses_userspace_generator(),
        "randp keeps no userspace state here (qemu-user ignores MADV_WIPEONFORK): fills read the OS",
    ) {
        return;
    }
    support::on_each_backend("fills_leave_no_output_in_registers", check_fills);
}

/// The controls: output left in a vector register's upper lane, or in a
/// general register, by the function called is found.
#[test]
fn register_scan_finds_output_left_in_a_register() {
    extern "C" fn leaving_ymm3(p: *mut u8, n: usize) {
        fill(p, n);
        // SAFETY: loads 32 (or 16) of the output's bytes into ymm3 (xmm3),
        // which it declares.
        unsafe {
            if vector_level() >= 1 {
                std::arch::asm!("vmovdqu ymm3, [{p} + 5]", p = in(reg) p, out("xmm3") _, options(nostack, readonly, preserves_flags));
            } else {
                std::arch::asm!("movdqu xmm3, [{p} + 5]", p = in(reg) p, out("xmm3") _, options(nostack, readonly, preserves_flags));
            }
        }
    }
    extern "C" fn leaving_r9(p: *mut u8, n: usize) {
        fill(p, n);
        // SAFETY: loads 8 of the output's bytes into r9, which it declares.
        unsafe {
            std::arch::asm!("mov r9, [{p} + 3]", p = in(reg) p, out("r9") _, options(nostack, readonly, preserves_flags))
        };
    }
    extern "C" fn leaving_half_in_r10(p: *mut u8, n: usize) {
        fill(p, n);
        // SAFETY: loads 4 of the output's bytes into r10d (zero-extended),
        // which it declares.
        unsafe {
            std::arch::asm!("mov r10d, [{p} + 2]", p = in(reg) p, out("r10") _, options(nostack, readonly, preserves_flags))
        };
    }
    extern "C" fn leaving_4_bytes_in_xmm2(p: *mut u8, n: usize) {
        fill(p, n);
        // SAFETY: loads 4 of the output's bytes into xmm2 (zero-extended),
        // which it declares.
        unsafe {
            std::arch::asm!("movd xmm2, [{p} + 1]", p = in(reg) p, out("xmm2") _, options(nostack, readonly, preserves_flags))
        };
    }
    extern "C" fn leaving_low_bits_in_r8(p: *mut u8, n: usize) {
        fill(p, n);
        // SAFETY: loads the output's first byte (one byte out) or first two
        // bytes into r8's low bits, whose upper bits hold a pointer's, and
        // declares r8.
        unsafe {
            if n == 1 {
                std::arch::asm!("mov r8, {p}", "mov r8b, [{p}]", p = in(reg) p, out("r8") _, options(nostack, readonly, preserves_flags))
            } else {
                std::arch::asm!("mov r8, {p}", "mov r8w, [{p}]", p = in(reg) p, out("r8") _, options(nostack, readonly, preserves_flags))
            }
        };
    }
    let mut out = [0u8; 64];
    let regs = registers_after(leaving_ymm3, &mut out);
    let mut expect = vec!["vector register 3, bytes 0..16".to_string()];
    if vector_level() >= 1 {
        expect.push("vector register 3, bytes 16..32".to_string());
    }
    assert_eq!(output_in_registers(&regs, black_box(&out)), expect, "the scan missed output left in a vector register");
    let regs = registers_after(leaving_r9, &mut out);
    let found = output_in_registers(&regs, &out);
    assert!(found.len() == 1 && found[0].starts_with("r9 = "), "the scan missed output left in r9: {found:?}");
    let mut short = [0u8; 9];
    let regs = registers_after(leaving_half_in_r10, &mut short);
    let found = output_in_registers(&regs, &short);
    assert!(found.len() == 1 && found[0].starts_with("r10 = "), "the scan missed 4 bytes left in r10: {found:?}");
    let regs = registers_after(leaving_4_bytes_in_xmm2, &mut short);
    let found = output_in_registers(&regs, &short);
    assert_eq!(found, ["vector register 2, bytes 0..16"], "the scan missed 4 bytes left in xmm2");
    let matches = short_matches(leaving_low_bits_in_r8);
    assert_eq!(matches, [SHORT_REPEATS; 3], "the scan missed 1 to 3 bytes left in r8's low bits");
}
