//! A VM snapshot and its restore, modelled on one stopped, traced process:
//! every writable mapping and the registers saved, later written back; and
//! what a restored VM's kernel does to its RNG (the vmgenid driver's
//! crng_reseed). Used by tests/vm_restore.rs and the single-step test.

use std::collections::HashSet;
use std::os::unix::fs::FileExt;

#[cfg(not(target_env = "musl"))]
type Request = libc::c_uint;
#[cfg(target_env = "musl")]
type Request = libc::c_int;

/// A stopped tracee's writable mappings, their bytes, and its registers.
pub struct Snapshot {
    regions: Vec<(usize, Vec<u8>)>,
    regs: libc::user_regs_struct,
}

/// Saves the writable mappings and registers of `pid`, a tracee stopped
/// under this process.
pub fn snapshot(pid: libc::pid_t) -> Snapshot {
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
        mem.read_exact_at(&mut bytes, a as u64).unwrap_or_else(|e| panic!("read {line}: {e}"));
        regions.push((a, bytes));
    }
    // SAFETY: user_regs_struct is plain integers, valid when zeroed.
    let mut regs: libc::user_regs_struct = unsafe { std::mem::zeroed() };
    // SAFETY: PTRACE_GETREGS of our stopped tracee into `regs`.
    let r = unsafe {
        libc::ptrace(libc::PTRACE_GETREGS as Request, pid, std::ptr::null_mut::<libc::c_void>(), &raw mut regs)
    };
    assert_eq!(r, 0, "PTRACE_GETREGS: {}", std::io::Error::last_os_error());
    Snapshot { regions, regs }
}

impl Snapshot {
    /// The `len` bytes at `addr` as saved, if one writable mapping held
    /// them all.
    pub fn bytes_at(&self, addr: usize, len: usize) -> Option<&[u8]> {
        let (start, bytes) = self.regions.iter().find(|(a, b)| (*a..*a + b.len()).contains(&addr))?;
        bytes.get(addr - start..addr - start + len)
    }
}

/// Writes `s` back into `pid`, stopped under this process: every mapping
/// saved (each must still be there) and the registers.
pub fn restore(pid: libc::pid_t, s: &Snapshot) {
    let mem = std::fs::OpenOptions::new().write(true).open(format!("/proc/{pid}/mem")).unwrap();
    for (a, bytes) in &s.regions {
        mem.write_all_at(bytes, *a as u64).unwrap_or_else(|e| panic!("write back {a:#x}: {e}"));
    }
    // SAFETY: PTRACE_SETREGS of our stopped tracee from `s.regs`.
    let r = unsafe {
        libc::ptrace(libc::PTRACE_SETREGS as Request, pid, std::ptr::null_mut::<libc::c_void>(), &raw const s.regs)
    };
    assert_eq!(r, 0, "PTRACE_SETREGS: {}", std::io::Error::last_os_error());
}

/// Makes the kernel reseed its RNG, as the vmgenid driver does on a restored
/// VM (ioctl RNDRESEEDCRNG, as root), which moves the generation the vDSO's
/// getrandom checks. Where that is refused, zeroes the vDSO state at the
/// start of the thread state page of `pid` (single-threaded, stopped), which
/// makes the vDSO fetch a new key from the kernel as a reseed would. Returns
/// which it did.
pub fn reseed_kernel(pid: libc::pid_t) -> &'static str {
    const RNDRESEEDCRNG: libc::c_ulong = 0x5207;
    let f = std::fs::File::open("/dev/urandom").unwrap();
    use std::os::fd::AsRawFd;
    // SAFETY: an ioctl with no argument on our own descriptor.
    if unsafe { libc::ioctl(f.as_raw_fd(), RNDRESEEDCRNG as _) } == 0 {
        return "ioctl RNDRESEEDCRNG";
    }
    let mem = std::fs::OpenOptions::new().write(true).open(format!("/proc/{pid}/mem")).unwrap();
    mem.write_all_at(&[0u8; 192], state_page(pid) as u64).unwrap();
    "a zeroed vDSO state (not root)"
}

/// The thread state page of `pid` (the only droppable mapping of one page,
/// followed by its extension), from its smaps.
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
    panic!("no droppable state page in the mappings of {pid}");
}

/// Bytes of `b` (in 8-byte words) that also occur in `a`.
pub fn shared(a: &[u8], b: &[u8]) -> usize {
    let seen: HashSet<&[u8]> = a.chunks_exact(8).collect();
    8 * b.chunks_exact(8).filter(|w| seen.contains(w)).count()
}
