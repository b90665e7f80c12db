//! The C library as a C program sees it, built for the target under test.
//!
//! - glibc: librandp.so, loaded with dlopen from the release directory
//!   beside the one this test binary was built in (`target/release/` or
//!   `target/<triple>/release/`, whatever profile the tests use; `make
//!   build`, or `cargo build --release -p randp-capi` with the same
//!   `--target`, builds it first).
//! - Windows: randp.dll, loaded with LoadLibrary from the same place (`make
//!   build-windows`).
//! - musl: build/<triple>/librandp.a, the archive a musl C program links,
//!   linked into this test binary: a static musl binary cannot dlopen
//!   (`make test-musl-c` loads librandp.so.0 with dlopen from a dynamic C
//!   program instead). `make test-musl-rust`
//!   builds the archive and links it (`--cfg randp_capi_linked`, with `-L`
//!   naming its directory); a plain `cargo test --target *-musl` has no
//!   archive to link, and `load` says so.

#[cfg(not(target_env = "musl"))]
use std::ffi::CString;
use std::ffi::{c_int, c_void};

type BytesFn = unsafe extern "C" fn(*mut c_void, usize);
type ReadFn = unsafe extern "C" fn(*mut c_void, usize) -> c_int;
type LtU32Fn = extern "C" fn(u32) -> u32;
type LtU64Fn = extern "C" fn(u64) -> u64;

/// The C ABI's functions, from the C library.
pub struct Capi {
    pub randp_bytes: BytesFn,
    pub randp_read: ReadFn,
    pub randp_lt_u32: LtU32Fn,
    pub randp_lt_u64: LtU64Fn,
}

/// `RANDP_ERR_NULL` from include/randp.h.
pub const RANDP_ERR_NULL: c_int = 1;

/// Whether `status` is how the C library ends a process: SIGABRT on Linux;
/// on Windows `__fastfail`'s status, STATUS_STACK_BUFFER_OVERRUN.
pub fn is_abort(status: &std::process::ExitStatus) -> bool {
    #[cfg(unix)]
    return std::os::unix::process::ExitStatusExt::signal(status) == Some(libc::SIGABRT);
    #[cfg(windows)]
    return status.code() == Some(0xC000_0409_u32 as i32);
}

/// The release directory of the target directory this test binary was
/// built in: `target/release` or `target/<triple>/release`, where `make
/// build` and `make build-windows` put the C library.
#[cfg(not(target_env = "musl"))]
fn release_dir() -> std::path::PathBuf {
    let exe = std::env::current_exe().expect("own path");
    let profiles = exe.ancestors().nth(3).expect("target/[<triple>/]<profile>/deps/<test>");
    profiles.join("release")
}

/// Loads target/release/librandp.so (see [`release_dir`]).
#[cfg(all(unix, not(target_env = "musl")))]
pub fn load() -> Capi {
    let path = release_dir().join("librandp.so");
    assert!(path.exists(), "{} is missing: build the C library first (make build)", path.display());
    let cpath = CString::new(path.to_str().unwrap()).unwrap();
    // SAFETY: dlopen of a library path; the library's constructor only
    // creates a pthread key.
    let lib = unsafe { libc::dlopen(cpath.as_ptr(), libc::RTLD_NOW | libc::RTLD_LOCAL) };
    assert!(!lib.is_null(), "dlopen {}", path.display());
    let sym = |name: &str| {
        let c = CString::new(name).unwrap();
        // SAFETY: `lib` is a live handle from dlopen.
        let p = unsafe { libc::dlsym(lib, c.as_ptr()) };
        assert!(!p.is_null(), "{name} missing from librandp.so");
        p
    };
    // SAFETY: each symbol is the function include/randp.h declares with this
    // signature; the library stays loaded (it is never dlclosed, and is NODELETE).
    unsafe {
        Capi {
            randp_bytes: std::mem::transmute::<*mut c_void, BytesFn>(sym("randp_bytes")),
            randp_read: std::mem::transmute::<*mut c_void, ReadFn>(sym("randp_read")),
            randp_lt_u32: std::mem::transmute::<*mut c_void, LtU32Fn>(sym("randp_lt_u32")),
            randp_lt_u64: std::mem::transmute::<*mut c_void, LtU64Fn>(sym("randp_lt_u64")),
        }
    }
}

// The functions of build/<triple>/librandp.a, which exports only `randp_*`
// (its copy of randp's thread-local word and of everything else is local to
// it, so it does not meet this test binary's own randp).
#[cfg(all(target_env = "musl", randp_capi_linked))]
#[link(name = "randp", kind = "static")]
unsafe extern "C" {
    fn randp_bytes(buf: *mut c_void, n: usize);
    fn randp_read(buf: *mut c_void, len: usize) -> c_int;
    safe fn randp_lt_u32(bound: u32) -> u32;
    safe fn randp_lt_u64(bound: u64) -> u64;
}

/// The C library linked into this binary from build/<triple>/librandp.a.
#[cfg(all(target_env = "musl", randp_capi_linked))]
pub fn load() -> Capi {
    Capi { randp_bytes, randp_read, randp_lt_u32, randp_lt_u64 }
}

/// Without the archive linked in there is no C library to call.
#[cfg(all(target_env = "musl", not(randp_capi_linked)))]
pub fn load() -> Capi {
    panic!(
        "on musl the C library is linked from build/<triple>/librandp.a, not loaded with dlopen \
         (a static musl binary cannot dlopen): \
         run these tests with `make test-musl-rust`"
    )
}

/// Loads target/<triple>/release/randp.dll (see [`release_dir`]).
#[cfg(windows)]
pub fn load() -> Capi {
    use windows_sys::Win32::System::LibraryLoader::{GetProcAddress, LoadLibraryA};
    let path = release_dir().join("randp.dll");
    assert!(path.exists(), "{} is missing: build the C library first (make build-windows)", path.display());
    let cpath = CString::new(path.to_str().unwrap()).unwrap();
    // SAFETY: loads a library by path; randp.dll runs no code at load but
    // the C runtime's.
    let lib = unsafe { LoadLibraryA(cpath.as_ptr().cast()) };
    assert!(!lib.is_null(), "LoadLibrary {}", path.display());
    let sym = |name: &str| {
        let c = CString::new(name).unwrap();
        // SAFETY: `lib` is a live module handle.
        let p = unsafe { GetProcAddress(lib, c.as_ptr().cast()) };
        p.unwrap_or_else(|| panic!("{name} missing from randp.dll")) as *mut c_void
    };
    // SAFETY: as for the Linux loader; the DLL pins itself once it maps a state.
    unsafe {
        Capi {
            randp_bytes: std::mem::transmute::<*mut c_void, BytesFn>(sym("randp_bytes")),
            randp_read: std::mem::transmute::<*mut c_void, ReadFn>(sym("randp_read")),
            randp_lt_u32: std::mem::transmute::<*mut c_void, LtU32Fn>(sym("randp_lt_u32")),
            randp_lt_u64: std::mem::transmute::<*mut c_void, LtU64Fn>(sym("randp_lt_u64")),
        }
    }
}
