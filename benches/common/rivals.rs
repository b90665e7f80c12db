//! The Rust generators a Rust programmer picks instead of randp, built the
//! way the benches use them.

use rand::SeedableRng;
use rand::rngs::StdRng;

/// rand's `StdRng` (ChaCha12) seeded once from the OS: the bare generator,
/// without the reseeding wrapper and thread-local handle of `ThreadRng`.
pub fn std_rng() -> StdRng {
    let mut seed = <StdRng as SeedableRng>::Seed::default();
    getrandom::fill(&mut seed).expect("OS entropy");
    StdRng::from_seed(seed)
}
