// A draw made from a pthread key destructor, in any of glibc's destructor
// rounds, must not leak the thread's state (20 KiB of mapped memory holding
// a key and unread output, left unzeroed when nothing releases it).
//
// A pthread key (the test's own) has a destructor that draws and re-arms
// itself with a non-NULL value for every one of glibc's
// PTHREAD_DESTRUCTOR_ITERATIONS (4) rounds, so it draws in the last round
// too, after randp's own release of the state in that round. 1000 threads
// are created and joined one after another; this proves the process's
// VmSize (/proc/self/status) grows by less than 1 MiB between the 100th and
// the 1000th thread.
//
// Why 1 MiB: joined threads' stacks are reused from glibc's stack cache and
// sequential threads reuse the same malloc arena, so without a leak VmSize
// stays flat after the first threads (measured: 0 KiB). Any mapping leaked
// per thread is at least one 4 KiB page, 3.5 MiB over the 900 threads
// measured; randp's state is 20 KiB per thread, 17.6 MiB. `--leak-control`
// leaks a 20 KiB mapping in each thread's destructor and must fail the same
// bound (the Makefile requires that it does), which shows the bound catches
// a leak of that size.
//
// Options: `--first-draw-in-destructor`: threads do not draw before exiting,
// so the destructor makes each thread's first draw. `--test-key-first`: the
// test's key is created before randp's (by not drawing in main before it),
// so in each round the test's destructor runs before randp's. Without it
// randp's key comes first: in the last round randp's release runs before the
// test's draw, which is the case a release made only from a key destructor
// misses. The Makefile runs all four combinations.
//
// Exit 0: bound held; 1: VmSize grew more (or the destructor did not run its
// 4 rounds); 2: set-up failed.

#define _GNU_SOURCE
#include "randp.h"
#include "check.h"

#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sys/mman.h>

#ifndef PTHREAD_DESTRUCTOR_ITERATIONS
#define PTHREAD_DESTRUCTOR_ITERATIONS 4
#endif

enum { THREADS = 1000, MEASURE_FROM = 100, BOUND_KIB = 1024, LEAK_BYTES = 20 * 1024 };

static pthread_key_t key;
static bool first_draw_in_destructor, leak_control;
static atomic_long destructor_calls;
static volatile uint64_t sink;

// Runs once per round while re-armed; the value is the round number.
static void draw_and_rearm(void *value)
{
	uintptr_t round = (uintptr_t)value;
	sink ^= randp_u64();
	atomic_fetch_add(&destructor_calls, 1);
	if (leak_control && round == 1) {
		void *p = mmap(NULL, LEAK_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		SETUP(p != MAP_FAILED, "mmap");
		memset(p, 1, LEAK_BYTES);
	}
	if (round < PTHREAD_DESTRUCTOR_ITERATIONS)
		pthread_setspecific(key, (void *)(round + 1));
}

static void *thread_body(void *arg)
{
	(void)arg;
	SETUP(pthread_setspecific(key, (void *)1) == 0, "pthread_setspecific");
	if (!first_draw_in_destructor)
		sink ^= randp_u64();
	return NULL;
}

static long vm_size_kib(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	SETUP(f != NULL, "open /proc/self/status");
	char line[256];
	long kib = -1;
	while (fgets(line, sizeof line, f))
		if (sscanf(line, "VmSize: %ld kB", &kib) == 1)
			break;
	fclose(f);
	SETUP(kib > 0, "no VmSize in /proc/self/status");
	return kib;
}

int main(int argc, char **argv)
{
	bool test_key_first = false;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--first-draw-in-destructor"))
			first_draw_in_destructor = true;
		else if (!strcmp(argv[i], "--test-key-first"))
			test_key_first = true;
		else if (!strcmp(argv[i], "--leak-control"))
			leak_control = true;
		else
			SETUP(false, "unknown argument %s", argv[i]);
	}
	// randp makes its key at the process's first draw.
	if (!test_key_first)
		sink ^= randp_u64();
	SETUP(pthread_key_create(&key, draw_and_rearm) == 0, "pthread_key_create");
	if (test_key_first)
		sink ^= randp_u64();

	long at_from = 0;
	for (int i = 1; i <= THREADS; i++) {
		pthread_t t;
		SETUP(pthread_create(&t, NULL, thread_body, NULL) == 0, "pthread_create #%d", i);
		SETUP(pthread_join(t, NULL) == 0, "pthread_join #%d", i);
		if (i == MEASURE_FROM)
			at_from = vm_size_kib();
	}
	long growth = vm_size_kib() - at_from;
	long calls = atomic_load(&destructor_calls);
	CHECK(calls == (long)THREADS * PTHREAD_DESTRUCTOR_ITERATIONS,
	      "the destructor ran %ld times, not %d rounds x %d threads", calls,
	      PTHREAD_DESTRUCTOR_ITERATIONS, THREADS);
	CHECK(growth < BOUND_KIB,
	      "VmSize grew by %ld KiB over threads %d..%d (%.1f KiB per thread; bound %d KiB): "
	      "memory leaks with every thread that exits",
	      growth, MEASURE_FROM, THREADS, (double)growth / (THREADS - MEASURE_FROM), BOUND_KIB);
	printf("destructor_rounds%s%s%s: VmSize %ld KiB after %d threads, %+ld KiB after %d; %s\n",
	       leak_control ? " --leak-control" : "", first_draw_in_destructor ? " --first-draw-in-destructor" : "",
	       test_key_first ? " --test-key-first" : "", at_from, MEASURE_FROM, growth, THREADS,
	       failures ? "FAILED" : "ok");
	return failures ? 1 : 0;
}
