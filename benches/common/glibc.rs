//! glibc's arc4random family (glibc 2.36+), looked up at run time with `dlsym`.
//!
//! The `libc` crate does not declare these for Linux/glibc, and a plain
//! `extern "C"` declaration would fail to link on glibc < 2.36. Resolving the
//! symbols at run time lets those benches be skipped with a note instead, and
//! every call is a real call through a function pointer, as from C.

use std::ffi::{CStr, c_void};

/// `void arc4random_buf(void *buf, size_t n)`
type Arc4randomBuf = unsafe extern "C" fn(*mut c_void, usize);
/// `uint32_t arc4random(void)`
type Arc4random = unsafe extern "C" fn() -> u32;
/// `uint32_t arc4random_uniform(uint32_t upper_bound)`
type Arc4randomUniform = unsafe extern "C" fn(u32) -> u32;

/// The three glibc entry points, resolved from the running process.
#[derive(Clone, Copy)]
pub struct Arc4 {
    buf: Arc4randomBuf,
    word: Arc4random,
    uniform: Arc4randomUniform,
}

fn lookup(name: &CStr) -> Option<*mut c_void> {
    // SAFETY: `name` is a NUL-terminated string and RTLD_DEFAULT searches the
    // objects already loaded into the process; dlsym has no other precondition.
    let sym = unsafe { libc::dlsym(libc::RTLD_DEFAULT, name.as_ptr()) };
    (!sym.is_null()).then_some(sym)
}

impl Arc4 {
    /// Resolves the family, or prints why the arc4random rows are skipped.
    pub fn load() -> Option<Self> {
        let found = (|| {
            let buf = lookup(c"arc4random_buf")?;
            let word = lookup(c"arc4random")?;
            let uniform = lookup(c"arc4random_uniform")?;
            // SAFETY: glibc defines these symbols with exactly the C prototypes
            // named by the three type aliases above.
            Some(unsafe {
                Arc4 {
                    buf: std::mem::transmute::<*mut c_void, Arc4randomBuf>(buf),
                    word: std::mem::transmute::<*mut c_void, Arc4random>(word),
                    uniform: std::mem::transmute::<*mut c_void, Arc4randomUniform>(uniform),
                }
            })
        })();
        if found.is_none() {
            eprintln!("note: this libc has no arc4random family (glibc >= 2.36 needed); arc4random rows skipped");
        }
        found
    }

    /// `arc4random_buf(dst, dst.len())`
    pub fn fill(&self, dst: &mut [u8]) {
        // SAFETY: dst is valid for writes of dst.len() bytes for the whole call.
        unsafe { (self.buf)(dst.as_mut_ptr().cast(), dst.len()) }
    }

    /// `arc4random()`
    pub fn u32(&self) -> u32 {
        // SAFETY: arc4random takes no arguments and has no preconditions.
        unsafe { (self.word)() }
    }

    /// `arc4random_uniform(upper_bound)`
    pub fn uniform(&self, upper_bound: u32) -> u32 {
        // SAFETY: arc4random_uniform accepts every u32 value.
        unsafe { (self.uniform)(upper_bound) }
    }
}

/// `getentropy(dst)`: at most 256 bytes per call, as the OS interface demands.
pub fn getentropy(dst: &mut [u8]) {
    assert!(dst.len() <= 256, "getentropy takes at most 256 bytes");
    // SAFETY: dst is valid for writes of dst.len() <= 256 bytes.
    let rc = unsafe { libc::getentropy(dst.as_mut_ptr().cast(), dst.len()) };
    assert_eq!(rc, 0, "getentropy failed");
}
