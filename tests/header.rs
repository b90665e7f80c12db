//! The committed include/randp.h is exactly what cbindgen generates from the
//! current source. `make header` (RANDP_BLESS=1) rewrites it.

#[test]
fn committed_header_is_current() {
    let generated = include_str!(concat!(env!("OUT_DIR"), "/randp.h"));
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/include/randp.h");
    if std::env::var_os("RANDP_BLESS").is_some() {
        std::fs::write(path, generated).expect("write include/randp.h");
    }
    let committed = std::fs::read_to_string(path).expect("read include/randp.h");
    assert!(committed == generated, "include/randp.h is stale: run `make header` and commit it");
}
