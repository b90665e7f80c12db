//! The extension of a thread's state: the three pages after its state page
//! that its buffer grows into, so that a refill (and its key rotation)
//! serves 15,616 bytes instead of 3,328. Each case runs in a child process
//! of its own, and reads the kernel's account of the mappings
//! (/proc/self/smaps):
//! - attached: not locked by a thread's first draw; locked (`lo`), wiped on
//!   fork (`wf`), left out of dumps (`dd`) and never droppable from the
//!   next refill on, while the state page is droppable where the kernel has
//!   MAP_DROPPABLE; every byte handed out from it is zeroed there;
//! - refused: a seccomp filter makes the extension's mlock fail, as
//!   RLIMIT_MEMLOCK would: the buffer stays on the state page and the
//!   extension is never written;
//! - faked: a seccomp filter makes that mlock return 0 without locking
//!   anything: randp sees that no lock took effect and refuses the
//!   extension for the whole process (unlocked, its keystream could be
//!   swapped out);
//! - fork: a child forked while unread bytes lie in the parent's extension
//!   finds its extension zeroed and its state unseeded, never outputs its
//!   parent's bytes, and locks its extension again (a lock is not inherited)
//!   before its buffer grows into it;
//! - dropped: the kernel drops the state page (MADV_PAGEOUT on a droppable
//!   page) while unread keystream lies in the extension, which is not
//!   droppable and keeps it: the next draw, whose fast path finds the page
//!   zeroed and declines, must zero those bytes before it refills, and the
//!   extension stays zero until the thread attaches it again (skipped, and
//!   said so, where the state page is not droppable: Linux < 6.11);
//! - not-droppable: a seccomp filter makes mmap(MAP_DROPPABLE) fail as on
//!   kernels before 6.11, where the state page is kept out of core dumps and
//!   swap by advice alone: its flags must show wiped on fork (`wf`), left out
//!   of dumps (`dd`), and locked (`lo`) unless RLIMIT_MEMLOCK is below what
//!   the page and its extension need. On a kernel with MAP_DROPPABLE no other
//!   test takes this path: `attached` and tests/core_file.rs pass with the
//!   state page's MADV_DONTDUMP or mlock removed (a droppable page is left
//!   out of dumps and swap by the kernel anyway).

mod support;
use support::{
    ROLE, assert_child_ok, assert_unique, blocks, fail_syscall, skip_under_emulator, skip_without_seccomp, write_all,
};

const PAGE: usize = 4096;
const STATE_BUFFER: usize = 3328;
const EXTENDED_BUFFER: usize = 15616;

/// The address range and `VmFlags` of the mapping that holds `addr`.
fn mapping_of(addr: usize) -> (usize, usize, Vec<String>) {
    let smaps = std::fs::read_to_string("/proc/self/smaps").expect("read /proc/self/smaps");
    let mut current = None;
    for line in smaps.lines() {
        let first = line.split_whitespace().next().unwrap_or("");
        if let Some((lo, hi)) = first.split_once('-')
            && let (Ok(lo), Ok(hi)) = (usize::from_str_radix(lo, 16), usize::from_str_radix(hi, 16))
        {
            current = Some((lo, hi));
        } else if let (Some(flags), Some((lo, hi))) = (line.strip_prefix("VmFlags:"), current)
            && lo <= addr
            && addr < hi
        {
            return (lo, hi, flags.split_whitespace().map(String::from).collect());
        }
    }
    panic!("no mapping holds {addr:#x}");
}

fn has(flags: &[String], f: &str) -> bool {
    flags.iter().any(|x| x == f)
}

/// This thread's state page (asking for it is a call like any other: once
/// the first refill is behind it, the call attaches the extension).
fn state() -> usize {
    randp::internals::thread_state_address().expect("a userspace state")
}

/// This thread's extension, as it is now.
fn extension_bytes() -> Vec<u8> {
    let mut s = vec![0u8; randp::internals::STATE_MAPPING_LEN];
    assert!(randp::internals::copy_thread_state(&mut s));
    s.split_off(PAGE)
}

/// Draws `n` bytes in calls of 1,000 (served from the buffer, below the
/// size that is written straight to the caller).
fn draw(n: usize) -> Vec<u8> {
    let mut out = vec![0u8; n];
    for c in out.chunks_mut(1000) {
        randp::fill_bytes(c);
    }
    out
}

fn attached() {
    assert_eq!(randp::internals::STATE_MAPPING_LEN, 4 * PAGE);
    let p = state(); // maps the state; asks nothing before a refill
    let _ = randp::u64();
    let (_, _, flags) = mapping_of(p + PAGE);
    assert!(!has(&flags, "lo"), "a thread's first draw locks nothing: {flags:?}");

    let out = draw(2 * EXTENDED_BUFFER);
    assert_eq!(randp::internals::thread_buffer_len(), Some(EXTENDED_BUFFER));
    let (lo, hi, flags) = mapping_of(p + PAGE);
    assert!(lo <= p + PAGE && p + 4 * PAGE <= hi, "one mapping holds the extension");
    for f in ["lo", "wf", "dd"] {
        assert!(has(&flags, f), "the extension's flags {flags:?} lack {f}");
    }
    assert!(!has(&flags, "dp"), "the extension is never droppable: {flags:?}");
    let (_, _, page) = mapping_of(p);
    if randp::internals::state_mapping() == Some("droppable") {
        assert!(has(&page, "dp") && !has(&page, "lo"), "the state page: {page:?}");
    }
    assert_unique(blocks(&out), "attached");

    // Empty the buffer to where the extension's bytes start, and hand out
    // some of them: those read back as zero, the rest is unread keystream.
    // (The u64's 8 bytes and the first 3,328-byte refill came first.)
    let at = (8 + out.len() - STATE_BUFFER) % EXTENDED_BUFFER;
    let left = (EXTENDED_BUFFER - at) % EXTENDED_BUFFER;
    let _ = draw(left);
    let _ = draw(STATE_BUFFER + 1000);
    let ext = extension_bytes();
    assert!(ext[..1000].iter().all(|&b| b == 0), "bytes handed out from the extension are zeroed there");
    assert!(ext[1000..].iter().filter(|&&b| b == 0).count() < 200, "unread keystream fills the rest");
}

fn refused(faked: bool) {
    let errno = if faked { 0 } else { libc::EPERM };
    fail_syscall(libc::SYS_mlock, errno, Some((1, (3 * PAGE) as u32)));
    let mut out = draw(4 * EXTENDED_BUFFER);
    assert_eq!(randp::internals::thread_buffer_len(), Some(STATE_BUFFER), "the buffer stays on the state page");
    assert!(extension_bytes().iter().all(|&b| b == 0), "an unlocked extension is never written");
    let (_, _, flags) = mapping_of(state() + PAGE);
    assert!(!has(&flags, "lo"), "{flags:?}");
    // Another thread asks again, with the same answer.
    let (len, theirs) = std::thread::spawn(|| {
        let b = draw(2 * EXTENDED_BUFFER);
        (randp::internals::thread_buffer_len(), b)
    })
    .join()
    .unwrap();
    assert_eq!(len, Some(STATE_BUFFER));
    out.extend_from_slice(&theirs);
    assert_unique(blocks(&out), if faked { "faked" } else { "refused" });
}

fn fork() {
    const FORKS: usize = 50;
    let mut out = draw(EXTENDED_BUFFER);
    assert_eq!(randp::internals::thread_buffer_len(), Some(EXTENDED_BUFFER));
    for i in 0..FORKS {
        // The next unread bytes lie in the extension.
        out.extend_from_slice(&draw(STATE_BUFFER + 7 + i % 5 * 1000));
        let mut pipe = [0; 2];
        // SAFETY: `pipe` has room for the two descriptors.
        assert_eq!(unsafe { libc::pipe(pipe.as_mut_ptr()) }, 0);
        // SAFETY: the child draws, checks, writes to the pipe and calls _exit.
        let pid = unsafe { libc::fork() };
        if pid == 0 {
            let wiped = extension_bytes().iter().all(|&b| b == 0);
            let mut b = [0u8; 64];
            randp::fill_bytes(&mut b);
            let first = randp::internals::thread_buffer_len();
            let more = draw(EXTENDED_BUFFER);
            let (_, _, flags) = mapping_of(state() + PAGE);
            let relocked = randp::internals::thread_buffer_len() == Some(EXTENDED_BUFFER) && has(&flags, "lo");
            write_all(pipe[1], &b);
            write_all(pipe[1], &more[..64]);
            let ok = wiped && first == Some(EXTENDED_BUFFER) && relocked;
            // SAFETY: leaves the forked child without running the parent's destructors.
            unsafe { libc::_exit(if ok { 0 } else { 1 }) };
        }
        // SAFETY: closing our write end.
        unsafe { libc::close(pipe[1]) };
        let mut b = [0u8; 64];
        randp::fill_bytes(&mut b);
        out.extend_from_slice(&b);
        let mut got = [0u8; 128];
        let mut n = 0;
        while n < got.len() {
            // SAFETY: reading into the rest of `got`.
            let r = unsafe { libc::read(pipe[0], got[n..].as_mut_ptr().cast(), got.len() - n) };
            assert!(r > 0, "the child wrote 128 bytes");
            n += r as usize;
        }
        out.extend_from_slice(&got);
        let mut status = 0;
        // SAFETY: reaping the child and closing the read end.
        unsafe {
            libc::waitpid(pid, &mut status, 0);
            libc::close(pipe[0]);
        }
        assert!(
            libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
            "fork {i}: the child's extension was not zeroed, or not locked again before use"
        );
    }
    assert_unique(blocks(&out), "fork");
}

/// Drops the droppable state page at `p` (MADV_PAGEOUT: a droppable page is
/// dropped, not written out, and reads back as zeroes) and returns whether
/// it is gone (mincore). Reclaim can pass a page over while the kernel is
/// still adding it to its lists: ask a few times.
fn drop_state_page(p: usize) -> bool {
    let mut resident = 1u8;
    for _ in 0..20 {
        // SAFETY: `p` is this thread's state page, mapped; advice and a
        // residency query touch no memory of ours but `resident`.
        let gone = unsafe {
            libc::madvise(p as *mut libc::c_void, PAGE, libc::MADV_PAGEOUT);
            libc::mincore(p as *mut libc::c_void, PAGE, &mut resident) == 0 && resident & 1 == 0
        };
        if gone {
            return true;
        }
        std::thread::yield_now();
    }
    false
}

fn dropped() {
    // One CPU: a page faulted in on one CPU can wait in that CPU's batch of
    // pages for the reclaim lists, where MADV_PAGEOUT made on another does
    // not find it.
    // SAFETY: sched_getcpu and sched_setaffinity with a valid set affect
    // this process only.
    unsafe {
        let mut set: libc::cpu_set_t = core::mem::zeroed();
        libc::CPU_SET(libc::sched_getcpu() as usize, &mut set);
        assert_eq!(libc::sched_setaffinity(0, size_of::<libc::cpu_set_t>(), &set), 0);
    }
    let _ = draw(2 * EXTENDED_BUFFER);
    assert_eq!(randp::internals::thread_buffer_len(), Some(EXTENDED_BUFFER));
    assert_eq!(randp::internals::state_mapping(), Some("droppable"));
    // Leave the whole extension unread: 31,232 bytes drawn end 12,288 bytes
    // into the second extended buffer; 4,328 more take its last 3,328 and
    // the next buffer's first 1,000, on the state page.
    let out = draw(STATE_BUFFER + 1000);
    let unread = extension_bytes().iter().filter(|&&b| b != 0).count();
    assert!(unread > 10_000, "{unread} unread bytes in the extension before the drop");
    let p = state();
    assert!(drop_state_page(p), "MADV_PAGEOUT left the droppable state page resident");
    let v = randp::u64();
    assert_ne!(v, 0, "the first draw after the drop");
    let ext = extension_bytes();
    let left = ext.iter().filter(|&&b| b != 0).count();
    assert_eq!(left, 0, "{left} bytes of the dropped state's unread keystream are left in the extension");
    let mut all = out;
    all.extend_from_slice(&v.to_le_bytes());
    all.extend_from_slice(&draw(2 * EXTENDED_BUFFER));
    assert_eq!(randp::internals::thread_buffer_len(), Some(EXTENDED_BUFFER), "the extension is attached again");
    assert_unique(blocks(&all), "dropped");
}

/// The state page as mapped before Linux 6.11 (see the module docs).
fn not_droppable() {
    let droppable = (libc::MAP_ANONYMOUS | libc::MAP_DROPPABLE) as u32;
    fail_syscall(libc::SYS_mmap, libc::EINVAL, Some((3, droppable)));
    let out = draw(2 * EXTENDED_BUFFER);
    let mapping = randp::internals::state_mapping();
    assert!(matches!(mapping, Some("wipeonfork" | "wipeonfork+mlock")), "{mapping:?}");
    let p = state();
    let (_, _, page) = mapping_of(p);
    for f in ["wf", "dd"] {
        assert!(has(&page, f), "the state page's flags {page:?} lack {f}");
    }
    assert!(!has(&page, "dp"), "MAP_DROPPABLE was refused: {page:?}");
    // SAFETY: rlimit is plain data, and getrlimit fills it.
    let mut lim: libc::rlimit = unsafe { core::mem::zeroed() };
    // SAFETY: `lim` is a valid out-pointer.
    assert_eq!(unsafe { libc::getrlimit(libc::RLIMIT_MEMLOCK, &mut lim) }, 0);
    // The page and its extension, with room to spare for anything else.
    if lim.rlim_cur == libc::RLIM_INFINITY || lim.rlim_cur >= 16 * PAGE as libc::rlim_t {
        assert!(
            has(&page, "lo"),
            "RLIMIT_MEMLOCK {} allows it, yet the state page {page:?} is not locked",
            lim.rlim_cur
        );
    } else {
        eprintln!(
            "state_extension: not-droppable: RLIMIT_MEMLOCK {} is low, the state page's lock is not checked",
            lim.rlim_cur
        );
    }
    assert_unique(blocks(&out), "not-droppable");
}

fn child(role: &str) {
    match role {
        "not-droppable" => not_droppable(),
        "attached" => attached(),
        "refused" => refused(false),
        "faked" => refused(true),
        "fork" => fork(),
        "dropped" => dropped(),
        _ => unreachable!("{role}"),
    }
    write_all(1, b"ok");
    std::process::exit(0);
}

fn main() {
    if let Ok(role) = std::env::var(ROLE) {
        child(&role);
    }
    if skip_under_emulator(
        "state_extension: every case",
        !randp::uses_userspace_generator(),
        "randp keeps no userspace state here (qemu-user ignores MADV_WIPEONFORK)",
    ) {
        println!("state_extension: 0 passed, 0 failed, 6 skipped");
        return;
    }
    let mut roles = vec!["attached", "fork"];
    if randp::internals::state_mapping() == Some("droppable") {
        roles.push("dropped");
    } else {
        eprintln!(
            "SKIPPED: state_extension: dropped: the state page is not droppable here (Linux < 6.11): no drop to test"
        );
    }
    if !skip_without_seccomp("state_extension: refused and faked locks") {
        roles.extend(["refused", "faked", "not-droppable"]);
    }
    for role in &roles {
        assert_child_ok(role);
    }
    println!("state_extension: {} passed, 0 failed, {} skipped", roles.len(), 6 - roles.len());
}
