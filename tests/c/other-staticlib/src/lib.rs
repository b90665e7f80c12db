//! A stand-in for any other Rust static library a C program might link
//! beside randp: it uses std (allocation, formatting, thread-locals), so its
//! archive carries its own copy of std, compiler_builtins and
//! rust_eh_personality, just as librandp.a does before localization.

use std::cell::Cell;

thread_local! {
    static CALLS: Cell<u64> = const { Cell::new(0) };
}

/// Returns the number of distinct byte values in `buf[..len]` and counts the
/// call in a thread-local.
///
/// # Safety
/// `buf` must be valid for reads of `len` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn other_distinct_bytes(buf: *const u8, len: usize) -> u64 {
    // SAFETY: the caller guarantees `buf` is valid for `len` bytes.
    let bytes = unsafe { std::slice::from_raw_parts(buf, len) };
    let mut seen: Vec<u8> = bytes.to_vec();
    seen.sort_unstable();
    seen.dedup();
    CALLS.with(|c| c.set(c.get() + 1));
    let text = format!("{}", seen.len());
    text.parse().unwrap_or(0)
}

/// Returns how often this thread called `other_distinct_bytes`.
#[unsafe(no_mangle)]
pub extern "C" fn other_calls() -> u64 {
    CALLS.with(Cell::get)
}
