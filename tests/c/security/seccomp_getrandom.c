// Under a seccomp policy that makes getrandom(2) fail, randp must abort with
// its message and output nothing, never fall back to another source (an
// entropy file opened by path can be replaced, and a kept descriptor can be
// closed under it and reused; see closefrom_file.c).
//
// For each entry point of the C ABI, a child process installs a seccomp
// filter (raw BPF through prctl) under which getrandom fails with the errno
// named in argv[1] (EPERM, which container runtimes return for calls they
// deny, or ENOSYS, what an old kernel or a policy that hides the call
// returns), checks that the filter works, then makes its first draw through
// that entry point (randp_bytes, randp_read, and each word function: the Go
// module's cgo path calls randp_read, randp_uint64 and randp_int63) and
// writes what it got to stdout. This proves each child is killed by SIGABRT,
// its stderr holds "randp: the OS entropy source failed" and its stdout is
// empty. The Makefile builds it dynamically linked against librandp.so and
// with -static against build/librandp.a.
//
// EIO is accepted too: the Makefile runs it as the control that shows the
// checks pass when randp does abort (it did so for EIO before it did for
// EPERM and ENOSYS).
//
// Usage: seccomp_getrandom EPERM|ENOSYS|EIO. Exit 0: every child aborted as
// required; 1: one did not; 2: the test could not be set up.

#define _GNU_SOURCE
#include "randp.h"
#include "check.h"

#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#if defined(__x86_64__)
#define AUDIT_ARCH_HERE AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define AUDIT_ARCH_HERE AUDIT_ARCH_AARCH64
#else
#error "seccomp_getrandom: add this architecture's AUDIT_ARCH"
#endif

static const char MESSAGE[] = "randp: the OS entropy source failed";

// Makes getrandom(2) fail with `err` for the rest of this process; every
// other system call is allowed.
static void deny_getrandom(int err)
{
	struct sock_filter filter[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_HERE, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_getrandom, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ((unsigned)err & SECCOMP_RET_DATA)),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = {.len = sizeof filter / sizeof filter[0], .filter = filter};
	SETUP(prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0, "PR_SET_NO_NEW_PRIVS");
	SETUP(prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) == 0, "PR_SET_SECCOMP");
	unsigned char probe[16];
	errno = 0;
	long rc = syscall(SYS_getrandom, probe, sizeof probe, 0);
	SETUP(rc == -1 && errno == err, "the filter left getrandom working (returned %ld)", rc);
}

// Reads `fd` to its end into `buf` (NUL-terminated, cut at `len - 1`);
// returns the number of bytes the stream held.
static size_t read_all(int fd, char *buf, size_t len)
{
	size_t total = 0, kept = 0;
	for (;;) {
		char chunk[4096];
		ssize_t n = read(fd, chunk, sizeof chunk);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		size_t room = len - 1 - kept, take = (size_t)n < room ? (size_t)n : room;
		memcpy(buf + kept, chunk, take);
		kept += take;
		total += (size_t)n;
	}
	buf[kept] = '\0';
	return total;
}

// The first draw of a child, through one entry point: it writes what it got
// to `out` and returns how many bytes that is.
typedef size_t draw_fn(unsigned char *out);

// draw_NAME: the first draw through word function NAME, made by `call`.
#define WORD_DRAW(name, call)                                                 \
	static size_t draw_##name(unsigned char *out)                            \
	{                                                                        \
		__typeof__(call) v = call;                                           \
		memcpy(out, &v, sizeof v);                                           \
		return sizeof v;                                                     \
	}
WORD_DRAW(randp_u8, randp_u8())
WORD_DRAW(randp_u16, randp_u16())
WORD_DRAW(randp_u32, randp_u32())
WORD_DRAW(randp_u64, randp_u64())
WORD_DRAW(randp_lt_u32, randp_lt_u32(1000000007u))
WORD_DRAW(randp_lt_u64, randp_lt_u64(UINT64_C(1000000000000000003)))
WORD_DRAW(randp_int63, randp_int63())
WORD_DRAW(randp_uint64, randp_uint64())

static size_t draw_randp_bytes(unsigned char *out)
{
	randp_bytes(out, 64);
	return 64;
}

static size_t draw_randp_read(unsigned char *out)
{
	// A return other than 0 is output too: it must not happen either.
	int rc = randp_read(out, 64);
	return rc == 0 ? 64 : (size_t)snprintf((char *)out, 64, "randp_read returned %d", rc);
}

static const struct {
	const char *name;
	draw_fn *draw;
} entries[] = {
	{"randp_bytes", draw_randp_bytes},   {"randp_read", draw_randp_read},
	{"randp_u8", draw_randp_u8},         {"randp_u16", draw_randp_u16},
	{"randp_u32", draw_randp_u32},       {"randp_u64", draw_randp_u64},
	{"randp_lt_u32", draw_randp_lt_u32}, {"randp_lt_u64", draw_randp_lt_u64},
	{"randp_int63", draw_randp_int63},   {"randp_uint64", draw_randp_uint64},
};

// Runs entry point `e`'s first draw in a child whose getrandom fails with
// `err` (named `err_name`) and checks that it aborted with the message and
// wrote nothing.
static void check_entry(size_t e, int err, const char *err_name, const char *prog)
{
	int out[2], errp[2];
	SETUP(pipe(out) == 0 && pipe(errp) == 0, "pipe");
	fflush(NULL);
	pid_t pid = fork();
	SETUP(pid >= 0, "fork");
	if (pid == 0) {
		dup2(out[1], 1);
		dup2(errp[1], 2);
		close(out[0]), close(out[1]), close(errp[0]), close(errp[1]);
		deny_getrandom(err);
		unsigned char buf[64];
		size_t n = entries[e].draw(buf);
		ssize_t ignored = write(1, buf, n);
		(void)ignored;
		_exit(0);
	}
	close(out[1]);
	close(errp[1]);
	char stdout_buf[256], stderr_buf[4096], st[128];
	size_t stdout_len = read_all(out[0], stdout_buf, sizeof stdout_buf);
	read_all(errp[0], stderr_buf, sizeof stderr_buf);
	close(out[0]);
	close(errp[0]);
	int status;
	SETUP(waitpid(pid, &status, 0) == pid, "waitpid");
	SETUP(!(WIFEXITED(status) && WEXITSTATUS(status) == 2), "the child could not be set up: %s", stderr_buf);

	const char *name = entries[e].name, *desc = status_str(status, st, sizeof st);
	int before = failures;
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT,
	      "%s, getrandom failing with %s: the child %s instead of aborting (SIGABRT)", name, err_name, desc);
	CHECK(strstr(stderr_buf, MESSAGE) != NULL, "%s, getrandom failing with %s: stderr lacks \"%s\"; it was: \"%s\"",
	      name, err_name, MESSAGE, stderr_buf);
	CHECK(stdout_len == 0, "%s, getrandom failing with %s: %zu bytes reached stdout, drawn without getrandom(2)",
	      name, err_name, stdout_len);
	printf("%s %s %s: child %s, %zu bytes on stdout; %s\n", prog, err_name, name, desc, stdout_len,
	       failures > before ? "FAILED" : "ok");
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int err;
	} errs[] = {{"EPERM", EPERM}, {"ENOSYS", ENOSYS}, {"EIO", EIO}};
	int err = 0;
	for (size_t i = 0; argc == 2 && i < sizeof errs / sizeof errs[0]; i++)
		if (!strcmp(argv[1], errs[i].name))
			err = errs[i].err;
	SETUP(err != 0, "usage: seccomp_getrandom EPERM|ENOSYS|EIO");

	for (size_t e = 0; e < sizeof entries / sizeof entries[0]; e++)
		check_entry(e, err, argv[1], program_name(argv[0]));
	return failures ? 1 : 0;
}
