//! A file that stands for the VMClock device's page (`struct vmclock_abi`,
//! Linux's `vmclock-abi.h`), for the tests that model a restored VM
//! snapshot with a VM generation counter (`internals::set_vm_clock_path`):
//! written, and bumped as a VMM bumps it before a restored guest runs.

use std::os::unix::fs::FileExt;
use std::path::Path;

/// `VMCLOCK_MAGIC` ("VCLK"), `VMCLOCK_FLAG_VM_GEN_COUNTER_PRESENT`, and
/// the offsets of `struct vmclock_abi`'s fields that randp reads.
pub const MAGIC: u32 = 0x4b4c_4356;
pub const GEN_PRESENT: u64 = 1 << 8;
pub const SEQ_COUNT: usize = 12;
pub const GENERATION: usize = 104;

/// A VMClock page: magic, size, version, sequence count, flags (and the
/// clock fields zero), counter.
pub fn page(magic: u32, size: u32, version: u16, seq: u32, flags: u64, generation: u64) -> Vec<u8> {
    let mut b = vec![0u8; 4096];
    b[0..4].copy_from_slice(&magic.to_le_bytes());
    b[4..8].copy_from_slice(&size.to_le_bytes());
    b[8..10].copy_from_slice(&version.to_le_bytes());
    b[SEQ_COUNT..][..4].copy_from_slice(&seq.to_le_bytes());
    b[24..32].copy_from_slice(&flags.to_le_bytes());
    b[GENERATION..][..8].copy_from_slice(&generation.to_le_bytes());
    b
}

/// A valid page with the counter present, at `generation`.
pub fn valid_page(generation: u64) -> Vec<u8> {
    page(MAGIC, 112, 1, 2, GEN_PRESENT, generation)
}

/// Bumps the counter in the page at `path` as a VMM does: the sequence
/// count odd while it writes, then even again.
pub fn bump_generation(path: &Path) {
    let f = std::fs::OpenOptions::new().read(true).write(true).open(path).unwrap();
    let mut word = [0u8; 8];
    f.read_exact_at(&mut word[..4], SEQ_COUNT as u64).unwrap();
    let seq = u32::from_le_bytes(word[..4].try_into().unwrap());
    f.write_all_at(&(seq + 1).to_le_bytes(), SEQ_COUNT as u64).unwrap();
    f.read_exact_at(&mut word, GENERATION as u64).unwrap();
    let generation = u64::from_le_bytes(word) + 1;
    f.write_all_at(&generation.to_le_bytes(), GENERATION as u64).unwrap();
    f.write_all_at(&(seq + 2).to_le_bytes(), SEQ_COUNT as u64).unwrap();
}
