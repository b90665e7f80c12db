/* A C host that loads a Go library (main.go, built as c-shared or c-archive),
   draws, and forks FORKS times without exec: parent and children draw from
   every randp API (Uint64, Read of 8 and 32 bytes, a Source and a Buffered
   made before the first fork), and no value may appear twice. The control
   generator lives in ordinary Go memory and must repeat in every child, which
   shows that the count of repeats can see one. Prints one line of counts. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "libhost.h"

enum { PER_DRAW = 8, FORKS = 1000, HANG_MS = 250, SLOW_MS = 2000 };

/* Whether process pid sleeps on a futex (its kernel wait channel). A forked
   child of a Go program has no other thread that could wake it: it waits on
   a Go runtime lock that one of the parent's threads held at the fork, and
   will wait for ever (golang/go#15538). */
static int asleep_on_futex(pid_t pid) {
	char path[64], buf[128] = {0};
	snprintf(path, sizeof path, "/proc/%d/wchan", (int)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = 0;
	return strstr(buf, "futex") != NULL;
}

/* Milliseconds since some fixed point, by the monotonic clock. */
static long now_ms(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

/* Waits for child pid and stores its status. Returns 1 if it hung instead,
   and ends it: still running after HANG_MS and asleep on a futex, or still
   running after SLOW_MS whatever it does (now and then a hung child does
   not sleep on a futex; a loaded machine slows a child, whose draws and
   exit are some milliseconds' work, but not a thousandfold, and does not
   put it to sleep on a futex). */
static int wait_child(pid_t pid, int *status) {
	for (long start = now_ms(), ms = 0;; ms = now_ms() - start) {
		pid_t r = waitpid(pid, status, WNOHANG);
		if (r == pid)
			return 0;
		if (r < 0) {
			perror("waitpid");
			exit(2);
		}
		if ((ms >= HANG_MS && asleep_on_futex(pid)) || ms >= SLOW_MS) {
			kill(pid, SIGKILL);
			waitpid(pid, status, 0);
			return 1;
		}
		usleep(1000);
	}
}

static int cmp(const void *a, const void *b) {
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static size_t repeated(uint64_t *v, size_t n) {
	size_t r = 0;
	qsort(v, n, sizeof *v, cmp);
	for (size_t i = 1; i < n; i++)
		r += v[i] == v[i - 1];
	return r;
}

int main(void) {
	static uint64_t vals[(2 * FORKS + 1) * PER_DRAW], ctl[2 * FORKS + 1];
	size_t n = 0, nc = 0, hung = 0;
	randp_test_draw(vals + n);
	n += PER_DRAW;
	ctl[nc++] = randp_test_control();
	for (int i = 0; i < FORKS; i++) {
		int fd[2];
		if (pipe(fd) != 0) { perror("pipe"); return 2; }
		pid_t pid = fork();
		if (pid < 0) { perror("fork"); return 2; }
		if (pid == 0) {
			uint64_t out[PER_DRAW + 1];
			randp_test_draw(out);
			out[PER_DRAW] = randp_test_control();
			_exit(write(fd[1], out, sizeof out) == (ssize_t)sizeof out ? 0 : 3);
		}
		close(fd[1]);
		/* Go's runtime may deadlock in a forked child (golang/go#15538): a
		   child that hangs is ended and counted, not waited for. What a child
		   that finished wrote is in the pipe. */
		int status;
		if (wait_child(pid, &status)) {
			close(fd[0]);
			hung++;
			randp_test_draw(vals + n);
			n += PER_DRAW;
			ctl[nc++] = randp_test_control();
			continue;
		}
		uint64_t out[PER_DRAW + 1];
		size_t got = 0;
		while (got < sizeof out) {
			ssize_t r = read(fd[0], (char *)out + got, sizeof out - got);
			if (r <= 0)
				break;
			got += (size_t)r;
		}
		close(fd[0]);
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || got != sizeof out) {
			fprintf(stderr, "child %d failed (status %#x, %zu bytes)\n", i, status, got);
			return 2;
		}
		memcpy(vals + n, out, PER_DRAW * sizeof *out);
		n += PER_DRAW;
		ctl[nc++] = out[PER_DRAW];
		randp_test_draw(vals + n);
		n += PER_DRAW;
		ctl[nc++] = randp_test_control();
	}
	char *impl = randp_test_implementation();
	printf("%s: %d forks, %zu children hung in the Go runtime; %zu values, %zu repeated; control: %zu values, %zu repeated\n",
	       impl, FORKS, hung, n, repeated(vals, n), nc, repeated(ctl, nc));
	free(impl);
	return 0;
}
