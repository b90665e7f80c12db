//! No register and no dead stack below the caller holds any byte of what a
//! move out of the buffer handed out once [`super::super::move_out`] returns:
//! the registers a callee may change (x0 to x17, all of v0 to v31) and the
//! 4 KiB below the stack pointer are read right after the call, for every
//! length from 0 to 300 and longer ones, from random bytes (release and
//! debug builds: `make test-aarch64` runs both). Here rather than in `tests/`
//! because under qemu-user randp keeps no userspace state (fills read the OS
//! there) and the library's own tests are what runs on aarch64.

use super::super::move_out;
use std::boxed::Box;
use std::collections::HashSet;
use std::format;
use std::string::String;
use std::vec;
use std::vec::Vec;

/// How much dead stack below the caller [`registers_after`] copies.
const DEAD_STACK: usize = 4096;

/// The registers a move may have changed, as found after it returned, and
/// the stack below the caller's stack pointer.
#[repr(C)]
struct Registers {
    /// x0 to x17.
    general: [u64; 18],
    /// v0 to v31.
    vector: [[u8; 16]; 32],
    /// The [`DEAD_STACK`] bytes below the stack pointer, lowest first.
    stack: [u8; DEAD_STACK],
}

/// A caller of `move_out`, which is inlined into it as into the draws, with
/// the C calling convention so that the assembly below can call it.
extern "C" fn mv(src: *mut u8, dst: *mut u8, n: usize) {
    // SAFETY: `registers_after` passes two live, disjoint buffers of `n`
    // bytes.
    unsafe { move_out(src, dst, n) }
}

/// Calls `f(src, dst, n)` and stores every register it may have changed,
/// with nothing in between, and then the dead stack its call left below the
/// stack pointer.
#[inline(never)]
fn registers_after(f: extern "C" fn(*mut u8, *mut u8, usize), src: &mut [u8], dst: &mut [u8]) -> Box<Registers> {
    assert_eq!(src.len(), dst.len());
    let mut r = Box::new(Registers { general: [0; 18], vector: [[0; 16]; 32], stack: [0; DEAD_STACK] });
    // SAFETY: calls `f` with two valid, disjoint slices of the same length;
    // stores 18 words and 32 vectors into `r` through x20, which `f`
    // preserves (callee-saved), then copies the DEAD_STACK bytes below sp
    // (mapped: the test thread's stack, of megabytes, is mapped whole) to
    // `r.stack`. Every register the call may change is declared clobbered.
    unsafe {
        core::arch::asm!(
            "blr {f}",
            "stp x0, x1, [x20]", "stp x2, x3, [x20, #16]", "stp x4, x5, [x20, #32]",
            "stp x6, x7, [x20, #48]", "stp x8, x9, [x20, #64]", "stp x10, x11, [x20, #80]",
            "stp x12, x13, [x20, #96]", "stp x14, x15, [x20, #112]", "stp x16, x17, [x20, #128]",
            "stp q0, q1, [x20, #144]", "stp q2, q3, [x20, #176]", "stp q4, q5, [x20, #208]",
            "stp q6, q7, [x20, #240]", "stp q8, q9, [x20, #272]", "stp q10, q11, [x20, #304]",
            "stp q12, q13, [x20, #336]", "stp q14, q15, [x20, #368]", "stp q16, q17, [x20, #400]",
            "stp q18, q19, [x20, #432]", "stp q20, q21, [x20, #464]", "stp q22, q23, [x20, #496]",
            "stp q24, q25, [x20, #528]", "stp q26, q27, [x20, #560]", "stp q28, q29, [x20, #592]",
            "stp q30, q31, [x20, #624]",
            "add x9, x20, #656",
            "mov x10, sp",
            "sub x11, x10, #{dead}",
            "2:",
            "ldp x12, x13, [x11], #16",
            "stp x12, x13, [x9], #16",
            "cmp x11, x10",
            "b.lo 2b",
            f = in(reg) f,
            dead = const DEAD_STACK,
            in("x0") src.as_mut_ptr(), in("x1") dst.as_mut_ptr(), in("x2") src.len(),
            in("x20") &mut *r as *mut Registers,
            clobber_abi("C"),
        );
    }
    r
}

/// Where `regs` hold bytes of `out`: a general register equal to 8 bytes of
/// it (or, for outputs shorter than 16 bytes, whose moves use 4-byte words,
/// a zero-extended 4 bytes of it), a vector register equal to 16 bytes of
/// it, 16 bytes of it anywhere in the dead stack.
fn output_in_registers(regs: &Registers, out: &[u8]) -> Vec<String> {
    let mut found = Vec::new();
    for (i, &v) in regs.general.iter().enumerate() {
        let b = v.to_le_bytes();
        let word = v != 0 && out.windows(8).any(|w| w == b);
        let half = out.len() < 16 && v != 0 && v >> 32 == 0 && out.windows(4).any(|w| w == &b[..4]);
        if word || half {
            found.push(format!("x{i} = {v:#x}"));
        }
    }
    for (i, v) in regs.vector.iter().enumerate() {
        if v.iter().any(|&b| b != 0) && out.windows(16).any(|w| w == v) {
            found.push(format!("v{i}"));
        }
    }
    let windows: HashSet<&[u8]> = out.windows(16).collect();
    if let Some(at) = regs.stack.windows(16).position(|s| windows.contains(s)) {
        found.push(format!("the stack, {} bytes below sp", DEAD_STACK - at));
    }
    found
}

#[test]
fn moves_leave_no_output_in_registers_or_dead_stack() {
    let longer = [383, 500, 511, 512, 513, 1000, 1024, 2047, 2048, 2049, 3000, 3584];
    for n in (0..=300).chain(longer) {
        for off in [0, 5] {
            let mut src = vec![0u8; n + off];
            let mut dst = vec![0u8; n];
            crate::entropy::os_fill(&mut src);
            let regs = registers_after(mv, &mut src[off..], &mut dst);
            assert!(src[off..].iter().all(|&b| b == 0), "a {n}-byte move left bytes behind");
            let found = output_in_registers(&regs, &dst);
            assert!(found.is_empty(), "a {n}-byte move (source offset {off}) left its output in {found:?}");
        }
    }
}

/// The controls: output left in a vector register, in a general register,
/// 4 bytes of it in a general register's low half, or 16 bytes of it in a
/// dead frame, is found.
#[test]
fn scan_finds_output_left_in_a_register_or_a_frame() {
    extern "C" fn leaving_v3(src: *mut u8, dst: *mut u8, n: usize) {
        mv(src, dst, n);
        // SAFETY: loads 16 of the output's bytes into v3, which it declares.
        unsafe { core::arch::asm!("ldr q3, [{p}, #5]", p = in(reg) dst, out("v3") _, options(nostack, readonly)) };
    }
    extern "C" fn leaving_x9(src: *mut u8, dst: *mut u8, n: usize) {
        mv(src, dst, n);
        // SAFETY: loads 8 of the output's bytes into x9, which it declares.
        unsafe { core::arch::asm!("ldur x9, [{p}, #3]", p = in(reg) dst, out("x9") _, options(nostack, readonly)) };
    }
    extern "C" fn leaving_half_in_w10(src: *mut u8, dst: *mut u8, n: usize) {
        mv(src, dst, n);
        // SAFETY: loads 4 of the output's bytes into w10 (zero-extended),
        // which it declares.
        unsafe { core::arch::asm!("ldur w10, [{p}, #2]", p = in(reg) dst, out("x10") _, options(nostack, readonly)) };
    }
    extern "C" fn leaving_a_frame(src: *mut u8, dst: *mut u8, n: usize) {
        mv(src, dst, n);
        let mut copy = [0u8; 32];
        // SAFETY: `dst` holds `n >= 32` bytes.
        unsafe { core::ptr::copy_nonoverlapping(dst, copy.as_mut_ptr(), 32) };
        core::hint::black_box(&mut copy);
    }
    let run = |f: extern "C" fn(*mut u8, *mut u8, usize), n: usize| {
        let mut src = vec![0u8; n];
        let mut dst = vec![0u8; n];
        crate::entropy::os_fill(&mut src);
        let regs = registers_after(f, &mut src, &mut dst);
        output_in_registers(&regs, &dst)
    };
    assert_eq!(run(leaving_v3, 64), ["v3"], "the scan missed output left in a vector register");
    let found = run(leaving_x9, 64);
    assert!(found.len() == 1 && found[0].starts_with("x9 = "), "the scan missed output left in x9: {found:?}");
    let found = run(leaving_a_frame, 64);
    assert!(found.iter().any(|f| f.starts_with("the stack")), "the scan missed output left in a dead frame: {found:?}");
    let found = run(leaving_half_in_w10, 9);
    assert!(found.len() == 1 && found[0].starts_with("x10 = "), "the scan missed 4 bytes left in w10: {found:?}");
}
