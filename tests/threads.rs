//! Threads never share output: each has its own generator, seeded on its own.

mod support;
use support::{assert_unique, blocks};

#[test]
fn eight_threads_draw_distinct_mebibytes() {
    let outputs: Vec<Vec<u8>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..8)
            .map(|t| {
                s.spawn(move || {
                    let mut out = vec![0u8; 1 << 20];
                    // Mixed call sizes, so buffers are shared out unevenly.
                    let step = [16, 4096, 1 << 20][t % 3];
                    for chunk in out.chunks_mut(step) {
                        randp::fill_bytes(chunk);
                    }
                    out
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert_unique(outputs.iter().flat_map(|o| blocks(o)).collect(), "8 threads");
}

#[test]
fn u64_draws_differ_across_threads() {
    let words: Vec<u64> = std::thread::scope(|s| {
        let hs: Vec<_> = (0..8).map(|_| s.spawn(|| (0..10_000).map(|_| randp::u64()).collect::<Vec<_>>())).collect();
        hs.into_iter().flat_map(|h| h.join().unwrap()).collect()
    });
    let mut sorted = words.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(sorted.len(), words.len());
}
