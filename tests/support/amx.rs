//! AMX tile data, the largest part of an x86_64 signal frame: whether this
//! process may use it, and putting it in use on a thread.

const ARCH_REQ_XCOMP_PERM: libc::c_int = 0x1023;
const XFEATURE_XTILEDATA: libc::c_ulong = 18;

/// Whether this CPU has AMX tiles (CPUID.7.0:EDX bit 24) and the kernel
/// lets this process use them (asked in a child, as the permission, once
/// given, is the whole process's).
pub fn amx_supported() -> bool {
    // CPUID leaf 7 exists on every CPU with AES-NI.
    let tile = core::arch::x86_64::__cpuid_count(7, 0).edx >> 24 & 1 == 1;
    tile && {
        // SAFETY: the child only makes one system call and leaves.
        let pid = unsafe { libc::fork() };
        if pid == 0 {
            // SAFETY: arch_prctl with an integer argument; _exit never returns.
            unsafe {
                let r = libc::syscall(libc::SYS_arch_prctl, ARCH_REQ_XCOMP_PERM, XFEATURE_XTILEDATA);
                libc::_exit(if r == 0 { 0 } else { 1 })
            }
        }
        let mut status = 0;
        // SAFETY: waiting for the child just forked.
        unsafe { libc::waitpid(pid, &mut status, 0) };
        libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0
    }
}

/// Puts AMX tile data in use on this thread (tile 0 configured, 16 rows of
/// 64 bytes, and zeroed), so that every signal frame the kernel writes for
/// it from now on holds the tile data: the largest frame there is.
pub fn use_amx_tiles() {
    // SAFETY: arch_prctl with an integer argument.
    let r = unsafe { libc::syscall(libc::SYS_arch_prctl, ARCH_REQ_XCOMP_PERM, XFEATURE_XTILEDATA) };
    assert_eq!(r, 0, "AMX permission");
    let mut cfg = [0u8; 64];
    cfg[0] = 1; // palette 1
    cfg[16..18].copy_from_slice(&64u16.to_le_bytes()); // tile 0: 64 bytes a row
    cfg[48] = 16; // tile 0: 16 rows
    // SAFETY: the CPU has AMX and the process has permission (above); the
    // configuration is 64 valid bytes; only tile state changes.
    unsafe { core::arch::asm!("ldtilecfg [{0}]", "tilezero tmm0", in(reg) cfg.as_ptr(), options(nostack)) };
}
