//! `randp-cat`: write random bytes from randp to standard output.
//!
//! ```text
//! randp-cat            # unbounded stream, until the reader closes the pipe
//! randp-cat -n SIZE    # exactly SIZE bytes
//! randp-cat --backend  # print the keystream backend in use, and exit
//! ```
//!
//! SIZE is a decimal byte count with an optional suffix `K`, `M` or `G`
//! (case-insensitive), meaning powers of 1024: `-n 1K` is 1024 bytes,
//! `-n 3M` is 3 145 728 bytes. Sizes that do not fit in 64 bits are rejected.
//!
//! Exit status: 0 when all requested bytes were written or the reader closed
//! the pipe (EPIPE ends the stream silently, like `yes` or `cat` in a
//! pipeline); 1 on any other write error (message on stderr); 2 on a bad
//! command line (message and usage on stderr).

use std::fs::File;
use std::io::{self, Write};
#[cfg(unix)]
use std::os::fd::{AsFd, AsRawFd};
#[cfg(windows)]
use std::os::windows::io::AsHandle;
use std::process::ExitCode;

/// Bytes generated and written per `write` call.
const CHUNK: usize = 1 << 20;

const USAGE: &str = "\
usage: randp-cat [-n SIZE] | randp-cat --backend
Write unpredictable random bytes from randp to standard output.

  -n SIZE   write exactly SIZE bytes, then exit (default: write until the
            reader closes the pipe). SIZE is a decimal number with an
            optional suffix K, M or G (case-insensitive, powers of 1024).
  --backend print the keystream backend in use (vaes512, vaes256, aesni or
            portable) and whether draws use the userspace generator, and exit
  -h        print this help and exit
";

/// What the command line asks for.
#[derive(Debug, PartialEq, Eq)]
enum Command {
    /// Print the usage text.
    Help,
    /// Print the keystream backend.
    Backend,
    /// Write `Some(n)` bytes, or an unbounded stream for `None`.
    Write(Option<u64>),
}

/// Parses a SIZE argument: decimal digits with an optional K/M/G suffix
/// (powers of 1024). Rejects empty strings, signs, other suffixes,
/// whitespace and values above `u64::MAX`.
fn parse_size(s: &str) -> Result<u64, String> {
    let bad = |why: &str| format!("invalid size {s:?}: {why}");
    let (digits, shift) = match s.as_bytes().last() {
        Some(b'k' | b'K') => (&s[..s.len() - 1], 10),
        Some(b'm' | b'M') => (&s[..s.len() - 1], 20),
        Some(b'g' | b'G') => (&s[..s.len() - 1], 30),
        _ => (s, 0),
    };
    if digits.is_empty() {
        return Err(bad("expected a number of bytes such as 4096, 64K, 3M or 1G"));
    }
    if !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad("expected decimal digits with an optional K, M or G suffix"));
    }
    let n: u64 = digits.parse().map_err(|_| bad("too large"))?;
    n.checked_mul(1u64 << shift).ok_or_else(|| bad("too large"))
}

/// Parses the arguments after the program name.
fn parse_args<I: IntoIterator<Item = String>>(args: I) -> Result<Command, String> {
    let mut args = args.into_iter();
    let mut size = None;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "-h" | "--help" => return Ok(Command::Help),
            "--backend" => return Ok(Command::Backend),
            "-n" => {
                let value = args.next().ok_or("option -n needs a SIZE")?;
                if size.replace(parse_size(&value)?).is_some() {
                    return Err("option -n given more than once".into());
                }
            }
            other => return Err(format!("unexpected argument {other:?}")),
        }
    }
    Ok(Command::Write(size))
}

/// Writes `limit` random bytes (unbounded for `None`) to `out`.
fn stream(out: &mut impl Write, limit: Option<u64>) -> io::Result<()> {
    let mut buf = vec![0u8; CHUNK];
    let mut left = limit;
    loop {
        let n = match left {
            Some(0) => return Ok(()),
            Some(l) => usize::try_from(l).map_or(CHUNK, |l| l.min(CHUNK)),
            None => CHUNK,
        };
        randp::fill_bytes(&mut buf[..n]);
        out.write_all(&buf[..n])?;
        if let Some(l) = left.as_mut() {
            *l -= n as u64;
        }
    }
}

/// If standard output is a pipe, asks the kernel for a pipe buffer of one
/// chunk (the default is 64 KiB), so that each write wakes the reader once
/// instead of sixteen times. Failure (not a pipe, or above the system's
/// pipe-max-size) changes nothing and is ignored. (Linux only: a Windows
/// pipe's buffer is set by its creator.)
#[cfg(unix)]
fn grow_pipe(out: &File) {
    let fd = out.as_raw_fd();
    // SAFETY: F_SETPIPE_SZ on a descriptor we own only resizes the kernel's
    // pipe buffer; on anything but a pipe it fails with EBADF or EINVAL.
    unsafe { libc::fcntl(fd, libc::F_SETPIPE_SZ, CHUNK as libc::c_int) };
}

#[cfg(windows)]
fn grow_pipe(_out: &File) {}

/// A duplicate of standard output (fd 1, or the standard output handle) as
/// an unbuffered File: std's Stdout is line-buffered and would scan every
/// chunk for newlines.
fn raw_stdout() -> io::Result<File> {
    #[cfg(unix)]
    return io::stdout().as_fd().try_clone_to_owned().map(File::from);
    #[cfg(windows)]
    return io::stdout().as_handle().try_clone_to_owned().map(File::from);
}

fn main() -> ExitCode {
    // Arguments that are not UTF-8 become U+FFFD and are then rejected.
    let args = std::env::args_os().skip(1).map(|a| a.to_string_lossy().into_owned());
    let command = match parse_args(args) {
        Ok(c) => c,
        Err(msg) => {
            eprint!("randp-cat: {msg}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let limit = match command {
        Command::Help => {
            print!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Command::Backend => {
            let userspace = randp::uses_userspace_generator();
            println!("{} userspace={userspace}", randp::keystream_backend());
            return ExitCode::SUCCESS;
        }
        Command::Write(limit) => limit,
    };
    let mut out = match raw_stdout() {
        Ok(f) => f,
        Err(e) => {
            eprintln!("randp-cat: cannot use standard output: {e}");
            return ExitCode::from(1);
        }
    };
    grow_pipe(&out);
    match stream(&mut out, limit) {
        Ok(()) => ExitCode::SUCCESS,
        // The reader went away: a pipeline such as `randp-cat | head -c 1M`
        // ends normally. Rust ignores SIGPIPE, so this arrives as EPIPE.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("randp-cat: write error: {e}");
            ExitCode::from(1)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_with_suffixes_are_powers_of_1024() {
        assert_eq!(parse_size("0"), Ok(0));
        assert_eq!(parse_size("1"), Ok(1));
        assert_eq!(parse_size("4096"), Ok(4096));
        assert_eq!(parse_size("1K"), Ok(1024));
        assert_eq!(parse_size("1k"), Ok(1024));
        assert_eq!(parse_size("3M"), Ok(3 << 20));
        assert_eq!(parse_size("2g"), Ok(2 << 30));
        assert_eq!(parse_size("18446744073709551615"), Ok(u64::MAX));
        assert_eq!(parse_size("17179869183G"), Ok(17179869183 << 30));
    }

    #[test]
    fn bad_sizes_are_rejected() {
        for s in [
            "",
            "K",
            "-1",
            "+1",
            "1X",
            "1KB",
            "1.5M",
            " 1",
            "1 ",
            "0x10",
            "1e3",
            "18446744073709551616",
            "17179869184G",
            "99999999999G",
            "١",
        ] {
            assert!(parse_size(s).is_err(), "{s:?} accepted");
        }
    }

    #[test]
    fn arguments() {
        let p = |v: &[&str]| parse_args(v.iter().map(|s| s.to_string()));
        assert_eq!(p(&[]), Ok(Command::Write(None)));
        assert_eq!(p(&["-n", "1K"]), Ok(Command::Write(Some(1024))));
        assert_eq!(p(&["-h"]), Ok(Command::Help));
        assert_eq!(p(&["--help"]), Ok(Command::Help));
        assert_eq!(p(&["--backend"]), Ok(Command::Backend));
        assert!(p(&["-n"]).is_err());
        assert!(p(&["-n", "1", "-n", "2"]).is_err());
        assert!(p(&["-x"]).is_err());
        assert!(p(&["10"]).is_err());
    }

    #[test]
    fn stream_writes_exactly_the_limit() {
        for n in [0u64, 1, 15, CHUNK as u64 - 1, CHUNK as u64, CHUNK as u64 + 1] {
            let mut v = Vec::new();
            stream(&mut v, Some(n)).unwrap();
            assert_eq!(v.len() as u64, n);
        }
    }
}
