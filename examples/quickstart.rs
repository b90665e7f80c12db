//! The quick start: `cargo run --example quickstart`.
fn main() {
    let mut key = [0u8; 32];
    randp::fill_bytes(&mut key); // any length; never fails
    let x = randp::u64(); // also u8(), u16(), u32()
    let die = randp::lt_u32(6) + 1; // uniform in 1..=6, no modulo bias
    println!("{x:016x} {die} {}", key.len());
}
