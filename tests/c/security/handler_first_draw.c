// A signal handler may draw, even when it interrupted malloc, and even when
// the draw is the first one on its thread: the README's claim that no step of
// a draw allocates or locks, the first one on a thread included.
//
// Worker threads do nothing but malloc (2000..62000 bytes, so every call
// takes its arena's lock) and free. Each is sent one SIGUSR1 at a random
// moment; the handler makes that thread's first draw (the worker never draws
// otherwise). If any step of that draw allocates, and the signal landed
// while the worker held its arena's lock, the handler waits for a lock its
// own thread holds: a deadlock. Each round runs several workers at once, and
// a watchdog fails the round if a handler has not returned within 10 s.
// Many rounds make it all but certain that some signals land inside malloc.
//
// The Makefile runs it in the setups where a draw could allocate:
//   - the library loaded with dlopen (-DRANDP_DLOPEN, the library's path in
//     argv[1], the draw through the dlsym'd randp_u64): a dlopen'd library's
//     thread-locals are dynamic TLS, which glibc allocates at a thread's
//     first access, in __tls_get_addr, unless the library uses initial-exec
//     TLS. With glibc this proves a draw never touches dynamic TLS; with
//     musl, where randp reaches its word through a TLS descriptor, that the
//     dynamic TLS it reaches (set up for every thread at dlopen) allocates
//     nothing either.
//   - `--keys 40`: the program made 40 pthread keys before any draw. glibc
//     stores the values of keys from index 32 on in blocks it callocs at the
//     first pthread_setspecific on a thread. Linked with build/librandp.a and
//     with librandp.so. This proves the release of a thread's state does not
//     depend on a pthread key slot that allocates.
//   - `--cold`: every round runs in a new process that has never drawn, so
//     a handler makes the process's first draw too (its one-time set-up:
//     finding the entropy source, creating keys). Linked with -static.
//   - the control: linked with build/librandp.a, no extra keys: a setup in
//     which the handler's first draw must also hold, and that shows that the
//     harness alone (its malloc loop, signals and watchdog) does not hang.
//   - `--malloc-control`: the handler calls malloc and free instead of
//     drawing; it must hang (exit 1), which shows that the signals do land
//     inside malloc and that this C library's malloc deadlocks when re-entered
//     from a handler, so a draw that allocated would be caught. (musl's
//     malloc is not glibc's: mk/musl.mk runs this control there too.)
//
// Usage: handler_first_draw [LIBRARY] [--keys N] [--cold] [--malloc-control]
// [--rounds R] [--workers W]. Exit 0: every handler returned; 1: one hung or
// drew a bad value; 2: set-up failed; 3: the global watchdog fired.

#define _GNU_SOURCE
#include "check.h"

#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

#ifdef RANDP_DLOPEN
#include <dlfcn.h>
#else
#include "randp.h"
#endif

enum { MAX_WORKERS = 16, MAX_KEYS = 1000, HANG_SECONDS = 10 };

struct options {
	const char *library;
	int keys, rounds, workers;
	bool cold;
	bool malloc_control;
};

struct worker {
	pthread_t thread;
	unsigned seed;
	atomic_int started;
	atomic_int drew;
	atomic_int stop;
	uint64_t value;
};

static uint64_t (*draw)(void);
static struct options opt = {.keys = 0, .rounds = 50, .workers = 4, .cold = false};
static char setup[160]; // the setup under test, in words
static struct worker workers[MAX_WORKERS];
static _Thread_local int my_worker = -1;

static void on_sigusr1(int sig)
{
	(void)sig;
	int saved = errno;
	int i = my_worker;
	if (i >= 0 && !atomic_load(&workers[i].drew)) {
		workers[i].value = draw(); // this thread's first draw
		atomic_store(&workers[i].drew, 1);
	}
	errno = saved;
}

static void *allocate_forever(void *arg)
{
	struct worker *w = arg;
	my_worker = (int)(w - workers);
	atomic_store(&w->started, 1);
	while (!atomic_load_explicit(&w->stop, memory_order_relaxed)) {
		size_t n = 2000 + (size_t)rand_r(&w->seed) % 60001;
		volatile char *p = malloc(n);
		if (p) {
			p[0] = 1;
			p[n - 1] = 1;
		}
		free((void *)p);
	}
	return NULL;
}

// The control's "draw": allocates (as a draw must not), then returns a
// value distinct from every other worker's, so that the value checks pass.
static uint64_t allocate_in_handler(void)
{
	static _Thread_local uint64_t count;
	volatile char *p = malloc(100);
	if (p)
		p[0] = 1;
	free((void *)p);
	return ((uint64_t)(my_worker + 2) << 32) + ++count;
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void sleep_us(long us)
{
	struct timespec ts = {.tv_sec = us / 1000000, .tv_nsec = us % 1000000 * 1000};
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}


// One round: `n` allocating workers, one signal each; returns the number of
// failed checks. On a hang, exits the process with status 1 (hung threads
// cannot be joined).
static int round_of(int round, int n)
{
	unsigned seed = (unsigned)round * 7919u + 1u;
	for (int i = 0; i < n; i++) {
		struct worker *w = &workers[i];
		w->seed = seed + (unsigned)i;
		w->value = 0;
		atomic_store(&w->started, 0);
		atomic_store(&w->drew, 0);
		atomic_store(&w->stop, 0);
		SETUP(pthread_create(&w->thread, NULL, allocate_forever, w) == 0, "pthread_create");
	}
	for (int i = 0; i < n; i++)
		while (!atomic_load(&workers[i].started))
			sched_yield();
	for (int i = 0; i < n; i++) {
		sleep_us(rand_r(&seed) % 300); // let it reach a random point of its loop
		SETUP(pthread_kill(workers[i].thread, SIGUSR1) == 0, "pthread_kill");
	}
	double deadline = now() + HANG_SECONDS;
	for (int i = 0; i < n; i++) {
		while (!atomic_load(&workers[i].drew)) {
			if (now() > deadline) {
				fprintf(stderr,
				        "FAIL: %s: round %d: worker %d's first draw, made in a SIGUSR1 handler that "
				        "interrupted its malloc/free loop, did not return within %d s (deadlock)\n",
				        setup, round, i, HANG_SECONDS);
				fflush(NULL);
				_exit(1);
			}
			sleep_us(1000);
		}
	}
	int bad = 0;
	for (int i = 0; i < n; i++) {
		atomic_store(&workers[i].stop, 1);
		SETUP(pthread_join(workers[i].thread, NULL) == 0, "pthread_join");
		// 2^-64 per draw: a zero or a repeat means the draw went wrong.
		if (workers[i].value == 0)
			bad++;
		for (int j = 0; j < i; j++)
			if (workers[j].value == workers[i].value)
				bad++;
	}
	CHECK(bad == 0, "%s: round %d: %d handler draws were zero or repeated", setup, round, bad);
	return bad ? 1 : 0;
}


static int current_round;

static int round_in_child(void *arg)
{
	(void)arg;
	return round_of(current_round, opt.workers);
}

static void parse(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--keys") && i + 1 < argc)
			opt.keys = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--rounds") && i + 1 < argc)
			opt.rounds = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--workers") && i + 1 < argc)
			opt.workers = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--cold"))
			opt.cold = true;
		else if (!strcmp(argv[i], "--malloc-control"))
			opt.malloc_control = true;
		else if (argv[i][0] != '-' && !opt.library)
			opt.library = argv[i];
		else
			SETUP(false, "unknown argument %s", argv[i]);
	}
	SETUP(opt.workers >= 1 && opt.workers <= MAX_WORKERS, "--workers 1..%d", MAX_WORKERS);
	SETUP(opt.keys >= 0 && opt.keys <= MAX_KEYS, "--keys 0..%d", MAX_KEYS);
	SETUP(opt.rounds >= 1, "--rounds >= 1");
}

int main(int argc, char **argv)
{
	parse(argc, argv);
#ifdef RANDP_DLOPEN
	SETUP(opt.library != NULL, "built for dlopen: pass the library's path");
	void *h = dlopen(opt.library, RTLD_NOW | RTLD_LOCAL);
	SETUP(h != NULL, "dlopen %s: %s", opt.library, dlerror());
	draw = (uint64_t(*)(void))(uintptr_t)dlsym(h, "randp_u64");
	SETUP(draw != NULL, "dlsym randp_u64: %s", dlerror());
#else
	SETUP(opt.library == NULL, "linked with randp: no library argument");
	draw = randp_u64;
#endif
	if (opt.malloc_control)
		draw = allocate_in_handler;
	static pthread_key_t keys[MAX_KEYS];
	for (int i = 0; i < opt.keys; i++)
		SETUP(pthread_key_create(&keys[i], NULL) == 0, "pthread_key_create #%d", i);
	if (!opt.cold)
		SETUP(draw() != 0 || draw() != 0, "the main thread's draw"); // process set-up done

	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_sigusr1;
	sa.sa_flags = SA_RESTART;
	SETUP(sigaction(SIGUSR1, &sa, NULL) == 0, "sigaction");
	watchdog((unsigned)(opt.rounds * (HANG_SECONDS + 5) + 60), "handler_first_draw as a whole");

	snprintf(setup, sizeof setup, "%s: %s, %d pthread keys made first, %s%s", program_name(argv[0]),
	         opt.library ? "dlopen" : "linked", opt.keys,
	         opt.cold ? "no draw before the handlers" : "main drew first",
	         opt.malloc_control ? ", the handler mallocs instead of drawing (control)" : "");
	double start = now();
	for (current_round = 0; current_round < opt.rounds; current_round++) {
		if (!opt.cold) {
			round_of(current_round, opt.workers);
			continue;
		}
		char st[128];
		int status = run_in_child(round_in_child, NULL);
		if (!(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
			CHECK(false, "%s: round %d, in a process that had not drawn before: the process %s", setup,
			      current_round, status_str(status, st, sizeof st));
			break;
		}
	}
	printf("%s: %d rounds of %d workers, %.1f s; %s\n", setup, current_round,
	       opt.workers, now() - start, failures ? "FAILED" : "ok");
	return failures ? 1 : 0;
}
