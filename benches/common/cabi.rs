//! randp's C ABI as a C program sees it: the `extern "C"` symbols of the
//! library, called through function pointers hidden behind `black_box` so
//! the optimiser cannot inline them and every call is a real call.

use std::ffi::c_void;
use std::hint::black_box;

unsafe extern "C" {
    fn randp_bytes(buf: *mut c_void, n: usize);
    fn randp_u32() -> u32;
    fn randp_u64() -> u64;
    fn randp_lt_u32(upper_bound: u32) -> u32;
}

/// Function pointers to the C ABI, opaque to the optimiser.
#[derive(Clone, Copy)]
pub struct CAbi {
    bytes: unsafe extern "C" fn(*mut c_void, usize),
    u32: unsafe extern "C" fn() -> u32,
    u64: unsafe extern "C" fn() -> u64,
    lt_u32: unsafe extern "C" fn(u32) -> u32,
}

impl CAbi {
    /// Takes the addresses of the exported functions.
    pub fn new() -> Self {
        // Linking the crate in: the C symbols live in randp's rlib.
        let _ = black_box(randp::u8 as fn() -> u8);
        black_box(CAbi {
            bytes: randp_bytes,
            u32: randp_u32,
            u64: randp_u64,
            lt_u32: randp_lt_u32,
        })
    }

    /// `randp_bytes(dst, dst.len())`
    pub fn bytes(&self, dst: &mut [u8]) {
        // SAFETY: dst is valid for writes of dst.len() bytes.
        unsafe { (self.bytes)(dst.as_mut_ptr().cast(), dst.len()) }
    }

    /// `randp_u32()`
    pub fn u32(&self) -> u32 {
        // SAFETY: randp_u32 takes no arguments and has no preconditions.
        unsafe { (self.u32)() }
    }

    /// `randp_u64()`
    pub fn u64(&self) -> u64 {
        // SAFETY: randp_u64 takes no arguments and has no preconditions.
        unsafe { (self.u64)() }
    }

    /// `randp_lt_u32(upper_bound)`
    pub fn lt_u32(&self, upper_bound: u32) -> u32 {
        // SAFETY: randp_lt_u32 accepts every u32 value.
        unsafe { (self.lt_u32)(upper_bound) }
    }
}
