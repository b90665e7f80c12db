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
//!
//! VMClock: the same model with a file standing in for the VMClock device
//! (`internals::set_vm_clock_path`: a valid page, VM generation counter N),
//! the mix off and no kernel reseed, so that only the counter can tell the
//! two runs apart; the tracer bumps it in the file before the restore, as
//! the VMM bumps it before a restored guest runs. The runs share nothing:
//! a state seeded where the counter is readable hands out no byte, buffered
//! or direct, before it compares the counter. Control: the counter left as it was, the runs share far more
//! (up to the next reseed from getrandom(2)). Pages that fail a check (an
//! odd sequence count that stays odd, a wrong magic or version, no flag, a
//! file too short, no file) leave the process without a counter, drawing as
//! before.
//!
//! Every child is killed, and the test fails, if it runs for more than a
//! minute (and the kernel kills a traced child if this process exits first).

mod support;

#[cfg(all(target_os = "linux", target_arch = "x86_64"))]
mod restore {
    use super::support::snapshot::{reseed_kernel, restore, shared, snapshot};
    use super::support::vm_clock::{GEN_PRESENT, MAGIC, bump_generation, page as vm_clock_page, valid_page};
    use super::support::watchdog::Watchdog;
    use super::support::{ROLE, command, emulator, write_all};
    use std::io::Read;
    use std::path::{Path, PathBuf};
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
        /// The mix off, no kernel reseed, a VMClock page whose counter the
        /// tracer bumps before the restore.
        VmClockBumped,
        /// Control: as `VmClockBumped`, the counter left as it was.
        VmClockSame,
    }

    impl Restore {
        fn mix_off(self) -> bool {
            self != Restore::Reseeded && self != Restore::Faithful
        }

        fn vm_clock(self) -> bool {
            matches!(self, Restore::VmClockBumped | Restore::VmClockSame)
        }
    }

    /// The child: warms up, stops for the snapshot, draws a run into a
    /// buffer allocated before the snapshot, writes it to stdout, stops.
    /// Nothing is mapped or unmapped between the two stops.
    pub fn child(role: &str) {
        let mut parts = role.splitn(3, ';');
        let (mode, mix_off, vm_clock) = (parts.next().unwrap(), parts.next().unwrap(), parts.next().unwrap());
        let mode = Mode::parse(mode);
        randp::internals::set_kernel_mix_off(mix_off == "off");
        if vm_clock != "-" {
            randp::internals::set_vm_clock_path(vm_clock);
            assert!(randp::vm_generation_readable(), "the page at {vm_clock} is valid");
        }
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
    fn wait_sigstop(pid: libc::pid_t, watchdog: &Watchdog) {
        let mut status = 0;
        // SAFETY: waits for our own child.
        let r = unsafe { libc::waitpid(pid, &mut status, 0) };
        assert_eq!(r, pid, "waitpid: {}", std::io::Error::last_os_error());
        watchdog.check("waiting for a stop");
        assert!(
            libc::WIFSTOPPED(status) && libc::WSTOPSIG(status) == libc::SIGSTOP,
            "the child stopped at its raise (wait status {status:#x})"
        );
    }

    /// One snapshot, two runs: the two runs' output. `vm_clock`: the file
    /// standing for the VMClock device, for `VmClockBumped` and
    /// `VmClockSame`.
    fn two_runs(mode: Mode, how: Restore, vm_clock: Option<&Path>) -> (Vec<u8>, Vec<u8>, &'static str) {
        let page = if how.vm_clock() { vm_clock.expect("a VMClock page") } else { Path::new("-") };
        let role = format!("{};{};{}", mode.name(), if how.mix_off() { "off" } else { "on" }, page.display());
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
        let watchdog = Watchdog::start(pid);
        let mut stdout = child.stdout.take().unwrap();
        // The exec stop.
        let mut status = 0;
        // SAFETY: waits for our own child.
        unsafe { libc::waitpid(pid, &mut status, 0) };
        watchdog.check("waiting for the exec stop");
        assert!(libc::WIFSTOPPED(status) && libc::WSTOPSIG(status) == libc::SIGTRAP, "exec stop: {status:#x}");
        // Should this process end first (a failed assertion), the kernel
        // kills the child rather than leave it stopped.
        assert_eq!(ptrace(libc::PTRACE_SETOPTIONS as Request, pid, 0, libc::PTRACE_O_EXITKILL as usize), 0);
        assert_eq!(ptrace(libc::PTRACE_CONT as Request, pid, 0, 0), 0);
        let reader = std::thread::spawn(move || {
            let mut all = Vec::new();
            stdout.read_to_end(&mut all).unwrap();
            all
        });
        wait_sigstop(pid, &watchdog);
        let snap = snapshot(pid);
        assert_eq!(ptrace(libc::PTRACE_CONT as Request, pid, 0, 0), 0);
        wait_sigstop(pid, &watchdog);
        restore(pid, &snap);
        // The reseed a restored VM's kernel makes (or, not as root, its
        // effect on the vDSO's state, at the start of the state page); with
        // VMClock, the VMM's bump of the counter instead, and no reseed.
        let how_reseeded = match how {
            Restore::Faithful => "none (control)",
            Restore::VmClockSame => "none; VMClock counter unchanged (control)",
            Restore::VmClockBumped => {
                bump_generation(page);
                "none; VMClock counter bumped"
            }
            Restore::Reseeded | Restore::MixOff => reseed_kernel(pid),
        };
        assert_eq!(ptrace(libc::PTRACE_CONT as Request, pid, 0, 0), 0);
        wait_sigstop(pid, &watchdog);
        assert_eq!(ptrace(libc::PTRACE_CONT as Request, pid, 0, 0), 0);
        let status = child.wait().unwrap();
        watchdog.finish(&format!("{} ({how:?})", mode.name()));
        assert!(status.success(), "the child exits cleanly: {status:?}");
        let out = reader.join().unwrap();
        assert_eq!(out.len(), 2 * RUN, "the child wrote two runs");
        (out[..RUN].to_vec(), out[RUN..].to_vec(), how_reseeded)
    }

    pub fn main() {
        randp::u64();
        randp::u64();
        if emulator().is_some() || !randp::uses_userspace_generator() {
            println!("vm_restore: no userspace state here (an emulator); skipped");
            return;
        }
        let mut failures = Vec::new();
        vdso_restores(&mut failures);
        vm_clock_restores(&mut failures);
        bad_vm_clock_pages(&mut failures);
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }

    /// The restores with the kernel's reseed, and its controls.
    fn vdso_restores(failures: &mut Vec<String>) {
        if !randp::internals::kernel_mix_available() {
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
        for mode in MODES {
            let bound = if mode.direct() { buffer + randp::internals::MIX_DIRECT } else { buffer };
            let (a, b, how) = two_runs(mode, Restore::Reseeded, None);
            let n = shared(&a, &b);
            let (fa, fb, _) = two_runs(mode, Restore::Faithful, None);
            let faithful = fa.iter().zip(&fb).take_while(|(x, y)| x == y).count();
            let (oa, ob, _) = two_runs(mode, Restore::MixOff, None);
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
    }

    /// Where the tracer writes the VMClock pages, one file per process.
    fn page_path(name: &str) -> PathBuf {
        std::env::temp_dir().join(format!("randp-vm-restore-{}-{name}", std::process::id()))
    }

    /// The restores that only the VMClock counter tells apart, and their
    /// control.
    fn vm_clock_restores(failures: &mut Vec<String>) {
        for mode in MODES {
            let bound = 0;
            let path = page_path(&format!("vmclock-{}", mode.name().replace(' ', "-")));
            std::fs::write(&path, valid_page(41)).unwrap();
            let (a, b, how) = two_runs(mode, Restore::VmClockBumped, Some(&path));
            let n = shared(&a, &b);
            std::fs::write(&path, valid_page(41)).unwrap();
            let (ca, cb, _) = two_runs(mode, Restore::VmClockSame, Some(&path));
            let same = shared(&ca, &cb);
            std::fs::remove_file(&path).unwrap();
            println!(
                "vm_restore: {:>10}: VMClock: shared {n} B (bound {bound}; {how}, mix off); control (counter unchanged): shared {same} B",
                mode.name()
            );
            if n > bound {
                failures.push(format!("{}: VMClock: the runs share {n} bytes, more than {bound}", mode.name()));
            }
            // Until randp's next reseed from getrandom(2), which comes at
            // most a MiB after the snapshot.
            if same <= RUN / 8 {
                failures.push(format!("{}: VMClock control: the runs share only {same} bytes", mode.name()));
            }
        }
    }

    /// The pages that fail a check, by name; `None`: no file at all.
    fn bad_pages() -> Vec<(&'static str, Option<Vec<u8>>)> {
        let good = |seq| vm_clock_page(MAGIC, 112, 1, seq, GEN_PRESENT, 7);
        vec![
            ("odd sequence count", Some(good(3))),
            ("bad magic", Some(vm_clock_page(MAGIC ^ 0x20, 112, 1, 2, GEN_PRESENT, 7))),
            ("bad version", Some(vm_clock_page(MAGIC, 112, 2, 2, GEN_PRESENT, 7))),
            ("size short of the counter", Some(vm_clock_page(MAGIC, 104, 1, 2, GEN_PRESENT, 7))),
            ("flag missing", Some(vm_clock_page(MAGIC, 112, 1, 2, (GEN_PRESENT - 1) | (1 << 9), 7))),
            ("file too short", Some(good(2)[..100].to_vec())),
            ("empty file", Some(Vec::new())),
            ("no file", None),
        ]
    }

    /// A child for a bad page: no counter, and every kind of draw works.
    pub fn bad_page_child(path: &str) {
        randp::internals::set_kernel_mix_off(true);
        randp::internals::set_vm_clock_path(path);
        let mut big = vec![0u8; 1 << 20];
        randp::fill_bytes(&mut big);
        let words: Vec<u64> = (0..4096).map(|_| randp::u64()).collect();
        let mut small = [0u8; 256];
        randp::fill_bytes(&mut small);
        assert!(!randp::vm_generation_readable(), "{path}: no VM generation counter");
        assert!(randp::uses_userspace_generator());
        assert!(big.chunks_exact(16).all(|c| c != [0; 16]) && words.iter().any(|&w| w != 0) && small != [0; 256]);
        print!("ok");
    }

    /// Each bad page in a child of its own, which must say `ok` in time.
    fn bad_vm_clock_pages(failures: &mut Vec<String>) {
        for (name, bytes) in bad_pages() {
            let path = page_path(&format!("bad-{}", name.replace(' ', "-")));
            if let Some(b) = &bytes {
                std::fs::write(&path, b).unwrap();
            }
            let mut child = command(std::env::current_exe().unwrap())
                .env(ROLE, format!("bad-page:{}", path.display()))
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap();
            let watchdog = Watchdog::start(child.id() as libc::pid_t);
            let mut out = String::new();
            child.stdout.take().unwrap().read_to_string(&mut out).unwrap();
            let mut err = String::new();
            child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
            let status = child.wait().unwrap();
            watchdog.finish(&format!("bad page: {name}"));
            if bytes.is_some() {
                std::fs::remove_file(&path).unwrap();
            }
            let ok = status.success() && out == "ok";
            println!("vm_restore: bad VMClock page ({name}): {}", if ok { "no counter, draws work" } else { "FAILED" });
            if !ok {
                failures.push(format!("bad page ({name}): {status:?}, stdout {out:?}, stderr {err}"));
            }
        }
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
        if let Ok(role) = std::env::var(support::ROLE) {
            if let Some(role) = role.strip_prefix("restore:") {
                return restore::child(role);
            }
            if let Some(path) = role.strip_prefix("bad-page:") {
                return restore::bad_page_child(path);
            }
        }
        restore::main();
    }
}
