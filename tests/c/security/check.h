// What the security test programs share: counting failed checks, listing
// this process's open descriptors, a watchdog that turns a hang into a
// failure, running a body in a child process and reporting how it ended.
// Header-only (static functions), so each test stays one translation unit
// that can be linked statically, dynamically or with -static.

#ifndef RANDP_SECURITY_CHECK_H
#define RANDP_SECURITY_CHECK_H

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int failures;

// Counts a failed check and says which, on stderr.
#define CHECK(cond, ...)                                                     \
	do {                                                                     \
		if (!(cond)) {                                                       \
			failures++;                                                      \
			fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);             \
			fprintf(stderr, __VA_ARGS__);                                    \
			fputc('\n', stderr);                                             \
		}                                                                    \
	} while (0)

// Ends the program when a test cannot even be set up (exit status 2, so a
// broken set-up is never mistaken for the failure under test).
#define SETUP(cond, ...)                                                     \
	do {                                                                     \
		if (!(cond)) {                                                       \
			fprintf(stderr, "SETUP FAILED %s:%d: ", __FILE__, __LINE__);     \
			fprintf(stderr, __VA_ARGS__);                                    \
			fprintf(stderr, " (errno %d: %s)\n", errno, strerror(errno));    \
			exit(2);                                                         \
		}                                                                    \
	} while (0)

// The descriptors this process has open (from /proc/self/fd, without the
// one used to read it), ascending. Returns how many, at most `max`.
static inline int open_fds(int *fds, int max)
{
	DIR *dir = opendir("/proc/self/fd");
	SETUP(dir != NULL, "opendir /proc/self/fd");
	int n = 0;
	struct dirent *e;
	while ((e = readdir(dir)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		int fd = atoi(e->d_name);
		if (fd == dirfd(dir) || n == max)
			continue;
		int i = n++;
		for (; i > 0 && fds[i - 1] > fd; i--)
			fds[i] = fds[i - 1];
		fds[i] = fd;
	}
	closedir(dir);
	return n;
}

// Formats a descriptor list as "[0 1 2]" into `out` (cut at `len`).
static inline const char *fds_str(const int *fds, int n, char *out, size_t len)
{
	size_t used = (size_t)snprintf(out, len, "[");
	for (int i = 0; i < n && used < len; i++)
		used += (size_t)snprintf(out + used, len - used, i ? " %d" : "%d", fds[i]);
	if (used < len)
		snprintf(out + used, len - used, "]");
	return out;
}

// The program's file name without its directory: the Makefile builds one
// source several ways (_static, _shared, ...) and the name says which.
static inline const char *program_name(const char *argv0)
{
	const char *slash = strrchr(argv0, '/');
	return slash ? slash + 1 : argv0;
}

static inline void hex(const uint8_t *p, size_t n, char *out)
{
	for (size_t i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", p[i]);
	out[2 * n] = '\0';
}

static const char *watchdog_what = "the test";

static inline void watchdog_fired(int sig)
{
	(void)sig;
	static const char head[] = "FAIL (watchdog): no progress in time: ";
	// Only async-signal-safe calls: the process may be deadlocked.
	ssize_t ignored = write(2, head, sizeof head - 1);
	ignored = write(2, watchdog_what, strlen(watchdog_what));
	ignored = write(2, "\n", 1);
	(void)ignored;
	_exit(3);
}

// After `seconds`, whatever any thread is doing, says `what` did not finish
// and exits with status 3. `watchdog(0, ...)` disarms it.
static inline void watchdog(unsigned seconds, const char *what)
{
	watchdog_what = what;
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = watchdog_fired;
	sigaction(SIGALRM, &sa, NULL);
	alarm(seconds);
}

// Describes a wait status ("exited with status 0", "killed by signal 11
// (Segmentation fault)") into `out`.
static inline const char *status_str(int status, char *out, size_t len)
{
	if (WIFEXITED(status))
		snprintf(out, len, "exited with status %d", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		snprintf(out, len, "killed by signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
	else
		snprintf(out, len, "wait status 0x%x", status);
	return out;
}

// Runs `body` in a forked child (which exits with its return value) and
// returns the child's wait status: a crash in `body` becomes a failure this
// process can report, not the end of the test.
static inline int run_in_child(int (*body)(void *), void *arg)
{
	fflush(NULL);
	pid_t pid = fork();
	SETUP(pid >= 0, "fork");
	if (pid == 0) {
		int rc = body(arg);
		fflush(NULL);
		_exit(rc);
	}
	int status;
	SETUP(waitpid(pid, &status, 0) == pid, "waitpid");
	return status;
}

#endif
