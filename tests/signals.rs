//! A signal handler that draws while the interrupted code is drawing never
//! gets the bytes the interrupted call hands out: the nested call sees the
//! thread's generator in use and reads the OS instead.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::Relaxed};

mod support;

/// Every test starts here: under qemu-user the threads keep userspace states
/// too, so that a nested call meets a generator in use (neither test forks).
fn start() {
    #[cfg(all(feature = "internals", target_os = "linux"))]
    support::keep_state_under_emulator();
}

const HANDLER_SLOTS: usize = 1 << 17;
static HANDLER_OUT: [AtomicU64; HANDLER_SLOTS] = [const { AtomicU64::new(0) }; HANDLER_SLOTS];
static HANDLER_NEXT: AtomicUsize = AtomicUsize::new(0);

extern "C" fn on_signal(_: libc::c_int) {
    let i = HANDLER_NEXT.fetch_add(2, Relaxed);
    if i + 1 >= HANDLER_SLOTS {
        return;
    }
    // Alternate the two paths a handler can take: a fill and word draws.
    let words = if i.is_multiple_of(4) {
        let mut b = [0u8; 16];
        randp::fill_bytes(&mut b);
        [u64::from_ne_bytes(b[..8].try_into().unwrap()), u64::from_ne_bytes(b[8..].try_into().unwrap())]
    } else {
        [randp::u64(), randp::u64()]
    };
    HANDLER_OUT[i].store(words[0], Relaxed);
    HANDLER_OUT[i + 1].store(words[1], Relaxed);
}

#[test]
fn handler_draws_never_repeat_interrupted_draws() {
    start();
    // SAFETY: installs a handler that only touches atomics and randp.
    unsafe {
        let mut sa: libc::sigaction = std::mem::zeroed();
        sa.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as usize;
        sa.sa_flags = libc::SA_RESTART;
        assert_eq!(libc::sigaction(libc::SIGUSR1, &sa, std::ptr::null_mut()), 0);
    }

    // The drawing thread draws in 8-byte multiples, mixing word draws (the
    // inlined fast path) with 4 KiB fills (copy and refill paths), while
    // another thread signals it over and over. Every window of its output is
    // checked against what the handler drew during that window.
    let done = AtomicBool::new(false);
    let drawer_id = AtomicUsize::new(0);
    let (windows, handled) = std::thread::scope(|s| {
        let drawer = s.spawn(|| {
            // Stops the signalling loop however the drawer ends, panics included.
            struct Done<'a>(&'a AtomicBool);
            impl Drop for Done<'_> {
                fn drop(&mut self) {
                    self.0.store(true, Relaxed);
                }
            }
            let _done = Done(&done);
            // The first draw on a thread maps its state, which is not
            // async-signal-safe (the library documents this): make it before
            // any signal can arrive.
            let _ = randp::u64();
            // SAFETY: pthread_self has no preconditions.
            drawer_id.store(unsafe { libc::pthread_self() } as usize, Relaxed);
            let start = std::time::Instant::now();
            let mut window = vec![0u64; 1 << 20];
            let (mut windows, mut seen) = (0, 0);
            while seen / 2 < SIGNALS && start.elapsed() < BUDGET {
                draw_window(&mut window);
                let now = HANDLER_NEXT.load(Relaxed).min(HANDLER_SLOTS) / 2 * 2;
                let mut all = window.clone();
                all.extend(HANDLER_OUT[seen..now].iter().map(|w| w.load(Relaxed)));
                assert_no_repeats(all);
                seen = now;
                windows += 1;
            }
            (windows, seen / 2)
        });
        while drawer_id.load(Relaxed) == 0 {
            std::hint::spin_loop();
        }
        let target = drawer_id.load(Relaxed) as libc::pthread_t;
        let mut pause = 0x9e37_79b9_7f4a_7c15u64;
        while !done.load(Relaxed) {
            // One signal in flight at a time, its handler awaited: a storm
            // sent as fast as the kernel takes it starves the drawer in its
            // handler (a debug build then draws one window in minutes).
            let before = HANDLER_NEXT.load(Relaxed);
            // SAFETY: the drawer is not joined before the scope ends, so
            // `target` names it (or its exited, unjoined thread: ESRCH); its
            // handler is installed.
            unsafe { libc::pthread_kill(target, libc::SIGUSR1) };
            while HANDLER_NEXT.load(Relaxed) == before && !done.load(Relaxed) {
                std::hint::spin_loop();
            }
            // A pause that varies from signal to signal (xorshift, up to
            // some 2,000 spins), so that signals land all over the drawer's
            // loop: word draws, fills, refills.
            pause ^= pause << 13;
            pause ^= pause >> 7;
            pause ^= pause << 17;
            for _ in 0..pause % 2048 {
                std::hint::spin_loop();
            }
        }
        drawer.join().unwrap()
    });
    eprintln!("{handled} signals handled over {windows} windows of 1 Mi words");
    assert!(handled >= SIGNALS / 4, "only {handled} signals were handled in {windows} windows");
}

/// Signals the drawer is sent, one at a time, unless `BUDGET` runs out first.
const SIGNALS: usize = 20_000;
const BUDGET: std::time::Duration = std::time::Duration::from_secs(30);

fn draw_window(out: &mut [u64]) {
    for (n, chunk) in out.chunks_mut(512).enumerate() {
        if n % 2 == 0 {
            for w in chunk.iter_mut() {
                *w = randp::u64();
            }
        } else {
            let mut b = [0u8; 4096];
            randp::fill_bytes(&mut b);
            for (w, c) in chunk.iter_mut().zip(b.chunks_exact(8)) {
                *w = u64::from_ne_bytes(c.try_into().unwrap());
            }
        }
    }
}

fn assert_no_repeats(mut all: Vec<u64>) {
    let n = all.len();
    assert!(all.iter().all(|&w| w != 0), "a zero word was output");
    all.sort_unstable();
    all.dedup();
    assert_eq!(all.len(), n, "{} words were handed out twice", n - all.len());
}

static FIRST_DRAWS: AtomicUsize = AtomicUsize::new(0);

extern "C" fn on_signal_first_draw(_: libc::c_int) {
    if randp::u64() != 0 || randp::u64() != 0 {
        FIRST_DRAWS.fetch_add(1, Relaxed);
    }
}

/// A thread's first draw may come from a signal handler that interrupted
/// `malloc`: arranging the state's release at thread exit must not allocate
/// (a Rust thread-local destructor would, through `__cxa_thread_atexit_impl`,
/// and deadlock on the allocator's lock). Threads that do nothing but
/// allocate are signalled; the handler makes each thread's first draw. A
/// watchdog turns a deadlock into a failure.
#[test]
fn first_draw_from_a_handler_that_interrupted_malloc() {
    start();
    // SAFETY: installs a handler that only touches an atomic and randp.
    unsafe {
        let mut sa: libc::sigaction = std::mem::zeroed();
        sa.sa_sigaction = on_signal_first_draw as extern "C" fn(libc::c_int) as usize;
        sa.sa_flags = libc::SA_RESTART;
        assert_eq!(libc::sigaction(libc::SIGUSR2, &sa, std::ptr::null_mut()), 0);
    }
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for round in 0..40 {
            let stop = std::sync::Arc::new(AtomicBool::new(false));
            let id = std::sync::Arc::new(AtomicUsize::new(0));
            let worker = {
                let (stop, id) = (stop.clone(), id.clone());
                std::thread::spawn(move || {
                    // SAFETY: pthread_self has no preconditions.
                    id.store(unsafe { libc::pthread_self() } as usize, Relaxed);
                    let mut n = 0usize;
                    while !stop.load(Relaxed) {
                        let v: Vec<u8> = Vec::with_capacity(64 + (n % 4096));
                        std::hint::black_box(v);
                        n += 1;
                    }
                })
            };
            while id.load(Relaxed) == 0 {
                std::hint::spin_loop();
            }
            for _ in 0..200 {
                // SAFETY: the worker runs until `stop`; its handler is installed.
                unsafe { libc::pthread_kill(id.load(Relaxed) as libc::pthread_t, libc::SIGUSR2) };
                std::thread::sleep(std::time::Duration::from_micros(50));
            }
            stop.store(true, Relaxed);
            worker.join().unwrap();
            let _ = tx.send(round);
        }
    });
    let mut done = 0;
    while done < 40 {
        match rx.recv_timeout(std::time::Duration::from_secs(60)) {
            Ok(_) => done += 1,
            Err(_) => panic!("a thread hung in its first draw from a signal handler (round {done})"),
        }
    }
    assert!(FIRST_DRAWS.load(Relaxed) >= 40, "every worker drew in its handler");
}
