//! The `randp-cat` binary as a user runs it: exact byte counts, bad sizes,
//! a reader that closes the pipe, a full disk and a closed standard output.

use std::io::Read;
use std::os::unix::process::CommandExt;
use std::process::{Output, Stdio};

mod support;
use support::command;

const BIN: &str = env!("CARGO_BIN_EXE_randp-cat");

fn run(args: &[&str]) -> Output {
    command(BIN).args(args).stdin(Stdio::null()).output().expect("spawn randp-cat")
}

#[test]
fn writes_exact_counts() {
    for (arg, n) in [
        ("0", 0usize),
        ("1", 1),
        ("1K", 1024),
        ("1k", 1024),
        ("1048575", (1 << 20) - 1),
        ("3145729", (3 << 20) + 1),
        ("5M", 5 << 20),
    ] {
        let out = run(&["-n", arg]);
        assert!(out.status.success(), "-n {arg}: {:?}", out.status);
        assert_eq!(out.stdout.len(), n, "-n {arg}");
        assert!(out.stderr.is_empty(), "-n {arg}: stderr {:?}", String::from_utf8_lossy(&out.stderr));
    }
}

#[test]
fn output_is_not_constant_and_differs_between_runs() {
    let a = run(&["-n", "1M"]).stdout;
    let b = run(&["-n", "1M"]).stdout;
    assert_eq!(a.len(), 1 << 20);
    assert_ne!(a, b);
    // Every byte value occurs in 1 MiB of uniform bytes (expected count 4096 each).
    let mut seen = [0u32; 256];
    for &x in &a {
        seen[x as usize] += 1;
    }
    assert!(seen.iter().all(|&c| c > 3500 && c < 4700), "byte counts {seen:?}");
}

#[test]
fn bad_sizes_fail_with_status_2_and_a_message() {
    for arg in ["", "-1", "1X", "1.5M", "0x10", "99999999999G", "18446744073709551616", "K"] {
        let out = run(&["-n", arg]);
        assert_eq!(out.status.code(), Some(2), "-n {arg:?}");
        assert!(out.stdout.is_empty(), "-n {arg:?} wrote to stdout");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("randp-cat: invalid size"), "-n {arg:?}: {err}");
        assert!(err.contains("usage: randp-cat"), "-n {arg:?}: {err}");
    }
}

#[test]
fn bad_arguments_fail_with_status_2() {
    for args in [&["-n"][..], &["-x"], &["100"], &["-n", "1", "-n", "2"]] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty());
        assert!(String::from_utf8_lossy(&out.stderr).starts_with("randp-cat: "), "{args:?}");
    }
}

#[test]
fn non_utf8_size_fails_with_status_2() {
    use std::os::unix::ffi::OsStrExt;
    let out = command(BIN).arg("-n").arg(std::ffi::OsStr::from_bytes(b"1\xffK")).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert!(String::from_utf8_lossy(&out.stderr).contains("randp-cat: invalid size"));
}

#[test]
fn help_goes_to_stdout_with_status_0() {
    let out = run(&["-h"]);
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("-n SIZE"));
    assert!(out.stderr.is_empty());
}

/// Reads `n` bytes, then closes the read end and returns the exit status and stderr.
fn close_pipe_after(args: &[&str], n: usize) -> (std::process::ExitStatus, String) {
    let mut child = command(BIN)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn randp-cat");
    let mut pipe = child.stdout.take().unwrap();
    let mut buf = vec![0u8; n];
    pipe.read_exact(&mut buf).unwrap();
    drop(pipe);
    let mut err = String::new();
    child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
    (child.wait().unwrap(), err)
}

#[test]
fn closed_pipe_ends_silently_with_status_0() {
    for (args, n) in [(&[][..], 1usize), (&[], 3 << 20), (&["-n", "1G"], 4096)] {
        let (status, err) = close_pipe_after(args, n);
        assert!(status.success(), "{args:?} after {n}: {status:?}");
        assert!(err.is_empty(), "{args:?}: stderr {err:?}");
    }
}

/// Writing into a pipe, randp-cat grows the pipe buffer to its 1 MiB chunk
/// (when the system's pipe-max-size allows it), one wake-up per chunk.
#[test]
fn pipe_buffer_is_grown_to_one_chunk() {
    use std::os::fd::AsRawFd;
    let max: i64 = std::fs::read_to_string("/proc/sys/fs/pipe-max-size").unwrap().trim().parse().unwrap();
    let mut child = command(BIN).stdout(Stdio::piped()).spawn().unwrap();
    let mut pipe = child.stdout.take().unwrap();
    let mut b = [0u8; 1];
    pipe.read_exact(&mut b).unwrap(); // randp-cat has started writing
    // SAFETY: F_GETPIPE_SZ only queries the pipe behind our open descriptor.
    let size = unsafe { libc::fcntl(pipe.as_raw_fd(), libc::F_GETPIPE_SZ) };
    drop(pipe);
    assert!(child.wait().unwrap().success());
    if max >= 1 << 20 {
        assert_eq!(size, 1 << 20);
    } else {
        assert!(size > 0);
    }
}

#[test]
fn full_disk_is_an_error_with_status_1() {
    let full = std::fs::OpenOptions::new().write(true).open("/dev/full").expect("/dev/full");
    let out = command(BIN).args(["-n", "1M"]).stdout(full).stderr(Stdio::piped()).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("randp-cat: write error") && err.contains("No space left"), "{err}");
}

/// With fd 1 closed at exec, Rust's runtime opens /dev/null on it before
/// main: the bytes are discarded and the run succeeds (and never hangs).
#[test]
fn closed_stdout_descriptor_is_defined() {
    let mut cmd = command(BIN);
    cmd.args(["-n", "1M"]).stderr(Stdio::piped());
    // SAFETY: close(2) is async-signal-safe, as pre_exec requires; it only
    // affects the child between fork and exec.
    unsafe {
        cmd.pre_exec(|| {
            libc::close(1);
            Ok(())
        });
    }
    let out = cmd.output().unwrap();
    assert!(out.status.success(), "{:?} {}", out.status, String::from_utf8_lossy(&out.stderr));
    assert!(out.stderr.is_empty());
}
