//go:build linux && (amd64 || arm64)

package randp

import (
	"runtime"
	"syscall"
	"unsafe"
)

// The classic BPF the tests' seccomp filters are written in.
const (
	bpfLd, bpfJeq, bpfJset, bpfRet = 0x20, 0x15, 0x45, 0x06 // BPF_LD|W|ABS, BPF_JMP|JEQ|K, BPF_JMP|JSET|K, BPF_RET|K
	seccompAllow, seccompErrno     = 0x7fff0000, 0x00050000 // SECCOMP_RET_ALLOW, SECCOMP_RET_ERRNO (| errno)
	seccompNr, seccompArch         = 0, 4                   // struct seccomp_data
	seccompArg0, seccompArg2       = 16, 32                 // low 32 bits, little-endian
)

// sockFilter is one instruction of a filter (struct sock_filter).
type sockFilter struct {
	code   uint16
	jt, jf uint8
	k      uint32
}

// auditArch is this architecture's AUDIT_ARCH value, which a filter checks
// before it trusts a system-call number.
func auditArch() uint32 {
	if runtime.GOARCH == "arm64" {
		return 0xc00000b7 // AUDIT_ARCH_AARCH64
	}
	return 0xc000003e // AUDIT_ARCH_X86_64
}

// installFilter installs prog on the calling thread (after no_new_privs,
// which an unprivileged process needs), and returns the error, if any.
func installFilter(prog []sockFilter) syscall.Errno {
	const prSetNoNewPrivs, prSetSeccomp, seccompModeFilter = 38, 22, 2
	fprog := struct {
		len    uint16
		filter *sockFilter
	}{uint16(len(prog)), &prog[0]}
	if _, _, err := syscall.RawSyscall(syscall.SYS_PRCTL, prSetNoNewPrivs, 1, 0); err != 0 {
		return err
	}
	// SAFETY: fprog points at prog, a well-formed filter that outlives the
	// call, which copies it.
	_, _, err := syscall.RawSyscall(syscall.SYS_PRCTL, prSetSeccomp, seccompModeFilter, uintptr(unsafe.Pointer(&fprog)))
	runtime.KeepAlive(prog)
	return err
}
