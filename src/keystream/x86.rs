//! What the x86_64 kernels share: CPU feature detection, constants, and the
//! AES-256 key expansion (AES-NI's aeskeygenassist), done in place in the
//! thread's state.

use super::Schedule;
use core::arch::asm;

cpufeatures::new!(cpu_aesni, "aes", "ssse3");
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
}

pub(super) static CONSTS: Consts = Consts {
    counters: [0, 0, 1, 0, 2, 0, 3, 0],
    bswap: [15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
    one: [1, 0],
    two: [2, 0],
    four: [4, 0],
};

/// Byte offsets into [`Consts`] for the assembly.
pub(super) const C_COUNTERS: usize = 0;
pub(super) const C_BSWAP: usize = 64;
pub(super) const C_ONE: usize = 80;
pub(super) const C_TWO: usize = 96;
pub(super) const C_FOUR: usize = 112;

const _: () = {
    assert!(core::mem::offset_of!(Consts, bswap) == C_BSWAP);
    assert!(core::mem::offset_of!(Consts, one) == C_ONE);
    assert!(core::mem::offset_of!(Consts, two) == C_TWO);
    assert!(core::mem::offset_of!(Consts, four) == C_FOUR);
};

/// One AES-256 key-expansion step: round keys `2i` and (below 7) `2i + 1`
/// from the two before them, xmm1 holding round key `2i - 2` and xmm3 round
/// key `2i - 1`. Intel's AES-NI white paper, figure 28.
#[rustfmt::skip] // one assembly line per source line
macro_rules! expand_step {
    ($rcon:literal, $even:literal) => {
        concat!(
            "aeskeygenassist xmm2, xmm3, ", $rcon, "\n",
            "pshufd xmm2, xmm2, 0xff\n",
            "movdqa xmm4, xmm1\n",
            "pslldq xmm4, 4\n",
            "pxor xmm1, xmm4\n",
            "pslldq xmm4, 4\n",
            "pxor xmm1, xmm4\n",
            "pslldq xmm4, 4\n",
            "pxor xmm1, xmm4\n",
            "pxor xmm1, xmm2\n",
            "movdqu xmmword ptr [{ks} + ", $even, "], xmm1\n",
        )
    };
    ($rcon:literal, $even:literal, $odd:literal) => {
        concat!(
            expand_step!($rcon, $even),
            "aeskeygenassist xmm2, xmm1, 0\n",
            "pshufd xmm2, xmm2, 0xaa\n",
            "movdqa xmm4, xmm3\n",
            "pslldq xmm4, 4\n",
            "pxor xmm3, xmm4\n",
            "pslldq xmm4, 4\n",
            "pxor xmm3, xmm4\n",
            "pslldq xmm4, 4\n",
            "pxor xmm3, xmm4\n",
            "pxor xmm3, xmm2\n",
            "movdqu xmmword ptr [{ks} + ", $odd, "], xmm3\n",
        )
    };
}

/// XORs the 32 bytes at `seed` (unless it is null) into the key held in
/// round keys 0 and 1 of `ks`, then expands it over round keys 2 to 14.
///
/// # Safety
/// `ks` is valid for reads and writes; `seed` is null or valid for reads of
/// 32 bytes; the CPU has AES-NI.
#[target_feature(enable = "aes,sse2")]
#[rustfmt::skip] // one assembly line per source line
pub(super) unsafe fn expand(ks: *mut Schedule, seed: *const [u8; 32]) {
    // SAFETY: the caller guarantees the pointers and AES-NI. The block reads
    // and writes only `ks` and `seed`, uses no stack, and zeroes the vector
    // registers it used before it ends.
    unsafe {
        asm!(
            "movdqu xmm1, xmmword ptr [{ks}]",
            "movdqu xmm3, xmmword ptr [{ks} + 16]",
            "test {seed}, {seed}",
            "jz 2f",
            "movdqu xmm4, xmmword ptr [{seed}]",
            "pxor xmm1, xmm4",
            "movdqu xmm4, xmmword ptr [{seed} + 16]",
            "pxor xmm3, xmm4",
            "movdqu xmmword ptr [{ks}], xmm1",
            "movdqu xmmword ptr [{ks} + 16], xmm3",
            "2:",
            expand_step!("0x01", "32", "48"),
            expand_step!("0x02", "64", "80"),
            expand_step!("0x04", "96", "112"),
            expand_step!("0x08", "128", "144"),
            expand_step!("0x10", "160", "176"),
            expand_step!("0x20", "192", "208"),
            expand_step!("0x40", "224"),
            "pxor xmm1, xmm1",
            "pxor xmm2, xmm2",
            "pxor xmm3, xmm3",
            "pxor xmm4, xmm4",
            ks = in(reg) ks,
            seed = in(reg) seed,
            out("xmm1") _, out("xmm2") _, out("xmm3") _, out("xmm4") _,
            options(nostack),
        );
    }
}
