//! A limit on how long a child process may run: past it the child is
//! killed with SIGKILL, and the test that started it fails.

use std::sync::atomic::{AtomicBool, Ordering::SeqCst};
use std::sync::{Arc, mpsc};
use std::time::Duration;

/// How long a child may run before it is killed.
pub const LIMIT: Duration = Duration::from_secs(60);

/// Kills child `pid` with SIGKILL if it is not finished within [`LIMIT`].
pub struct Watchdog {
    done: Option<mpsc::Sender<()>>,
    fired: Arc<AtomicBool>,
}

impl Watchdog {
    /// Starts watching `pid`, a child of this process not yet reaped.
    pub fn start(pid: libc::pid_t) -> Watchdog {
        let (done, wait) = mpsc::channel::<()>();
        let fired = Arc::new(AtomicBool::new(false));
        let f = fired.clone();
        std::thread::spawn(move || {
            if wait.recv_timeout(LIMIT) == Err(mpsc::RecvTimeoutError::Timeout) {
                f.store(true, SeqCst);
                eprintln!("child {pid} ran for more than {LIMIT:?}: killed");
                // SAFETY: a signal to our own child, not yet reaped (the
                // watchdog is finished or dropped before the reaping).
                unsafe { libc::kill(pid, libc::SIGKILL) };
            }
        });
        Watchdog { done: Some(done), fired }
    }

    /// Panics if the watchdog killed the child.
    pub fn check(&self, what: &str) {
        assert!(!self.fired.load(SeqCst), "{what}: the child ran for more than {LIMIT:?} and was killed");
    }

    /// Stops the watchdog and panics if it killed the child: call it once
    /// the child has ended, before it is reaped.
    pub fn finish(mut self, what: &str) {
        self.done.take();
        self.check(what);
    }
}
