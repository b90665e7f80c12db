//! randp as a `rand_core` generator: `randp::Randp` is zero-sized and
//! implements `TryRng` and `TryCryptoRng`, so everything written for
//! rand_core's `Rng` (rand's `RngExt` among it) takes it. rand_core is
//! re-exported: no dependency of your own is needed.
use randp::rand_core::Rng;

fn main() {
    let mut rng = randp::Randp;
    let a = rng.next_u64();
    let b = rng.next_u32();
    let mut nonce = [0u8; 12];
    rng.fill_bytes(&mut nonce);
    println!("{a:016x} {b:08x} {}", nonce.len());
}
