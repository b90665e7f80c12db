//! Threads never share output: each has its own generator, seeded on its own,
//! in a state page of its own.

mod support;
use support::{assert_unique, blocks};

/// Every test starts here: under qemu-user the threads keep userspace states
/// too (none of these tests forks).
fn start() {
    #[cfg(all(feature = "internals", target_os = "linux"))]
    support::keep_state_under_emulator();
}

#[test]
fn eight_threads_draw_distinct_mebibytes() {
    start();
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
    start();
    let words: Vec<u64> = std::thread::scope(|s| {
        let hs: Vec<_> = (0..8).map(|_| s.spawn(|| (0..10_000).map(|_| randp::u64()).collect::<Vec<_>>())).collect();
        hs.into_iter().flat_map(|h| h.join().unwrap()).collect()
    });
    let mut sorted = words.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(sorted.len(), words.len());
}

/// Eight threads alive at once each draw from a state page of their own:
/// distinct output alone would not show it, as threads taking turns on one
/// shared state would rarely repeat a block.
#[cfg(feature = "internals")]
#[test]
fn live_threads_have_distinct_states() {
    start();
    if !randp::uses_userspace_generator() {
        eprintln!("live_threads_have_distinct_states: no userspace state here (the kernel's advice is not honoured)");
        return;
    }
    let all_drew = std::sync::Barrier::new(8);
    let addresses: Vec<usize> = std::thread::scope(|s| {
        let hs: Vec<_> = (0..8)
            .map(|_| {
                s.spawn(|| {
                    let _ = randp::u64();
                    let at = randp::internals::thread_state_address().expect("a thread that drew has a state");
                    all_drew.wait(); // no thread exits, and so frees its state, before all have drawn
                    at
                })
            })
            .collect();
        hs.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let mut distinct = addresses.clone();
    distinct.sort_unstable();
    distinct.dedup();
    assert_eq!(distinct.len(), 8, "eight live threads share states: {addresses:x?}");
}
