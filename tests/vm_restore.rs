//! A VM snapshot restored twice, modelled on one process: a child draws,
//! stops, and its tracer saves every writable mapping and its registers
//! (the snapshot); the child draws a run, stops again, and the tracer writes
//! the memory and registers back, makes the kernel reseed its RNG (what the
//! vmgenid driver does when the VM is restored: ioctl RNDRESEEDCRNG, as
//! root; otherwise it zeroes the thread's vDSO getrandom state in the
//! restored memory, which has the same effect on it) and lets the child
//! draw the same run again. The two runs may share at most what the state
//! held unread at the snapshot: the buffer (word draws and buffered fills),
//! or that and one mix interval of direct output (direct fills).
//!
//! Controls: without the kernel's reseed the two runs are the same (the
//! harness restores faithfully); with the mix switched off
//! (`internals::set_kernel_mix_off`) they share far more than the bound
//! (up to the next reseed from getrandom(2), a MiB at most).
//!
//! Where the process has no vDSO getrandom (an emulator, Linux < 6.11) the
//! property does not hold and the test says so and checks nothing but that.

mod support;

#[cfg(all(target_os = "linux", target_arch = "x86_64"))]
mod restore {
    use super::support::{ROLE, command, emulator, write_all};
    use std::collections::HashSet;
    use std::io::Read;

    /// Bytes each run draws: twice the reseed interval.
    const RUN: usize = 2 << 20;
    /// Bytes drawn before the snapshot, so that the state, its extension
    /// and the vDSO's state exist (a mix has been made: more than a mix
    /// interval), and the next reseed is far.
    const WARM_UP: usize = 80 << 10;

    /// How the child draws.
    #[derive(Clone, Copy, Debug)]
    enum Mode {
        Words,
        Fill(usize),
    }

    const MODES: [Mode; 6] =
        [Mode::Words, Mode::Fill(16), Mode::Fill(256), Mode::Fill(4096), Mode::Fill(16 << 10), Mode::Fill(1 << 20)];

    impl Mode {
        fn name(self) -> String {
            match self {
                Mode::Words => "u64".into(),
                Mode::Fill(n) => format!("fill {n}"),
            }
        }

        fn parse(s: &str) -> Mode {
            if s == "u64" { Mode::Words } else { Mode::Fill(s.trim_start_matches("fill ").parse().unwrap()) }
        }

        /// Whether a fill of this size is written straight into the caller's
        /// memory (`Generator::DIRECT`: 1,280 bytes).
        fn direct(self) -> bool {
            matches!(self, Mode::Fill(n) if n >= 1280)
        }

        /// Draws `out.len()` bytes this way.
        fn draw(self, out: &mut [u8]) {
            match self {
                Mode::Words => out.chunks_exact_mut(8).for_each(|c| c.copy_from_slice(&randp::u64().to_ne_bytes())),
                Mode::Fill(n) => out.chunks_mut(n).for_each(randp::fill_bytes),
            }
        }
    }

    /// How the restore is made.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    enum Restore {
        /// The kernel's RNG reseeds, as on a restored VM.
        Reseeded,
        /// Control: memory and registers only.
        Faithful,
        /// Control: the kernel reseeds, and the mix is off.
        MixOff,
    }

    /// The child: warms up, stops for the snapshot, draws a run into a
    /// buffer allocated before the snapshot, writes it to stdout, stops.
    /// Nothing is mapped or unmapped between the two stops.
    pub fn child(role: &str) {
        let (mode, mix_off) = role.split_once(';').unwrap();
        let mode = Mode::parse(mode);
        randp::internals::set_kernel_mix_off(mix_off == "off");
        let mut out = vec![0u8; RUN];
        mode.draw(&mut out[..WARM_UP]);
        out.fill(1);
        // SAFETY: stops this process for its tracer.
        unsafe { libc::raise(libc::SIGSTOP) };
        mode.draw(&mut out);
        write_all(1, &out);
        // SAFETY: as above.
        unsafe { libc::raise(libc::SIGSTOP) };
        std::process::exit(0);
    }

    #[cfg(not(target_env = "musl"))]
    type Request = libc::c_uint;
    #[cfg(target_env = "musl")]
    type Request = libc::c_int;

    fn ptrace(req: Request, pid: libc::pid_t, addr: usize, data: usize) -> i64 {
        // SAFETY: every request made here reads or writes the tracee only,
        // or a user_regs_struct that the caller passes by address.
        unsafe { libc::ptrace(req, pid, addr as *mut libc::c_void, data as *mut libc::c_void) as i64 }
    }

    /// Waits for the child's next stop, which must be by SIGSTOP.
    fn wait_sigstop(pid: libc::pid_t) {
        let mut status = 0;
        // SAFETY: waits for our own child.
        let r = unsafe { libc::waitpid(pid, &mut status, 0) };
        assert_eq!(r, pid, "waitpid: {}", std::io::Error::last_os_error());
        assert!(
            libc::WIFSTOPPED(status) && libc::WSTOPSIG(status) == libc::SIGSTOP,
            "the child stopped at its raise (wait status {status:#x})"
        );
    }

    /// The child's writable mappings and their bytes.
    struct Snapshot {
        regions: Vec<(usize, Vec<u8>)>,
        regs: libc::user_regs_struct,
    }

    fn snapshot(pid: libc::pid_t) -> Snapshot {
        let maps = std::fs::read_to_string(format!("/proc/{pid}/maps")).unwrap();
        let mem = std::fs::File::open(format!("/proc/{pid}/mem")).unwrap();
        let mut regions = Vec::new();
        for line in maps.lines() {
            let mut f = line.split_whitespace();
            let (range, perms) = (f.next().unwrap(), f.next().unwrap());
            let name = line.split_whitespace().nth(5).unwrap_or("");
            if !perms.starts_with("rw") || name == "[vsyscall]" {
                continue;
            }
            let (a, b) = range.split_once('-').unwrap();
            let (a, b) = (usize::from_str_radix(a, 16).unwrap(), usize::from_str_radix(b, 16).unwrap());
            let mut bytes = vec![0u8; b - a];
            use std::os::unix::fs::FileExt;
            mem.read_exact_at(&mut bytes, a as u64).unwrap_or_else(|e| panic!("read {line}: {e}"));
            regions.push((a, bytes));
        }
        // SAFETY: user_regs_struct is plain integers.
        let mut regs: libc::user_regs_struct = unsafe { std::mem::zeroed() };
        assert_eq!(ptrace(libc::PTRACE_GETREGS as Request, pid, 0, &raw mut regs as usize), 0);
        Snapshot { regions, regs }
    }

    fn restore(pid: libc::pid_t, s: &Snapshot) {
        let mem = std::fs::OpenOptions::new().write(true).open(format!("/proc/{pid}/mem")).unwrap();
        use std::os::unix::fs::FileExt;
        for (a, bytes) in &s.regions {
            mem.write_all_at(bytes, *a as u64).unwrap_or_else(|e| panic!("write back {a:#x}: {e}"));
        }
        assert_eq!(ptrace(libc::PTRACE_SETREGS as Request, pid, 0, &raw const s.regs as usize), 0);
    }

    /// Makes the kernel reseed its RNG (the vmgenid driver's crng_reseed),
    /// or, where not allowed, zeroes the vDSO state at `room` in the
    /// child, which makes the vDSO fetch a new key from the kernel as a
    /// reseed would. Returns which it did.
    fn reseed_kernel(pid: libc::pid_t, room: usize) -> &'static str {
        const RNDRESEEDCRNG: libc::c_ulong = 0x5207;
        let f = std::fs::File::open("/dev/urandom").unwrap();
        use std::os::fd::AsRawFd;
        // SAFETY: an ioctl with no argument on our own descriptor.
        if unsafe { libc::ioctl(f.as_raw_fd(), RNDRESEEDCRNG as _) } == 0 {
            return "ioctl RNDRESEEDCRNG";
        }
        let mem = std::fs::OpenOptions::new().write(true).open(format!("/proc/{pid}/mem")).unwrap();
        use std::os::unix::fs::FileExt;
        mem.write_all_at(&[0u8; 192], room as u64).unwrap();
        "a zeroed vDSO state (not root)"
    }

    /// One snapshot, two runs: the two runs' output.
    fn two_runs(mode: Mode, how: Restore) -> (Vec<u8>, Vec<u8>, &'static str) {
        let role = format!("{};{}", mode.name(), if how == Restore::MixOff { "off" } else { "on" });
        let mut cmd = command(std::env::current_exe().unwrap());
        cmd.env(ROLE, format!("restore:{role}")).stdout(std::process::Stdio::piped());
        // SAFETY: PTRACE_TRACEME in the forked child before exec.
        unsafe {
            use std::os::unix::process::CommandExt;
            cmd.pre_exec(|| {
                if libc::ptrace(libc::PTRACE_TRACEME, 0, 0, 0) == -1 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let mut child = cmd.spawn().unwrap();
        let pid = child.id() as libc::pid_t;
        let mut stdout = child.stdout.take().unwrap();
        // The exec stop.
        let mut status = 0;
        // SAFETY: waits for our own child.
        unsafe { libc::waitpid(pid, &mut status, 0) };
        assert!(libc::WIFSTOPPED(status) && libc::WSTOPSIG(status) == libc::SIGTRAP, "exec stop: {status:#x}");
        assert_eq!(ptrace(libc::PTRACE_CONT as Request, pid, 0, 0), 0);
        let reader = std::thread::spawn(move || {
            let mut all = Vec::new();
            stdout.read_to_end(&mut all).unwrap();
            all
        });
        wait_sigstop(pid);
        let snap = snapshot(pid);
        assert_eq!(ptrace(libc::PTRACE_CONT as Request, pid, 0, 0), 0);
        wait_sigstop(pid);
        restore(pid, &snap);
        // The reseed a restored VM's kernel makes (or, not as root, its
        // effect on the vDSO's state, at the start of the state page).
        let how_reseeded =
            if how == Restore::Faithful { "none (control)" } else { reseed_kernel(pid, state_page(pid)) };
        assert_eq!(ptrace(libc::PTRACE_CONT as Request, pid, 0, 0), 0);
        wait_sigstop(pid);
        assert_eq!(ptrace(libc::PTRACE_CONT as Request, pid, 0, 0), 0);
        let status = child.wait().unwrap();
        assert!(status.success(), "the child exits cleanly: {status:?}");
        let out = reader.join().unwrap();
        assert_eq!(out.len(), 2 * RUN, "the child wrote two runs");
        (out[..RUN].to_vec(), out[RUN..].to_vec(), how_reseeded)
    }

    /// The thread state page of the child (the only one with a droppable
    /// mapping of one page followed by its extension), from its maps.
    fn state_page(pid: libc::pid_t) -> usize {
        let smaps = std::fs::read_to_string(format!("/proc/{pid}/smaps")).unwrap();
        let mut start = None;
        for line in smaps.lines() {
            if let Some((range, _)) = line.split_once(' ')
                && let Some((a, b)) = range.split_once('-')
                && let (Ok(a), Ok(b)) = (usize::from_str_radix(a, 16), usize::from_str_radix(b, 16))
            {
                start = (b - a == 4096).then_some(a);
            } else if line.starts_with("VmFlags:")
                && line.split_whitespace().any(|f| f == "dp")
                && let Some(a) = start
            {
                return a;
            }
        }
        panic!("no droppable state page in the child's mappings");
    }

    /// Bytes of `b` (in 8-byte words) that also occur in `a`.
    fn shared(a: &[u8], b: &[u8]) -> usize {
        let seen: HashSet<&[u8]> = a.chunks_exact(8).collect();
        8 * b.chunks_exact(8).filter(|w| seen.contains(w)).count()
    }

    pub fn main() {
        randp::u64();
        randp::u64();
        if emulator().is_some() || !randp::internals::kernel_mix_available() {
            assert!(
                emulator().is_some() || !std::path::Path::new("/proc/self").exists() || !vdso_expected(),
                "this kernel has the vDSO's getrandom, but randp does not use it"
            );
            println!(
                "vm_restore: no vDSO getrandom here: randp keeps no stronger bound than its reseed interval; skipped"
            );
            return;
        }
        let buffer = randp::internals::thread_buffer_len().expect("a userspace state");
        let mut failures = Vec::new();
        for mode in MODES {
            let bound = if mode.direct() { buffer + randp::internals::MIX_DIRECT } else { buffer };
            let (a, b, how) = two_runs(mode, Restore::Reseeded);
            let n = shared(&a, &b);
            let (fa, fb, _) = two_runs(mode, Restore::Faithful);
            let faithful = fa.iter().zip(&fb).take_while(|(x, y)| x == y).count();
            let (oa, ob, _) = two_runs(mode, Restore::MixOff);
            let off = shared(&oa, &ob);
            println!(
                "vm_restore: {:>10}: shared {n} B (bound {bound}; reseed by {how}); controls: faithful restore: same first {faithful} B, mix off: shared {off} B",
                mode.name()
            );
            if n > bound {
                failures.push(format!("{}: the runs share {n} bytes, more than {bound}", mode.name()));
            }
            // Until randp's next reseed from getrandom(2), whose bytes no
            // restore repeats.
            if faithful <= bound {
                failures.push(format!("{}: control: a faithful restore repeats only {faithful} bytes", mode.name()));
            }
            if off <= bound {
                failures.push(format!("{}: control: with the mix off the runs share only {off} bytes", mode.name()));
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }

    /// Whether the kernel is new enough to have the vDSO's getrandom
    /// (6.11 on x86_64).
    fn vdso_expected() -> bool {
        let r = std::fs::read_to_string("/proc/sys/kernel/osrelease").unwrap_or_default();
        let mut v = r.trim().split(['.', '-']).map(|p| p.parse::<u32>().unwrap_or(0));
        let (major, minor) = (v.next().unwrap_or(0), v.next().unwrap_or(0));
        (major, minor) >= (6, 11)
    }
}

fn main() {
    #[cfg(all(target_os = "linux", target_arch = "x86_64"))]
    {
        if let Ok(role) = std::env::var(support::ROLE)
            && let Some(role) = role.strip_prefix("restore:")
        {
            return restore::child(role);
        }
        restore::main();
    }
}
