//! Links librandp.so as librandp.so.0 that survives dlclose, and with the
//! feature `header` generates the C header with cbindgen into OUT_DIR;
//! `make header` copies it to include/randp.h, and a test fails while the
//! committed copy is stale.

fn main() {
    println!("cargo:rerun-if-changed=src/lib.rs");
    println!("cargo:rerun-if-changed=cbindgen.toml");
    link_args();
    #[cfg(feature = "header")]
    header();
}

/// The shared library's link arguments.
fn link_args() {
    // The shared library's name for the dynamic linker (librandp.so.0, like
    // planet36/randp's), and NODELETE: dlclose must not unmap it while exiting
    // threads may still run its pthread key destructor.
    // (On Windows the DLL is randp.dll, with the import library
    // librandp.dll.a, and pins itself when it maps its first state.)
    let linux = std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux");
    if linux {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,librandp.so.0");
        println!("cargo:rustc-cdylib-link-arg=-Wl,-z,nodelete");
    }
    // The library is no_std and built with panic=abort, so nothing in it
    // unwinds, but the precompiled `core` names Rust's personality routine in
    // its unwind tables, which a build without LTO keeps. Resolve the name
    // inside the library (it is never called; rustc's version script keeps
    // it local). scripts/localize-staticlib.sh does the same for the archive.
    println!("cargo:rustc-cdylib-link-arg=-Wl,--defsym=rust_eh_personality=0");
    // The libc crate names musl's libc only for std's build, so a no_std
    // shared library for musl would not record that it needs libc.so
    // (musl's loader finds the symbols anyway, being libc itself; a
    // `-Wl,--no-undefined` link or ldd would not). Name it.
    if std::env::var("CARGO_CFG_TARGET_ENV").as_deref() == Ok("musl") {
        println!("cargo:rustc-cdylib-link-arg=-lc");
    }
}

/// Writes the header cbindgen generates from src/lib.rs to OUT_DIR/randp.h.
#[cfg(feature = "header")]
fn header() {
    let crate_dir = std::env::var("CARGO_MANIFEST_DIR").expect("set by cargo");
    let out_dir = std::env::var("OUT_DIR").expect("set by cargo");
    let config = cbindgen::Config::from_file(format!("{crate_dir}/cbindgen.toml")).expect("cbindgen.toml");
    cbindgen::Builder::new()
        .with_crate(&crate_dir)
        .with_config(config)
        .generate()
        .expect("cbindgen could not generate the header")
        .write_to_file(format!("{out_dir}/randp.h"));
}
