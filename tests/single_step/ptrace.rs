//! The tracer's side: start a tracee (this test binary again, or the build
//! of it that [`TRACEE_EXE`] names, under PTRACE_TRACEME), run it to the
//! call under test, single-step it, step over the keystream kernels, and
//! let it go with a signal.

use std::io::Read;
use std::os::unix::process::CommandExt;
use std::os::unix::process::ExitStatusExt;
use std::path::PathBuf;
use std::process::{Child, ChildStdout, Command, Stdio};
use std::sync::OnceLock;

use super::protocol::{Action, BUILD_ROLE, HEADER, HEADER_WORDS, Path, REPORT, ROLE, vm_clock_path};
use super::support::watchdog::Watchdog;

/// The variable naming the tracee binary: another build of this test (the
/// debug one, traced by the release one in `make test-rust-debug`: a debug
/// tracer's own checks add a fifth to the run). Unset, this binary traces
/// itself.
pub const TRACEE_EXE: &str = "RANDP_SINGLE_STEP_TRACEE_EXE";

/// The tracee binary (see [`TRACEE_EXE`]).
pub fn tracee_exe() -> PathBuf {
    std::env::var_os(TRACEE_EXE).map_or_else(|| std::env::current_exe().unwrap(), PathBuf::from)
}

/// Whether the tracee binary is a debug build, as it says when asked (its
/// [`ROLE`] set to [`BUILD_ROLE`]); every header it sends later must say
/// the same. The binary is asked once per process.
pub fn tracee_debug() -> bool {
    static DEBUG: OnceLock<bool> = OnceLock::new();
    *DEBUG.get_or_init(|| {
        let exe = tracee_exe();
        let out = Command::new(&exe).env(ROLE, BUILD_ROLE).output().expect("run the tracee binary");
        match (out.status.success(), &out.stdout[..]) {
            (true, b"debug\n") => true,
            (true, b"release\n") => false,
            _ => panic!(
                "{} is not a build of this test: asked its build, it said {:?} ({})",
                exe.display(),
                String::from_utf8_lossy(&out.stdout),
                out.status
            ),
        }
    })
}

/// The tracee's GLIBC_TUNABLES: any the tracer was given, and memset's
/// `rep stosb` threshold above any size the tracee zeroes. From 2 KiB up,
/// glibc's memset stores with `rep stosb` where the CPU has ERMS, and each
/// byte of it is a step: the 16 KiB wipe of a dropped state was some 16,000
/// steps, which every recording and every case aimed past it stepped
/// through (700,000 single steps on the refill and tail paths, against
/// 30,000 now; a third of the release run's time). With
/// the threshold up, memset stores 32 bytes an instruction (a step per 128
/// bytes); randp's own instructions, and what it does at each step, do not
/// change. (musl's memset stores 8 bytes a step and reads no tunables.)
#[cfg(target_env = "gnu")]
fn glibc_tunables() -> String {
    const NO_REP_STOSB: &str = "glibc.cpu.x86_rep_stosb_threshold=0x1000000000";
    match std::env::var("GLIBC_TUNABLES") {
        Ok(given) if !given.is_empty() => format!("{given}:{NO_REP_STOSB}"),
        _ => NO_REP_STOSB.to_string(),
    }
}

/// A stopped tracee and the call it is in.
pub struct Tracee {
    pub pid: libc::pid_t,
    child: Child,
    stdout: ChildStdout,
    /// The kernels' entry addresses.
    kernels: Vec<u64>,
    /// The entries of the calls run as one step: the stack-bounds lookup,
    /// the wipe of the stack below a keystream call, and the vDSO's
    /// getrandom where there is one.
    whole: Vec<u64>,
    /// SIGUSR2's handler, and where handlers return to.
    probe: u64,
    restorer: u64,
    /// Where the call under test returns to, and the stack pointer then.
    ret: u64,
    rsp_after: u64,
    /// The call's first argument (the destination of a fill).
    pub arg: u64,
    /// Dropped once the tracee has ended, before it is reaped: until then
    /// it kills a tracee that runs too long, which fails its case (a tracee
    /// that ends while traced fails the tracer's wait, or its outcome).
    watchdog: Option<Watchdog>,
}

/// What one step did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// One instruction.
    Instruction,
    /// A whole keystream kernel, from its entry to its return address.
    Kernel,
    /// Nothing: the call under test has returned.
    Returned,
}

/// ptrace's request type: unsigned in glibc's declaration, signed in musl's
/// (as the libc crate declares the function and the PTRACE_* constants).
#[cfg(not(target_env = "musl"))]
type Request = libc::c_uint;
#[cfg(target_env = "musl")]
type Request = libc::c_int;

fn ptrace(req: Request, pid: libc::pid_t, addr: u64, data: u64) -> i64 {
    // SAFETY: every request made here reads or writes the tracee only, or
    // (GETREGS, SETREGS) a user_regs_struct that the caller passes by
    // address, or (GETSIGMASK) the 8-byte set it passes by address.
    let r = unsafe { libc::ptrace(req, pid, addr as *mut libc::c_void, data as *mut libc::c_void) };
    r as i64
}

/// Waits for the tracee's next stop and returns its signal; panics with how
/// it ended if it ended.
fn wait_stop(pid: libc::pid_t) -> i32 {
    let mut status = 0;
    // SAFETY: waits for our own child.
    let r = unsafe { libc::waitpid(pid, &mut status, libc::__WALL) };
    assert_eq!(r, pid, "waitpid: {}", std::io::Error::last_os_error());
    if libc::WIFSTOPPED(status) {
        return libc::WSTOPSIG(status);
    }
    panic!("the tracee ended while traced: {}", describe(status));
}

/// A wait status in words.
pub fn describe(status: i32) -> String {
    if libc::WIFEXITED(status) {
        format!("exit status {}", libc::WEXITSTATUS(status))
    } else if libc::WIFSIGNALED(status) {
        format!("killed by signal {}", libc::WTERMSIG(status))
    } else {
        format!("wait status {status:#x}")
    }
}

/// personality(2)'s flag that turns address randomisation off for the
/// programs this process execs, as personality's argument type.
pub const ADDR_NO_RANDOMIZE: libc::c_ulong = libc::ADDR_NO_RANDOMIZE as libc::c_ulong;

impl Tracee {
    /// Starts the tracee for `path` and `action` and brings it, stopped, to
    /// the first instruction of the call under test.
    pub fn start(path: Path, action: Action) -> Tracee {
        let debug = tracee_debug();
        let mut cmd = Command::new(tracee_exe());
        cmd.env(ROLE, format!("{},{}", path.name(), action.name())).stdout(Stdio::piped());
        #[cfg(target_env = "gnu")]
        cmd.env("GLIBC_TUNABLES", glibc_tunables());
        // SAFETY: personality and PTRACE_TRACEME are system calls, safe
        // between fork and exec. Without address randomisation every tracee
        // runs at the same addresses, so that a step found in one run is
        // found again in the next.
        unsafe {
            cmd.pre_exec(|| {
                if libc::personality(ADDR_NO_RANDOMIZE) == -1 || libc::ptrace(libc::PTRACE_TRACEME, 0, 0, 0) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let mut child = cmd.spawn().expect("spawn the tracee");
        let pid = child.id() as libc::pid_t;
        let stdout = child.stdout.take().unwrap();
        let watchdog = Some(Watchdog::start(pid));
        assert_eq!(wait_stop(pid), libc::SIGTRAP, "the tracee did not stop at exec");
        assert_eq!(ptrace(libc::PTRACE_SETOPTIONS, pid, 0, libc::PTRACE_O_EXITKILL as u64), 0);
        let mut t = Tracee {
            pid,
            child,
            stdout,
            kernels: Vec::new(),
            whole: Vec::new(),
            probe: 0,
            restorer: 0,
            ret: 0,
            rsp_after: 0,
            arg: 0,
            watchdog,
        };
        t.cont(0);
        let header = t.read_words(1 + HEADER_WORDS).expect("the tracee's header");
        assert_eq!(header[0], HEADER);
        (t.probe, t.restorer) = (header[2], header[3]);
        t.whole = header[4..7].iter().copied().filter(|&a| a != 0).collect();
        assert_eq!(header[8] == 1, debug, "the tracee's header names another build than it did when asked");
        t.kernels = t.read_words(header[7] as usize).expect("the kernels' entries");
        assert_eq!(wait_stop(pid), libc::SIGSTOP);
        // Suppress the SIGSTOP, run to the call.
        t.run_to(header[1], 0);
        let regs = t.regs();
        t.ret = t.peek(regs.rsp);
        t.rsp_after = regs.rsp + 8;
        t.arg = regs.rdi;
        t
    }

    fn cont(&self, sig: i32) {
        assert_eq!(ptrace(libc::PTRACE_CONT, self.pid, 0, sig as u64), 0, "PTRACE_CONT");
    }

    pub fn regs(&self) -> libc::user_regs_struct {
        // SAFETY: user_regs_struct is plain data, valid when zeroed.
        let mut r: libc::user_regs_struct = unsafe { std::mem::zeroed() };
        assert_eq!(ptrace(libc::PTRACE_GETREGS, self.pid, 0, &mut r as *mut _ as u64), 0, "PTRACE_GETREGS");
        r
    }

    fn set_regs(&self, r: &libc::user_regs_struct) {
        assert_eq!(ptrace(libc::PTRACE_SETREGS, self.pid, 0, r as *const _ as u64), 0, "PTRACE_SETREGS");
    }

    fn peek(&self, addr: u64) -> u64 {
        // SAFETY: clearing errno, which PTRACE_PEEKTEXT reports errors in.
        unsafe { *libc::__errno_location() = 0 };
        let v = ptrace(libc::PTRACE_PEEKTEXT, self.pid, addr, 0);
        // SAFETY: reading this thread's errno.
        assert_eq!(unsafe { *libc::__errno_location() }, 0, "PTRACE_PEEKTEXT {addr:#x}");
        v as u64
    }

    fn poke(&self, addr: u64, v: u64) {
        assert_eq!(ptrace(libc::PTRACE_POKETEXT, self.pid, addr, v), 0, "PTRACE_POKETEXT {addr:#x}");
    }

    /// Puts a breakpoint at `addr`, continues (delivering `sig`) until the
    /// tracee reaches it, and leaves it stopped there with the instruction
    /// restored. Other signals on the way are delivered.
    fn run_to(&self, addr: u64, sig: i32) {
        let orig = self.peek(addr);
        self.poke(addr, (orig & !0xff) | 0xcc);
        let mut sig = sig;
        loop {
            self.cont(sig);
            sig = wait_stop(self.pid);
            if sig == libc::SIGTRAP && self.regs().rip == addr + 1 {
                break;
            }
            assert_ne!(sig, libc::SIGTRAP, "an unexpected trap at {:#x}", self.regs().rip);
        }
        self.poke(addr, orig);
        let mut regs = self.regs();
        regs.rip = addr;
        self.set_regs(&regs);
    }

    /// The stack pointer at the call's first instruction.
    pub fn entry_rsp(&self) -> u64 {
        self.rsp_after - 8
    }

    /// Runs the tracee to the `nth` (from 0) time it reaches instruction
    /// `rip` with stack pointer `rsp`, with a breakpoint (stepped over at
    /// the other times): the same step that single-stepping would reach,
    /// in a few stops. The calls run as one step are run whole, as
    /// [`Self::step`] runs them, so that the instructions the stack lookup
    /// shares with the rest of the call (a debug build's small functions)
    /// are not counted inside it. Where a step leaves the tracee at `rip`
    /// again (each iteration of a string instruction, such as the `rep
    /// stosb` of a wipe, is a step), that is the next time, seen without a
    /// breakpoint.
    pub fn run_to_instance(&self, rip: u64, rsp: u64, nth: usize) {
        let mut seen = 0;
        let mut there = None;
        loop {
            let regs = there.take().unwrap_or_else(|| self.run_to_trap(rip));
            if regs.rip == rip && regs.rsp == rsp {
                if seen == nth {
                    return;
                }
                seen += 1;
            }
            if self.whole.contains(&regs.rip) {
                self.run_to(self.peek(regs.rsp), 0);
                continue;
            }
            assert_eq!(ptrace(libc::PTRACE_SINGLESTEP, self.pid, 0, 0), 0, "PTRACE_SINGLESTEP");
            assert_eq!(wait_stop(self.pid), libc::SIGTRAP);
            let now = self.regs();
            if now.rip == rip {
                there = Some(now);
            }
        }
    }

    /// Continues the tracee to its next arrival at `rip` or at the entry of
    /// a call run as one step, with breakpoints there; leaves it stopped at
    /// that instruction, the breakpoints taken out, and returns its
    /// registers.
    fn run_to_trap(&self, rip: u64) -> libc::user_regs_struct {
        let orig = self.set_trap(rip);
        let whole: Vec<(u64, u8)> = self.whole.iter().filter(|&&a| a != rip).map(|&a| (a, self.set_trap(a))).collect();
        self.cont(0);
        let sig = wait_stop(self.pid);
        let mut regs = self.regs();
        for &(a, b) in whole.iter().rev() {
            self.clear_trap(a, b);
        }
        self.clear_trap(rip, orig);
        assert!(
            sig == libc::SIGTRAP && (regs.rip == rip + 1 || self.whole.contains(&(regs.rip - 1))),
            "signal {sig} at {:#x} on the way to {rip:#x}",
            regs.rip
        );
        regs.rip -= 1;
        self.set_regs(&regs);
        regs
    }

    /// Puts a breakpoint (int3) at `addr`; returns the byte it replaced.
    fn set_trap(&self, addr: u64) -> u8 {
        let word = self.peek(addr);
        self.poke(addr, (word & !0xff) | 0xcc);
        word as u8
    }

    /// Puts back the byte [`Self::set_trap`] replaced at `addr`.
    fn clear_trap(&self, addr: u64, orig: u8) {
        let word = self.peek(addr);
        self.poke(addr, (word & !0xff) | orig as u64);
    }

    /// One step: an instruction, or a whole kernel when the tracee is at a
    /// kernel's entry, or a whole call run as one step (the stack lookup,
    /// the stack wipe, the vDSO's getrandom) at its entry (the return
    /// address is then at `[rsp]`).
    pub fn step(&self) -> Step {
        let regs = self.regs();
        if regs.rip == self.ret && regs.rsp == self.rsp_after {
            return Step::Returned;
        }
        if self.kernels.contains(&regs.rip) {
            let ra = self.peek(regs.rsp);
            self.run_to(ra, 0);
            assert_eq!(self.regs().rsp, regs.rsp + 8, "a kernel returned with another stack pointer");
            return Step::Kernel;
        }
        if self.whole.contains(&regs.rip) {
            let ra = self.peek(regs.rsp);
            self.run_to(ra, 0);
            assert_eq!(self.regs().rsp, regs.rsp + 8, "a call run whole returned with another stack pointer");
            return Step::Instruction;
        }
        assert_eq!(ptrace(libc::PTRACE_SINGLESTEP, self.pid, 0, 0), 0, "PTRACE_SINGLESTEP");
        let sig = wait_stop(self.pid);
        assert_eq!(sig, libc::SIGTRAP, "signal {sig} while single-stepping at {:#x}", regs.rip);
        Step::Instruction
    }

    /// Delivers SIGUSR2 where the tracee is stopped, runs its handler to
    /// the end and stops the tracee again where it was, or where it
    /// unblocked the signal (see [`Self::handle`]).
    pub fn probe(&self) {
        self.handle(libc::SIGUSR2, Some(self.probe));
    }

    /// Delivers SIGUSR1 where the tracee is stopped, as [`Self::probe`];
    /// returns whether it had to wait for the tracee to unblock it.
    pub fn signal_here(&self) -> bool {
        self.handle(libc::SIGUSR1, None)
    }

    /// Whether the stopped tracee has signal `sig` blocked: sent now, it
    /// waits until the tracee unblocks it (where keystream calls block
    /// signals around them: without rseq, as on musl).
    pub fn blocks(&self, sig: i32) -> bool {
        let mut mask = 0u64;
        let r = ptrace(libc::PTRACE_GETSIGMASK as Request, self.pid, 8, &mut mask as *mut u64 as u64);
        assert_eq!(r, 0, "PTRACE_GETSIGMASK");
        mask & (1 << (sig - 1)) != 0
    }

    /// Delivers `sig`, checks that the tracee entered `handler` (when
    /// given), runs to the handler's return (the C library's restorer) and
    /// steps through rt_sigreturn back to where the signal came. Where the
    /// tracee has `sig` blocked, the signal waits: the tracee runs on to
    /// where it unblocks it and takes it there, and stops there after the
    /// handler (a signal sent anywhere in a blocked stretch comes in at its
    /// end). Returns whether the signal waited so.
    fn handle(&self, sig: i32, handler: Option<u64>) -> bool {
        let mut at = self.regs();
        let blocked = self.blocks(sig);
        assert_eq!(ptrace(libc::PTRACE_SINGLESTEP, self.pid, 0, sig as u64), 0, "PTRACE_SINGLESTEP");
        assert_eq!(wait_stop(self.pid), libc::SIGTRAP);
        if blocked {
            // The kernel queued it: the tracee stops for it (a signal-
            // delivery stop) where it unblocks it, before its handler.
            self.cont(0);
            let stop = wait_stop(self.pid);
            assert_eq!(stop, sig, "signal {stop}, not the blocked {sig}, on the way to its unblocking");
            assert!(!self.blocks(sig), "signal {sig} delivered while blocked");
            at = self.regs();
            assert_eq!(ptrace(libc::PTRACE_SINGLESTEP, self.pid, 0, sig as u64), 0, "PTRACE_SINGLESTEP");
            assert_eq!(wait_stop(self.pid), libc::SIGTRAP);
        }
        if let Some(h) = handler {
            assert_eq!(self.regs().rip, h, "the tracee did not enter the handler of signal {sig}");
        }
        self.run_to(self.restorer, 0);
        for _ in 0..4 {
            assert_eq!(ptrace(libc::PTRACE_SINGLESTEP, self.pid, 0, 0), 0, "PTRACE_SINGLESTEP");
            assert_eq!(wait_stop(self.pid), libc::SIGTRAP);
            let now = self.regs();
            if now.rip == at.rip && now.rsp == at.rsp {
                return blocked;
            }
        }
        panic!("the handler of signal {sig} did not return to {:#x}", at.rip);
    }

    /// Lets the tracee go, delivering `sig` (0: none) at the instruction it
    /// is stopped at; returns everything it and its children write, and its
    /// wait status.
    pub fn release(mut self, sig: i32) -> (Vec<u64>, i32) {
        assert_eq!(ptrace(libc::PTRACE_DETACH, self.pid, 0, sig as u64), 0, "PTRACE_DETACH");
        let mut bytes = Vec::new();
        self.stdout.read_to_end(&mut bytes).expect("read the tracee's reports");
        self.watchdog.take();
        let status = self.child.wait().expect("reap the tracee").into_raw();
        // The VMClock restores' tracees write this file.
        let _ = std::fs::remove_file(vm_clock_path(self.pid as u32));
        let words = bytes.chunks_exact(8).map(|c| u64::from_ne_bytes(c.try_into().unwrap())).collect();
        (words, status)
    }

    /// Continues the tracee (a restore's) to the stop after its next report,
    /// and returns that report's words (its magic first).
    pub fn run_to_report(&mut self) -> Vec<u64> {
        self.cont(0);
        let mut words = self.read_words(7).expect("a report's fixed words");
        assert_eq!(words[0], REPORT, "a report");
        for _ in 0..4 {
            let n = self.read_words(1).expect("a report's list length")[0] as usize;
            words.push(n as u64);
            words.extend(self.read_words(n).expect("a report's list"));
        }
        assert_eq!(wait_stop(self.pid), libc::SIGSTOP, "the tracee stops after its report");
        words
    }

    /// Reads `n` words from the tracee's stdout.
    fn read_words(&mut self, n: usize) -> Option<Vec<u64>> {
        let mut b = vec![0u8; 8 * n];
        self.stdout.read_exact(&mut b).ok()?;
        Some(b.chunks_exact(8).map(|c| u64::from_ne_bytes(c.try_into().unwrap())).collect())
    }
}
