//! Unpredictable random numbers as cheap as predictable ones.
//!
//! randp is a cryptographically secure generator in userspace: AES-256 in
//! counter mode with fast key erasure, one state per thread, reseeded from the
//! operating system, safe across `fork`, and with no way to seed it.
//!
//! ```
//! let mut key = [0u8; 32];
//! randp::fill_bytes(&mut key);
//! let roll = randp::lt_u32(6) + 1;
//! let id = randp::u64();
//! # let _ = (roll, id);
//! ```
//!
//! # Construction
//! Each thread keeps an AES-256 key schedule and a buffer of keystream
//! together in one page of memory of its own (3,328 bytes of buffer; on
//! Linux 15,616 once three more pages, locked in memory, extend it:
//! `internals::thread_buffer_len()` with the `internals` feature). A refill runs
//! AES-256-CTR under the current key from counter zero: blocks 0 and 1 become
//! the next key, whose schedule replaces the old one (which is zeroed), and
//! the rest fill the buffer. Bytes are zeroed in the buffer as they are
//! handed out. Requests of 1,280 bytes or more are written straight into the
//! caller's memory, up to 1 MiB per key. After every 1 MiB of a thread's
//! output, 32 fresh bytes from getrandom(2) are mixed into the key. Where
//! the kernel's vDSO has getrandom (Linux 6.11+ on x86_64, 6.14+ on aarch64),
//! 16 bytes from it are also mixed into the key before every refill and
//! every 64 KiB of direct output (one key then writes at most 64 KiB): the
//! vDSO follows the kernel's reseeds, so two copies of a thread's state (a
//! VM snapshot restored twice) part ways at their next refill once each
//! guest kernel has reseeded. Where the process can read the VMClock
//! device's VM generation counter (Linux 6.13+), a thread records it at
//! each reseed and, from the first reseed at which it reads, compares it
//! before it hands out any byte, buffered or direct: a restored clone then
//! discards its state and reseeds from getrandom(2), and repeats nothing
//! after the call in flight at the snapshot. (Such a thread serves every
//! draw through the slower path that reads the counter, and its buffer
//! stays 3,328 bytes; elsewhere nothing changes.) On x86_64 the keystream
//! comes from kernels on the CPU's AES instructions (VAES-512, VAES-256 or
//! AES-NI, chosen at run time: [`keystream_backend`]) that keep
//! every key in the state or in registers, never on the stack, and run as
//! restartable sequences where the C library registered an rseq area for the
//! thread (glibc 2.35+), with signals blocked around them where it did not
//! (musl, older glibc, `glibc.pthread.rseq=0`), so that a signal that
//! interrupts one leaves no key in its signal frame; elsewhere the keystream
//! comes from the `aes` crate, with signals blocked.
//! No RDRAND or RDSEED is used anywhere.
//!
//! # Security
//! Protected: outputs before a compromise of the state (the key that made
//! them is gone, from the state, from the stack and from signal frames); a
//! thread's outputs from every other thread's; a forked child's from its
//! parent's; a signal handler's from the call it interrupted; anything from
//! an unseeded state (the first output of every thread and every forked
//! child comes after an OS seed). Not protected: outputs after a compromise
//! until the next reseed; the clones of a virtual machine snapshot repeat
//! each other up to their next refill where the vDSO has getrandom and their
//! kernels have reseeded, not at all after the call in flight where they
//! read the VMClock counter, and otherwise up to their next reseed.
//!
//! # Forks
//! The per-thread state lives in memory that the kernel zeroes in a forked
//! child (MAP_DROPPABLE on Linux 6.11+, MADV_WIPEONFORK before), so the child
//! reseeds before its first output. randp checks that the kernel really
//! honours the advice; where it does not (Linux before 4.14, some emulators),
//! no userspace state is kept and every call reads the OS instead: slower,
//! never weaker ([`uses_userspace_generator`]).
//!
//! # Threads and signals
//! Every draw may be made from any thread and from a signal handler. On
//! Linux randp takes no lock and allocates nothing on any path, a thread's
//! first draw included, with one exception on glibc: if more than 32
//! pthread keys existed before randp was loaded, glibc allocates the block
//! for randp's key during each thread's first draw (musl never does), so
//! that draw must not be made in a handler that interrupted `malloc`. A
//! call made from a signal handler that interrupted a randp call on the
//! same thread reads the OS directly, so the two never return the same
//! bytes; a handler that never returns into the interrupted call
//! (`siglongjmp`) leaves that thread reading the OS for all its later
//! draws. A thread's state is zeroed and unmapped when the thread exits;
//! draws made on the thread after that (in later destructors) read the OS.
//! [SECURITY.md] has the exact conditions.
//!
//! [SECURITY.md]: https://github.com/randp/randp/blob/main/SECURITY.md
//!
//! # Panics and aborts
//! Nothing here panics, and no draw returns an error. On Linux the first
//! draw of the process blocks until the kernel's entropy pool is
//! initialised, as getrandom(2) does. If the OS entropy source fails, randp
//! writes `randp: the OS entropy source failed (…); aborting rather than
//! output predictable bytes` to stderr and ends the process rather than
//! return predictable bytes; there is no weaker fallback.
//! - Linux: getrandom(2), or the vDSO's getrandom, fails with any error but
//!   EINTR (which is retried): ENOSYS, EPERM under seccomp, …. randp makes
//!   one write(2) to fd 2, then calls abort(3) (SIGABRT), both safe in a
//!   signal handler. It never reads /dev/urandom or any other file. It also
//!   aborts, with a message of its own, if rt_sigprocmask(2) fails where it
//!   blocks signals around a keystream call.
//! - Windows: ProcessPrng fails (documented never to fail on Windows 10 and
//!   later). randp makes one WriteFile to the standard error handle, then
//!   ends the process with `__fastfail` (exit status 0xC0000409; no
//!   exception handler runs), as `std::process::abort` does.
//!
//! # C and Go
//! The C library (`capi/` in the repository, `include/randp.h`) and the Go
//! module (`go/`) are built on this crate.

#![no_std]

// The supported targets; mk/targets.mk lists the same (SUPPORTED_TARGETS),
// and `make test-unsupported-targets` checks that other targets stop here
// with this message. docs/platforms.md says what a port needs.
#[cfg(not(any(
    all(
        target_os = "linux",
        any(target_env = "gnu", target_env = "musl"),
        any(target_arch = "x86_64", target_arch = "aarch64"),
        target_pointer_width = "64"
    ),
    all(windows, target_arch = "x86_64", target_env = "gnu")
)))]
compile_error!(
    "randp supports only x86_64-unknown-linux-gnu, aarch64-unknown-linux-gnu, x86_64-unknown-linux-musl, \
     aarch64-unknown-linux-musl and x86_64-pc-windows-gnu (Linux with glibc >= 2.34 or musl; Windows \
     tested under wine); see the README's Platforms section"
);

#[cfg(feature = "internals")]
extern crate alloc;
#[cfg(test)]
extern crate std;

mod bounded;
mod draw;
mod entropy;
mod generator;
mod keystream;
mod os;
mod prefault;
mod rng;
mod thread_state;

pub use draw::vm_generation_readable;
pub use draw::{fill_bytes, keystream_backend, lt_u32, lt_u64, u8, u16, u32, u64, uses_userspace_generator};
pub use rand_core;
pub use rng::Randp;

/// Writes `msg` to stderr and ends the process, as randp does when the OS
/// entropy source fails (Linux: one write(2), then abort(3); Windows: one
/// WriteFile, then `__fastfail`). For randp's C library (its panic handler
/// and its NULL-buffer check); not part of the API.
#[doc(hidden)]
pub fn __abort_with_message(msg: &[u8]) -> ! {
    os::fatal(msg)
}

/// The generator core with a chosen buffer size and reseed interval, the
/// keystream backends, and views into the thread's state, for benchmarks,
/// sweeps and the tests that look for keys in memory. Not a stable API, and
/// like everything in randp it seeds itself from the OS.
///
/// Never enable the `internals` feature in a build that ships: these
/// functions copy out the thread's round keys and switch protections off for
/// the whole process, and Cargo enables a feature for every crate in a build
/// once any one of them asks for it.
#[cfg(feature = "internals")]
pub mod internals {
    pub use crate::generator::{DEFAULT_BLOCKS, DEFAULT_RESEED, Generator};
    pub use crate::keystream::Backend;

    /// Makes `b` the keystream backend of the process. Returns false (and
    /// changes nothing) if the CPU cannot run it. Call it before the first
    /// draw of the process.
    pub fn force_backend(b: Backend) -> bool {
        crate::keystream::force(b)
    }

    /// Copies this thread's 15 AES-256 round keys (the current key is the
    /// first two; the portable backend keeps only those) into `dst`, and
    /// returns false if this thread has no userspace state. The copy is made
    /// with signals blocked and the vector registers are zeroed after it, so
    /// that it leaves the keys neither on the stack nor in a signal frame.
    pub fn copy_thread_round_keys(dst: &mut [[u8; 16]; 15]) -> bool {
        crate::keystream::out_of_signal_frames(|| {
            crate::thread_state::with_schedule(|s| dst.copy_from_slice(s.current())).is_some()
        })
    }

    /// Copies this thread's whole state page and the extension after it into
    /// `dst` ([`STATE_MAPPING_LEN`] bytes), and returns false if this thread
    /// has no userspace state; made as [`copy_thread_round_keys`] makes its
    /// copy.
    pub fn copy_thread_state(dst: &mut [u8]) -> bool {
        crate::keystream::out_of_signal_frames(|| crate::thread_state::copy_state(dst))
    }

    /// How this thread's keystream calls keep keys out of signal frames:
    /// `"rseq"` (restartable sequences: interrupted calls are wiped after and
    /// resumed), `"blocked signals"` (no rseq area registered for the thread,
    /// or the portable backend), or `"off"` (the tests' control).
    pub fn signal_frame_protection() -> &'static str {
        crate::keystream::signal_frame_protection()
    }

    /// How many times a keystream call of this process was interrupted (by
    /// a signal or a preemption) inside its restartable sequence, and
    /// resumed after wiping what the interruption may have left.
    pub fn signal_frame_aborts() -> usize {
        crate::keystream::signal_frame_aborts()
    }

    /// How many keystream calls of this process stopped restarting their
    /// restartable sequence after aborts that made no progress (a trap that
    /// recurs at one instruction) and finished with signals blocked.
    pub fn signal_frame_stalls() -> usize {
        crate::keystream::signal_frame_stalls()
    }

    /// How many keystream calls of this process (x86_64 Linux kernels)
    /// could not prove [`signal_frame_wipe_len`] bytes of free stack below
    /// them (a stack nearly used up, or an alternate signal stack whose
    /// bounds `SS_AUTODISARM` hides), and so ran with signals blocked and
    /// no restartable sequence, whose wipe could reach past the stack.
    pub fn signal_frame_calls_without_room() -> usize {
        crate::keystream::signal_frame_calls_without_room()
    }

    /// How many bytes below its stack pointer a keystream call may wipe
    /// after a signal interrupted it (x86_64 Linux; 0 elsewhere): the
    /// largest signal frame this process can have, with the red zone.
    pub fn signal_frame_wipe_len() -> usize {
        crate::keystream::signal_frame_wipe_len()
    }

    /// The 15 AES-256 round keys of `key`, expanded by the AES-NI key
    /// expansion the x86_64 backends use (`None` without AES-NI), for the
    /// tests that look for every round key of past keys in memory.
    pub fn round_keys_of(key: &[u8; 32]) -> Option<[[u8; 16]; 15]> {
        if !Backend::AesNi.supported() {
            return None;
        }
        let mut ks = alloc::boxed::Box::new(crate::keystream::Schedule::zero());
        // SAFETY: `ks` is a valid zeroed schedule, `key` 32 readable bytes,
        // and the CPU runs the AES-NI backend.
        unsafe { crate::keystream::xor_seed_into_key_with(Backend::AesNi, &mut *ks, key) };
        Some(*ks.current())
    }

    /// The name and entry address of every x86_64 keystream kernel (the
    /// keystream kernels of the three x86 backends, the seed mix), for the
    /// tests that single-step a draw: a kernel is a restartable sequence,
    /// which a single-step trap aborts at every step, so the tests step over
    /// it (its return address is at `[rsp]` on entry).
    #[cfg(target_arch = "x86_64")]
    pub fn keystream_kernel_entries() -> alloc::vec::Vec<(&'static str, usize)> {
        crate::keystream::kernel_entries().to_vec()
    }

    /// The entry address of the lookup of a thread's stack bounds in
    /// /proc/self/maps, which a thread's first keystream call makes: for the
    /// tests that single-step a draw, which run it as one step (it keeps no
    /// state but the bounds it stores at its end, and its hundred thousand
    /// steps would each be a case). Its return address is at `[rsp]` on
    /// entry.
    #[cfg(all(target_os = "linux", target_arch = "x86_64"))]
    pub fn stack_look_up_entry() -> usize {
        crate::os::stack_look_up_entry()
    }

    /// The entry address of the wipe of the stack below a keystream call's
    /// frame, which runs after every keystream call where signals are
    /// blocked around it (no rseq: musl, older glibc), for the tests that
    /// single-step a draw, which run it as one step: it writes only dead
    /// stack and keeps nothing, and each byte its `rep stosb` zeroes would
    /// be a step. Its return address is at `[rsp]` on entry.
    #[cfg(target_arch = "x86_64")]
    pub fn stack_wipe_entry() -> usize {
        crate::keystream::stack_wipe_entry()
    }

    /// The entry address of the vDSO's getrandom that randp calls (0 if it
    /// calls none), for the tests that single-step a draw, which run it as
    /// one step: it is the kernel's code, with a state of its own.
    pub fn kernel_rng_entry() -> usize {
        crate::os::kernel_rng_entry()
    }

    /// Switches off (`true`) or back on the protection that keeps keys out
    /// of signal frames (restartable sequences, or signals blocked around
    /// the keystream), for the control of the tests that show it is needed.
    /// Never call it outside such a test.
    pub fn set_signal_frame_protection_off(off: bool) {
        crate::keystream::set_signal_frame_protection_off(off)
    }

    /// Switches off (`true`) or back on the mix of the kernel's current
    /// output (the vDSO's getrandom) into the key before every refill and
    /// every 64 KiB of direct output, for the control of the tests that
    /// show it is needed after a VM snapshot is restored, and for the
    /// benchmark of its cost. Never call it outside such a test.
    pub fn set_kernel_mix_off(off: bool) {
        crate::thread_state::set_kernel_mix_off(off)
    }

    /// At most this many bytes are written straight into callers' memory
    /// between two mixes of the kernel's current output into the key.
    pub const MIX_DIRECT: usize = crate::generator::MIX_DIRECT;

    /// Whether this process mixes the kernel's current output into its
    /// refills: it has the vDSO's getrandom (Linux 6.11+ on x86_64, 6.14+ on
    /// aarch64) and droppable state pages.
    pub fn kernel_mix_available() -> bool {
        crate::os::kernel_rng_available()
    }

    /// Makes the process read the VM generation counter from the file at
    /// `path`, which stands for the VMClock device (`/dev/vmclock0`), for
    /// the tests that model a restored VM snapshot
    /// ([`crate::vm_generation_readable`] then says whether it holds a
    /// valid page). Call it before the first draw of the process (the
    /// device is looked up once); the path is kept for the life of the
    /// process. Linux only (does nothing on Windows).
    ///
    /// # Panics
    /// If `path` contains a NUL byte.
    pub fn set_vm_clock_path(path: &str) {
        let path = alloc::ffi::CString::new(path).expect("set_vm_clock_path: a path without NUL bytes");
        crate::os::set_vm_clock_path(alloc::boxed::Box::leak(path.into_boxed_c_str()))
    }

    /// The keystream engine alone, for benchmarks: AES-256-CTR under a key
    /// from the OS on the process's backend, rekeyed at every call as a
    /// refill rekeys.
    pub struct Keystream(alloc::boxed::Box<crate::keystream::Schedule>);

    impl Keystream {
        /// A keystream under 32 fresh bytes from the OS.
        #[allow(clippy::new_without_default)]
        pub fn new() -> Self {
            let mut ks = alloc::boxed::Box::new(crate::keystream::Schedule::zero());
            let mut seed = [0u8; 32];
            crate::entropy::os_fill(&mut seed);
            // SAFETY: `ks` is a valid (zeroed) schedule and `seed` 32 readable bytes.
            unsafe { crate::keystream::xor_seed_into_key(&mut *ks, &seed) };
            zeroize::Zeroize::zeroize(&mut seed);
            Keystream(ks)
        }

        /// Fills the whole 16-byte blocks of `out` with keystream (a tail
        /// shorter than a block is left alone) and rekeys.
        pub fn fill(&mut self, out: &mut [u8]) {
            // SAFETY: the schedule is this value's own; `out` holds at least
            // `16 * (len / 16)` writable bytes and does not overlap it.
            unsafe { crate::keystream::write_and_rekey(&mut *self.0, out.as_mut_ptr(), out.len() / 16) };
        }
    }

    /// Moves `dst.len()` bytes from the front of `src` to `dst` and zeroes
    /// them in `src`, as a draw moves its bytes out of the thread's buffer
    /// (the same code): for the benchmark that shows what a buffered call
    /// pays besides its keystream.
    ///
    /// # Panics
    /// If `src` is shorter than `dst`.
    pub fn copy_and_zero(src: &mut [u8], dst: &mut [u8]) {
        assert!(src.len() >= dst.len(), "copy_and_zero: src shorter than dst");
        // As a draw finds it: the backend fixed, so `move_out` uses its vectors.
        let _ = crate::keystream::backend();
        // SAFETY: `src` holds at least `dst.len()` readable and writable
        // bytes, `dst` that many writable ones, and two `&mut` slices do not
        // overlap.
        unsafe { crate::keystream::move_out(src.as_mut_ptr(), dst.as_mut_ptr(), dst.len()) };
    }

    /// How many bytes a refill of this thread's buffer writes now: the
    /// 3,328 of its state page, or 15,616 once its extension is attached
    /// (Linux, where the limit on locked memory allows; asked at the first
    /// call after the thread's first refill). `None` if this thread has no
    /// userspace state.
    pub fn thread_buffer_len() -> Option<usize> {
        crate::thread_state::buffer_len()
    }

    /// The address of this thread's state page, which its extension follows,
    /// or `None` if this thread has no userspace state: for the tests that
    /// read the kernel's account of the mappings.
    pub fn thread_state_address() -> Option<usize> {
        crate::thread_state::state_address()
    }

    /// The bytes mapped for each thread's state: its page, and after it the
    /// extension its buffer may grow into (none on Windows).
    pub const STATE_MAPPING_LEN: usize = crate::os::STATE_LEN + crate::os::EXTENSION_LEN;

    /// How the state pages are mapped: on Linux `"droppable"`,
    /// `"wipeonfork+mlock"` or `"wipeonfork"`, on Windows
    /// `"virtualalloc+lock"` or `"virtualalloc"` (`None` before the first
    /// state is mapped).
    pub fn state_mapping() -> Option<&'static str> {
        crate::os::state_mapping()
    }

    /// For the tests of the userspace generator under an emulator that
    /// accepts MADV_WIPEONFORK and ignores it (qemu-user), where randp
    /// otherwise keeps no userspace state: lets this process keep states
    /// although the kernel's wipe on fork cannot be verified. A forked child
    /// then repeats its parent's output. Call it before the process's first
    /// draw, and never outside such a test. Does nothing on Windows.
    pub fn accept_unverified_wipe_on_fork() {
        #[cfg(target_os = "linux")]
        crate::os::accept_unverified_wipe_on_fork()
    }
}
