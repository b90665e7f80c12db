//! What the tracee tells the tracer, as native-endian 64-bit words on its
//! stdout: a header before it stops (where the call under test begins, its
//! handlers, and the keystream kernels' entries), then one report per process (a child
//! forked by the handler reports before its parent, which waits for it).

/// The paths under test.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Path {
    /// `u64()` with the buffer empty: a refill.
    Refill,
    /// A 128 KiB fill with the reseed interval used up: a reseed, then a
    /// direct fill, a mix of the kernel's output (where the vDSO has
    /// getrandom) and a second direct fill.
    Reseed,
    /// A thread's first draw: the state is mapped, seeded and filled.
    FirstDraw,
    /// `u64()` with the buffer of the thread's first refill empty: the
    /// extension is locked and attached, and the whole extended buffer
    /// refilled.
    Attach,
    /// `u64()` with bytes in the buffer: the fast path, which moves the
    /// word out and counts it in the thread-local counts word.
    Handout,
    /// A fill of 2 KiB and 8 bytes with bytes in the buffer: the fast path
    /// declines it, the slow path writes 128 blocks directly and takes the
    /// last 8 bytes from the buffer, under counts that a wipe between the
    /// two paths leaves stale.
    Tail,
}

/// What SIGUSR1's handler does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Forks, and draws (in both processes).
    Fork = 1,
    /// Drops the state page, and draws.
    Drop = 2,
    /// Drops the state page; the draw comes from SIGUSR2 at the call's
    /// last instruction before its result is final, after the call has
    /// gone on over the dropped page.
    DropEarly = 3,
    /// No signal: the tracer snapshots the process at the step, lets it
    /// finish and report, writes the snapshot back, reseeds the kernel's
    /// RNG (as a restored VM's kernel does) and lets it run again.
    Restore = 4,
    /// Control: as [`Action::Restore`] with no reseed: the two runs must be
    /// the same.
    RestoreFaithful = 5,
    /// Control: as [`Action::Restore`] with the kernel mix switched off
    /// from the start (`internals::set_kernel_mix_off`): the two runs share
    /// up to randp's next reseed from getrandom(2).
    RestoreMixOff = 6,
    /// As [`Action::Restore`], in a tracee that reads a VM generation
    /// counter from a file standing for the VMClock device
    /// ([`vm_clock_path`]), with the kernel mix off: the tracer bumps the
    /// counter before the second run instead of reseeding the kernel's RNG.
    /// The runs may share nothing after the call in flight.
    RestoreVmClock = 7,
    /// Control: as [`Action::RestoreVmClock`] with the counter left as it
    /// was: the runs share what they draw after the call.
    RestoreVmClockSame = 8,
}

/// The file that stands for the VMClock device of the tracee `pid` in the
/// VMClock restores: the tracee writes it, the tracer bumps it and removes
/// it.
pub fn vm_clock_path(pid: u32) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("randp-single-step-vmclock-{pid}"))
}

impl Path {
    pub const ALL: [Path; 6] = [Path::Refill, Path::Reseed, Path::FirstDraw, Path::Attach, Path::Handout, Path::Tail];

    pub fn name(self) -> &'static str {
        match self {
            Path::Refill => "refill",
            Path::Reseed => "reseed",
            Path::FirstDraw => "first-draw",
            Path::Attach => "attach",
            Path::Handout => "handout",
            Path::Tail => "tail",
        }
    }

    /// How many keystream kernel calls the path makes at least: the ones
    /// that show it is the path meant (a reseed mixes the seed in first).
    pub fn kernel_calls(self) -> usize {
        match self {
            Path::Handout => 0,
            Path::Refill | Path::Attach | Path::Tail => 1,
            Path::Reseed | Path::FirstDraw => 2,
        }
    }

    /// Whether the restore family runs on the path in a tracee built
    /// `debug` or not: a refill, and in a release tracee the fills that
    /// write directly (a debug tracee's longer runs would double the debug
    /// test's time; the process level restores of tests/vm_restore.rs run
    /// in debug too).
    pub fn restored(self, debug: bool) -> bool {
        self == Path::Refill || (!debug && self.fills())
    }

    /// Whether the VMClock restores run on the path: a word draw served
    /// from the buffer (which, with the counter, takes the slow path that
    /// compares it), and in a release tracee the refill and the fills as
    /// well (in debug the refill's would add a minute to the debug test).
    pub fn restored_with_vm_clock(self, debug: bool) -> bool {
        self == Path::Handout || (!debug && self.restored(debug))
    }

    /// Whether the call under test is a fill (into memory that the tracee
    /// passes as its first argument), not a word draw.
    pub fn fills(self) -> bool {
        matches!(self, Path::Reseed | Path::Tail)
    }

    pub fn from_name(s: &str) -> Path {
        *Path::ALL.iter().find(|p| p.name() == s).unwrap_or_else(|| panic!("path {s}"))
    }
}

impl Action {
    pub const ALL: [Action; 8] = [
        Action::Fork,
        Action::Drop,
        Action::DropEarly,
        Action::Restore,
        Action::RestoreFaithful,
        Action::RestoreMixOff,
        Action::RestoreVmClock,
        Action::RestoreVmClockSame,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Action::Fork => "fork",
            Action::Drop => "drop",
            Action::DropEarly => "drop-early",
            Action::Restore => "restore",
            Action::RestoreFaithful => "restore-faithful",
            Action::RestoreMixOff => "restore-mix-off",
            Action::RestoreVmClock => "restore-vmclock",
            Action::RestoreVmClockSame => "restore-vmclock-same",
        }
    }

    /// Whether the tracer snapshots and restores the tracee (which then
    /// stops after each report) rather than signal it.
    pub fn restores(self) -> bool {
        matches!(
            self,
            Action::Restore
                | Action::RestoreFaithful
                | Action::RestoreMixOff
                | Action::RestoreVmClock
                | Action::RestoreVmClockSame
        )
    }

    /// Whether the tracee reads a VM generation counter (the VMClock
    /// restores).
    pub fn vm_clock(self) -> bool {
        matches!(self, Action::RestoreVmClock | Action::RestoreVmClockSame)
    }

    pub fn from_name(s: &str) -> Action {
        Action::ALL.into_iter().find(|a| a.name() == s).unwrap_or_else(|| panic!("action {s}"))
    }
}

pub const HEADER: u64 = 0x5241_4e44_505f_4844; // "RANDP_HD"
pub const REPORT: u64 = 0x5241_4e44_505f_5250; // "RANDP_RP"
/// Header words after the magic: the call's entry, SIGUSR2's handler, the
/// address handlers return to, the entries of the calls run as one step
/// (the stack lookup, the wipe of the stack below a keystream call, and
/// the vDSO's getrandom or 0), the number of kernels, and whether the
/// tracee is a debug build (1) or not (0); the kernels' entries follow.
pub const HEADER_WORDS: usize = 8;

/// The environment variable that makes this binary a tracee: `path,action`
/// (their names) runs that path's call under that action; [`BUILD_ROLE`]
/// asks the binary for its build.
pub const ROLE: &str = "RANDP_SINGLE_STEP_TRACEE";

/// The tracee's role variable's value that makes it print `debug` or
/// `release`, its build, and exit.
pub const BUILD_ROLE: &str = "build";

/// One process's account of a run.
#[derive(Debug, Default)]
pub struct Report {
    /// Written by the child that the handler forked.
    pub child: bool,
    /// Signals handled (one when the tracer injected its signal).
    pub signals: usize,
    /// State pages the handler found gone after MADV_PAGEOUT.
    pub dropped: usize,
    /// State pages mapped at the end (0 for a restore: not counted).
    pub pages: usize,
    /// SIGUSR2 draws made.
    pub probes: usize,
    /// The handler's child's wait status (-1: none).
    pub child_status: i32,
    /// What the handlers drew, what the call under test returned, what was
    /// drawn after it, and before it.
    pub handler: Vec<u64>,
    pub call: Vec<u64>,
    pub later: Vec<u64>,
    pub before: Vec<u64>,
}

impl Report {
    pub fn encode(&self, out: &mut Vec<u64>) {
        out.extend([
            u64::from(self.child),
            self.signals as u64,
            self.dropped as u64,
            self.pages as u64,
            self.probes as u64,
            self.child_status as u32 as u64,
        ]);
        for v in [&self.handler, &self.call, &self.later, &self.before] {
            out.push(v.len() as u64);
            out.extend_from_slice(v);
        }
    }

    /// Decodes a report from `words` (after its magic); returns it and the
    /// words it used.
    pub fn decode(words: &[u64]) -> Option<(Report, usize)> {
        let fixed = words.get(..6)?;
        let mut r = Report {
            child: fixed[0] != 0,
            signals: fixed[1] as usize,
            dropped: fixed[2] as usize,
            pages: fixed[3] as usize,
            probes: fixed[4] as usize,
            child_status: fixed[5] as u32 as i32,
            ..Report::default()
        };
        let mut at = 6;
        for v in [&mut r.handler, &mut r.call, &mut r.later, &mut r.before] {
            let n = *words.get(at)? as usize;
            *v = words.get(at + 1..at + 1 + n)?.to_vec();
            at += 1 + n;
        }
        Some((r, at))
    }

    /// Every word this process drew.
    pub fn all(&self) -> impl Iterator<Item = u64> + '_ {
        self.handler.iter().chain(&self.call).chain(&self.later).chain(&self.before).copied()
    }
}
