//! Random numbers never come from a file an attacker controls: randp reads
//! the OS only through the getrandom(2) system call and keeps no descriptor.
//!
//! The scenario is a daemon's: draw once, close descriptors 3..63 (closefrom),
//! open a file of 4096 'A' bytes (it lands on descriptor 3), then draw 16
//! bytes on a new thread, whose first draw seeds a new state. An entropy
//! descriptor kept open by randp would now be that file: the seed would be
//! 32 'A' bytes and the output AES-256-CTR keystream under the key 0x41 x 32.
//! Each case runs in a child process (this test re-run with a role).
//!
//! - `no_descriptor_and_not_the_files_keystream`: the draws open no
//!   descriptor (the sets before and after the first draw are equal, and at
//!   the end only the file was added) and the 16 bytes occur nowhere in the
//!   first 64 KiB of the attacker's keystream (made by `openssl enc`).
//!   Built with `-C target-feature=+crt-static` (glibc's getrandom cannot be
//!   found with dlsym in a static binary) this reproduces the attack; the
//!   Makefile's test-security runs it that way too.
//! - `getrandom_denied_eperm_aborts`, `getrandom_denied_enosys_aborts`: under
//!   a seccomp filter that makes getrandom fail with EPERM or ENOSYS (what
//!   container policies return), the first draw aborts with the documented
//!   message and the child prints no output at all.
//! - `getrandom_is_called_with_flags_zero`: getrandom fails under a seccomp
//!   filter whenever its flags are GRND_NONBLOCK, GRND_RANDOM or
//!   GRND_INSECURE (which return before the kernel's pool is initialised, or
//!   read another pool), and a child seeds, reseeds (2 MiB of output) and
//!   seeds a second thread: randp asks with flags 0, which blocks until the
//!   pool is initialised, so nothing aborts. The control: the filter refuses
//!   a call with GRND_INSECURE.

mod support;
use std::io::Write;
use std::process::{Command, Output};
use support::{ROLE, fail_syscall, signal};

const ENTROPY_MESSAGE: &str = "randp: the OS entropy source failed";
const KEYSTREAM_LEN: usize = 64 * 1024;

/// The descriptors this process has open, without the one used to list them.
fn open_fds() -> Vec<i32> {
    let mut fds = Vec::new();
    // SAFETY: opendir/readdir/closedir on a path literal, with every pointer
    // checked before use; the entries are read before the next readdir.
    unsafe {
        let dir = libc::opendir(c"/proc/self/fd".as_ptr());
        assert!(!dir.is_null(), "opendir /proc/self/fd");
        let own = libc::dirfd(dir);
        loop {
            let e = libc::readdir(dir);
            if e.is_null() {
                break;
            }
            let name = std::ffi::CStr::from_ptr((*e).d_name.as_ptr()).to_string_lossy();
            if let Ok(fd) = name.parse::<i32>()
                && fd != own
            {
                fds.push(fd);
            }
        }
        libc::closedir(dir);
    }
    fds.sort_unstable();
    fds
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
}

/// The child: the daemon's scenario, reporting on stdout in `key: value` lines.
fn scenario(deny_getrandom: Option<i32>) -> ! {
    let path = std::env::temp_dir().join(format!("randp-entropy-fd-{}", std::process::id()));
    std::fs::write(&path, [b'A'; 4096]).expect("write the attacker's file");
    if let Some(errno) = deny_getrandom {
        fail_syscall(libc::SYS_getrandom, errno, None);
    }
    let before = open_fds();
    let mut first = [0u8; 16];
    randp::fill_bytes(&mut first);
    let after_first_draw = open_fds();
    for fd in 3..64 {
        // SAFETY: closing descriptors is what the daemon under test does;
        // nothing in this child uses them any more.
        unsafe { libc::close(fd) };
    }
    let file = std::fs::File::open(&path).expect("open the attacker's file");
    let _ = std::fs::remove_file(&path);
    let file_fd = std::os::fd::AsRawFd::as_raw_fd(&file);
    let out = std::thread::spawn(|| {
        let mut b = [0u8; 16];
        randp::fill_bytes(&mut b);
        b
    })
    .join()
    .unwrap();
    let at_end = open_fds();
    let mut stdout = std::io::stdout().lock();
    // The test harness may have left a line open.
    let _ = writeln!(stdout);
    let _ = writeln!(stdout, "fds-before: {before:?}");
    let _ = writeln!(stdout, "fds-after-first-draw: {after_first_draw:?}");
    let _ = writeln!(stdout, "fds-at-end: {at_end:?}");
    let _ = writeln!(stdout, "file-fd: {file_fd}");
    let _ = writeln!(stdout, "out: {}", hex(&out));
    let _ = stdout.flush();
    drop(file);
    std::process::exit(0)
}

/// Runs this test binary again, only test `name`, as the child in `role`.
fn run_role(name: &str, role: &str) -> Output {
    support::command(std::env::current_exe().expect("own path"))
        .args([name, "--exact", "--nocapture", "--test-threads=1"])
        .env(ROLE, role)
        .output()
        .expect("spawn child")
}

fn child_if_asked() {
    match std::env::var(ROLE).as_deref() {
        Ok("plain") => scenario(None),
        Ok("eperm") => scenario(Some(libc::EPERM)),
        Ok("enosys") => scenario(Some(libc::ENOSYS)),
        Ok("flags") => flags_scenario(),
        Ok(other) => panic!("unknown role {other}"),
        Err(_) => {}
    }
}

/// The child's value for `key`, from its `key: value` lines.
fn field<'a>(stdout: &'a str, key: &str) -> Option<&'a str> {
    stdout.lines().find_map(|l| l.strip_prefix(key)?.strip_prefix(": "))
}

/// AES-256-CTR keystream under the key 0x41 x 32 from counter 0, by
/// `openssl enc` (the attacker's computation).
fn attacker_keystream() -> Vec<u8> {
    let key = "41".repeat(32);
    let mut child = Command::new("openssl")
        .args(["enc", "-aes-256-ctr", "-nosalt", "-K", &key, "-iv", &"00".repeat(16)])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("run openssl (`make test-security` installs it)");
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(&vec![0u8; KEYSTREAM_LEN]));
    let out = child.wait_with_output().expect("openssl");
    writer.join().unwrap().expect("feed openssl");
    assert!(out.status.success() && out.stdout.len() == KEYSTREAM_LEN, "openssl enc failed");
    out.stdout
}

#[test]
fn no_descriptor_and_not_the_files_keystream() {
    child_if_asked();
    let out = run_role("no_descriptor_and_not_the_files_keystream", "plain");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "child: status {:?}, stderr {stderr}", out.status);
    let get = |k| field(&stdout, k).unwrap_or_else(|| panic!("child printed no {k}: {stdout}"));
    assert_eq!(get("file-fd"), "3", "the attacker's file must land on descriptor 3");
    // Every finding is reported, the attacker's bytes first.
    let mut found = Vec::new();
    let drawn = unhex(get("out"));
    if let Some(at) = attacker_keystream().windows(drawn.len()).position(|w| w == drawn) {
        found.push(format!(
            "the new thread's bytes {} are the attacker's file's keystream (key 0x41 x 32), bytes {at}..{}",
            hex(&drawn),
            at + drawn.len()
        ));
    }
    let (before, after_first_draw) = (get("fds-before"), get("fds-after-first-draw"));
    if before != after_first_draw {
        found.push(format!("the first draw left a descriptor open: before {before}, after {after_first_draw}"));
    }
    let mut expected: Vec<i32> = parse_fds(before).into_iter().filter(|&fd| !(3..64).contains(&fd)).collect();
    expected.push(3);
    expected.sort_unstable();
    let at_end = parse_fds(get("fds-at-end"));
    if at_end != expected {
        found.push(format!("a new thread's first draw opened a descriptor: expected {expected:?}, open {at_end:?}"));
    }
    assert!(found.is_empty(), "{}", found.join("; "));
}

fn parse_fds(s: &str) -> Vec<i32> {
    s.trim_matches(['[', ']']).split(", ").filter(|x| !x.is_empty()).map(|x| x.parse().unwrap()).collect()
}

fn expect_abort(name: &str, role: &str) {
    child_if_asked();
    if support::skip_without_seccomp(name) {
        return;
    }
    let out = run_role(name, role);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    if let Some(drawn) = field(&stdout, "out") {
        let drawn = unhex(drawn);
        let attackers = attacker_keystream().windows(drawn.len()).any(|w| w == drawn);
        panic!(
            "{role}: status {:?}: it drew without getrandom(2){}; child said: {stdout}",
            out.status,
            if attackers { ", and its new thread's bytes are the attacker's file's keystream" } else { "" }
        );
    }
    assert_eq!(signal(&out), Some(libc::SIGABRT), "{role}: status {:?}; child said: {stdout}", out.status);
    assert!(stderr.contains(ENTROPY_MESSAGE), "{role}: stderr was {stderr:?}");
}

#[test]
fn getrandom_denied_eperm_aborts() {
    expect_abort("getrandom_denied_eperm_aborts", "eperm");
}

#[test]
fn getrandom_denied_enosys_aborts() {
    expect_abort("getrandom_denied_enosys_aborts", "enosys");
}

/// getrandom(2)'s flags that would change what randp reads: it must call
/// with none of them.
const GRND_NONBLOCK: u32 = 1;
const GRND_RANDOM: u32 = 2;
const GRND_INSECURE: u32 = 4;

/// The child of `getrandom_is_called_with_flags_zero`: a filter for every
/// nonzero combination of the flags (arguments are compared whole, so one
/// value at a time), then draws that seed, reseed and seed another thread.
fn flags_scenario() -> ! {
    for flags in 1..=(GRND_NONBLOCK | GRND_RANDOM | GRND_INSECURE) {
        fail_syscall(libc::SYS_getrandom, libc::EIO, Some((2, flags)));
    }
    let mut probe = [0u8; 16];
    // SAFETY: getrandom into a 16-byte buffer.
    let refused = unsafe { libc::syscall(libc::SYS_getrandom, probe.as_mut_ptr(), probe.len(), GRND_INSECURE) } == -1;
    let mut big = vec![0u8; 2 << 20];
    randp::fill_bytes(&mut big);
    let word = std::thread::spawn(randp::u64).join().unwrap();
    let mut stdout = std::io::stdout();
    // On a line of its own, after the harness's "test ... ".
    let _ = writeln!(stdout, "\ncontrol refused: {refused}");
    let _ = writeln!(stdout, "drew: {}", big.iter().any(|&b| b != 0) && word != 0);
    let _ = stdout.flush();
    std::process::exit(0)
}

#[test]
fn getrandom_is_called_with_flags_zero() {
    child_if_asked();
    let name = "getrandom_is_called_with_flags_zero";
    if support::skip_without_seccomp(name) {
        return;
    }
    let out = run_role(name, "flags");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "status {:?}: randp called getrandom with a flag; stderr {stderr}", out.status);
    assert_eq!(field(&stdout, "control refused"), Some("true"), "the filter let GRND_INSECURE through: {stdout}");
    assert_eq!(field(&stdout, "drew"), Some("true"), "{stdout}");
}
