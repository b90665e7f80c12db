// A signal handler may fork while its thread is in the middle of a draw;
// the child then resumes that draw over a state the kernel has just wiped
// (MADV_WIPEONFORK) under the running call. This must stay defined
// behaviour in every build profile (debug builds check integer overflow, so
// a stale length subtracted from a wiped one panics there), and no child may
// repeat another's or the parent's bytes.
//
// A drawing thread loops over 16 randp_bytes(64), 256 randp_u64, randp_bytes(1000)
// and randp_bytes(20000) (the buffer, word, refill and direct-fill paths).
// The main thread sends it SIGUSR1 1500 times, one child at a time; the
// handler forks. In the child the handler returns, the interrupted call
// resumes, and then the child draws 64 bytes with randp_bytes, writes them to
// a pipe and _exits. In the parent the drawing thread records the output of
// the interrupted call and of the next three (the bytes a child that kept
// the parent's state would repeat). The handler notes which of the four
// calls, if any, it interrupted, and each must have been interrupted. This
// proves:
//   - every child exits with status 0 (no panic, no abort, no crash);
//   - no 16-byte block repeats, and none is zero, among all the children's
//     64 bytes and the parent's recorded output.
// The interrupted call's own output, which a child forked at the call's
// end shares with its parent by rights, is checked instruction by
// instruction by tests/single_step.
// The Makefile links it against the debug cdylib (target/debug/librandp.so)
// and against the release one.
//
// Usage: fork_in_handler [CHILDREN]. Exit 0: passed; 1: failed; 2: set-up
// failed; 3: the watchdog fired.

#define _GNU_SOURCE
#include "randp.h"
#include "check.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

enum {
	MAX_CHILDREN = 100000,
	CHILD_LEN = 64,
	RECORD_CALLS = 4,
	SHORT_FILLS = 16,
	WORDS = 256,
	BIG = 20000,
	HANG_SECONDS = 10
};

typedef struct {
	uint8_t b[16];
} block;

static int out_w;               // children's bytes go here
static int child_stderr;        // and their stderr here
static volatile sig_atomic_t in_child;
static atomic_int forks;
static atomic_int last_child;
static atomic_int stop;
static volatile sig_atomic_t record_left;
// The call the drawing thread is in (a path of draw_forever), or NONE.
enum { NONE = -1, PATHS = 4 };
static const char *const path_names[PATHS] = {"randp_bytes(64)", "randp_u64", "randp_bytes(1000)",
                                              "randp_bytes(20000)"};
static volatile sig_atomic_t in_call = NONE;
static atomic_int landed[PATHS + 1]; // forks per path; the last: outside a call

static block *parent_blocks;
static size_t parent_count, parent_cap;

static void on_sigusr1(int sig)
{
	(void)sig;
	int saved = errno;
	pid_t pid = fork();
	if (pid == 0) {
		in_child = 1;
		dup2(child_stderr, 2);
	} else if (pid > 0) {
		int path = in_call;
		atomic_fetch_add(&landed[path == NONE ? PATHS : path], 1);
		atomic_store(&last_child, (int)pid);
		record_left = RECORD_CALLS;
		atomic_fetch_add(&forks, 1);
	}
	errno = saved;
}

// The child, once the interrupted call has returned: its first 64 bytes.
static void finish_child(void)
{
	uint8_t b[CHILD_LEN];
	randp_bytes(b, sizeof b);
	ssize_t n = write(out_w, b, sizeof b);
	_exit(n == (ssize_t)sizeof b ? 0 : 4);
}

static void record(const uint8_t *p, size_t n)
{
	if (record_left <= 0)
		return;
	record_left--;
	for (size_t i = 0; i + 16 <= n && i < CHILD_LEN && parent_count < parent_cap; i += 16)
		memcpy(parent_blocks[parent_count++].b, p + i, 16);
}

static void *draw_forever(void *arg)
{
	(void)arg;
	static uint8_t big[BIG];
	for (uint64_t it = 0; !atomic_load_explicit(&stop, memory_order_relaxed); it++) {
		size_t n = 0;
		int path = (int)(it % PATHS);
		switch (path) {
		case 0:
			// As for the words: enough short fills to get their share.
			for (size_t i = 0; i < SHORT_FILLS; i++) {
				in_call = path;
				randp_bytes(big + 64 * i, 64);
				in_call = NONE;
			}
			n = 64 * SHORT_FILLS;
			break;
		case 1: {
			// Enough words that the word path's few instructions get
			// their share of the signals.
			uint64_t w[WORDS];
			for (size_t i = 0; i < WORDS; i++) {
				in_call = path;
				w[i] = randp_u64();
				in_call = NONE;
			}
			memcpy(big, w, n = sizeof w);
			break;
		}
		case 2:
			in_call = path;
			randp_bytes(big, n = 1000);
			break;
		default:
			in_call = path;
			randp_bytes(big, n = BIG);
		}
		in_call = NONE;
		if (in_child)
			finish_child();
		record(big, n);
	}
	return NULL;
}

static int cmp_block(const void *a, const void *b) { return memcmp(a, b, sizeof(block)); }

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	int children = argc > 1 ? atoi(argv[1]) : 1500;
	SETUP(children > 0 && children <= MAX_CHILDREN, "usage: fork_in_handler [CHILDREN]");
	// A child that panics prints the message without a backtrace:
	// symbolizing one in each of 1500 debug-build children takes minutes.
	setenv("RUST_BACKTRACE", "0", 1);
	int p[2];
	SETUP(pipe2(p, O_NONBLOCK) == 0, "pipe");
	out_w = p[1];
	// Children's bytes wait in the pipe until read; keep room for several.
	fcntl(p[1], F_SETPIPE_SZ, 1 << 20);
	FILE *errs = tmpfile();
	SETUP(errs != NULL, "tmpfile");
	child_stderr = fileno(errs);
	parent_cap = (size_t)children * RECORD_CALLS * (CHILD_LEN / 16);
	parent_blocks = calloc(parent_cap, sizeof *parent_blocks);
	block *child_blocks = calloc((size_t)children * (CHILD_LEN / 16), sizeof *child_blocks);
	SETUP(parent_blocks && child_blocks, "calloc");

	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_sigusr1;
	sa.sa_flags = SA_RESTART;
	SETUP(sigaction(SIGUSR1, &sa, NULL) == 0, "sigaction");
	watchdog(600, "fork_in_handler: a child or the drawing thread hung");

	pthread_t drawer;
	SETUP(pthread_create(&drawer, NULL, draw_forever, NULL) == 0, "pthread_create");
	double start = now();
	int died = 0, received = 0;
	char st[128];
	for (int i = 0; i < children; i++) {
		int before = atomic_load(&forks);
		SETUP(pthread_kill(drawer, SIGUSR1) == 0, "pthread_kill");
		double deadline = now() + HANG_SECONDS;
		while (atomic_load(&forks) == before) {
			SETUP(now() < deadline, "the drawing thread did not fork within %d s", HANG_SECONDS);
			sched_yield();
		}
		pid_t pid = (pid_t)atomic_load(&last_child);
		int status;
		SETUP(waitpid(pid, &status, 0) == pid, "waitpid");
		if (!(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
			if (died++ < 5)
				CHECK(false, "child %d %s", i, status_str(status, st, sizeof st));
			continue;
		}
		uint8_t b[CHILD_LEN];
		SETUP(read(p[0], b, sizeof b) == (ssize_t)sizeof b, "child %d exited 0 but sent no bytes", i);
		memcpy(child_blocks[(size_t)received++ * (CHILD_LEN / 16)].b, b, sizeof b);
	}
	atomic_store(&stop, 1);
	SETUP(pthread_join(drawer, NULL) == 0, "pthread_join");
	double secs = now() - start;

	CHECK(died == 0, "%d of %d children forked in a signal handler during a draw did not exit 0", died,
	      children);
	if (died) {
		// What the children said (a panic message, for one), first lines only.
		char line[512];
		rewind(errs);
		for (int shown = 0; shown < 6 && fgets(line, sizeof line, errs);)
			if (line[0] != '\n' && ++shown)
				fprintf(stderr, "  child stderr: %s", line);
	}

	size_t n = (size_t)received * (CHILD_LEN / 16) + parent_count;
	block *all = malloc(n * sizeof *all);
	SETUP(all != NULL, "malloc");
	memcpy(all, child_blocks, (size_t)received * (CHILD_LEN / 16) * sizeof *all);
	memcpy(all + (size_t)received * (CHILD_LEN / 16), parent_blocks, parent_count * sizeof *all);
	qsort(all, n, sizeof *all, cmp_block);
	static const block zero;
	size_t repeats = 0, zeros = 0;
	for (size_t i = 0; i < n; i++) {
		zeros += !memcmp(&all[i], &zero, sizeof zero);
		repeats += i > 0 && !memcmp(&all[i], &all[i - 1], sizeof zero);
	}
	CHECK(repeats == 0, "%zu 16-byte blocks repeat among %zu (children's and parent's output)", repeats, n);
	CHECK(zeros == 0, "%zu all-zero 16-byte blocks were output", zeros);
	CHECK(parent_count >= (size_t)children, "the parent recorded only %zu blocks", parent_count);
	char where[256];
	int at = snprintf(where, sizeof where, "outside a call %d", atomic_load(&landed[PATHS]));
	for (int i = 0; i < PATHS; i++) {
		CHECK(atomic_load(&landed[i]) > 0, "no fork interrupted %s", path_names[i]);
		at += snprintf(where + at, sizeof where - (size_t)at, ", in %s %d", path_names[i], atomic_load(&landed[i]));
	}

	Dl_info lib;
	SETUP(dladdr((void *)(uintptr_t)randp_bytes, &lib) != 0, "dladdr");
	printf("%s: library %s\n", program_name(argv[0]), lib.dli_fname);
	printf("%s: %d children forked mid-draw, %d exited 0, %zu blocks compared, %.1f s; forks %s; %s\n",
	       program_name(argv[0]), children, children - died, n, secs, where, failures ? "FAILED" : "ok");
	return failures ? 1 : 0;
}
