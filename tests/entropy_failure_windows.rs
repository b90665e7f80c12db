//! Windows: randp gives up when ProcessPrng fails, at the first seed or at
//! a later reseed, on any thread: the process ends with randp's message,
//! `__fastfail`'s status (STATUS_STACK_BUFFER_OVERRUN) and no output. Each
//! case runs in a child process (this binary re-run with a role), which
//! makes ProcessPrng fail by setting RANDP_TEST_PROCESSPRNG_FAIL in its own
//! environment: the switch of the stand-in bcryptprimitives.dll that `make
//! test-windows` installs in its wine prefix (Debian's wine 8.0 has none).
//! Where the system's own ProcessPrng is loaded (Windows itself), it cannot
//! be made to fail, and the test says so on stderr; where the stand-in was
//! installed (`make test-windows` sets RANDP_TEST_REQUIRE_STAND_IN), another
//! ProcessPrng loaded instead (a wine that ships its own and prefers it) is a
//! failure, not a skip. The Linux counterpart,
//! with getrandom(2) failing under seccomp, is tests/abort_paths.rs.
#![cfg(windows)]

use std::io::Write;
use std::process::Command;

const ROLE: &str = "RANDP_TEST_ROLE";
const SWITCH: &str = "RANDP_TEST_PROCESSPRNG_FAIL";
/// Set where the stand-in is installed: its absence is then a failure.
const REQUIRE_STAND_IN: &str = "RANDP_TEST_REQUIRE_STAND_IN";
const MESSAGE: &str = "randp: the OS entropy source failed (ProcessPrng:";
/// `__fastfail`'s exit status.
const FASTFAIL: i32 = 0xC000_0409_u32 as i32;

fn fail_from_now_on() {
    // SAFETY: the child is single-threaded here, and the variable is read
    // only by the stand-in's ProcessPrng.
    unsafe { std::env::set_var(SWITCH, "1") };
}

fn child(role: &str) {
    let mut out = std::io::stdout();
    match role {
        "first-seed" => {
            fail_from_now_on();
            let mut b = [0u8; 64];
            randp::fill_bytes(&mut b);
            out.write_all(&b).unwrap();
        }
        "reseed" => {
            let mut b = vec![0u8; 4096];
            randp::fill_bytes(&mut b); // seeded while the OS still answers
            fail_from_now_on();
            // More than one reseed interval (1 MiB) must need the OS again.
            let mut big = vec![0u8; 2 << 20];
            randp::fill_bytes(&mut big);
            out.write_all(&big).unwrap();
        }
        "u64-first-seed" => {
            fail_from_now_on();
            out.write_all(&randp::u64().to_ne_bytes()).unwrap();
        }
        "other-thread-after-seed" => {
            let _ = randp::u64();
            fail_from_now_on();
            let x = std::thread::spawn(randp::u64).join().unwrap();
            out.write_all(&x.to_ne_bytes()).unwrap();
        }
        other => panic!("unknown role {other}"),
    }
    out.flush().unwrap();
    std::process::exit(0);
}

/// Whether the stand-in bcryptprimitives.dll, whose ProcessPrng can be
/// made to fail, is the one this process loaded.
fn stand_in_loaded() -> bool {
    use windows_sys::Win32::System::LibraryLoader::{GetModuleHandleA, GetProcAddress};
    let mut b = [0u8; 8];
    randp::fill_bytes(&mut b); // bcryptprimitives.dll is loaded by now
    // SAFETY: NUL-terminated names; the module handle is not kept.
    unsafe {
        let m = GetModuleHandleA(c"bcryptprimitives.dll".as_ptr().cast());
        !m.is_null() && GetProcAddress(m, c"randp_test_processprng_stand_in".as_ptr().cast()).is_some()
    }
}

#[test]
fn processprng_failure_aborts_with_a_message_and_no_output() {
    if let Ok(role) = std::env::var(ROLE) {
        child(&role);
    }
    if !stand_in_loaded() {
        assert!(
            std::env::var_os(REQUIRE_STAND_IN).is_none(),
            "{REQUIRE_STAND_IN} is set, but the stand-in bcryptprimitives.dll is not the one loaded"
        );
        eprintln!("SKIPPED: the system's ProcessPrng is loaded, which cannot be made to fail");
        return;
    }
    for role in ["first-seed", "reseed", "u64-first-seed", "other-thread-after-seed"] {
        let out = Command::new(std::env::current_exe().unwrap())
            .args(["--exact", "processprng_failure_aborts_with_a_message_and_no_output", "--nocapture"])
            .env(ROLE, role)
            .env_remove(SWITCH)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(FASTFAIL), "{role}: status {:?}, stderr {stderr}", out.status);
        assert!(stderr.contains(MESSAGE), "{role}: stderr was {stderr:?}");
        // The harness's own line aside, nothing reached stdout.
        let rest = out.stdout.strip_prefix(b"\nrunning 1 test\n").unwrap_or(&out.stdout);
        assert!(rest.is_empty(), "{role}: {} bytes reached stdout", rest.len());
    }
}
