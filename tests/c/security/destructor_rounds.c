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
// Every release must zero the state before it unmaps it: no key or unread
// output may outlive the thread in memory the kernel reuses. The program
// defines munmap (in a static link, the library's calls come here, and
// libc's own calls go to its internal name), and checks each 16 KiB mapping
// (the size of randp's state and its extension) for a non-zero byte before
// it unmaps it. It must see at least one such release per thread, and none
// with a non-zero byte; its control, a 16 KiB mapping of its own filled with
// ones and unmapped before the threads, must be seen as not zeroed.
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
#include <sys/syscall.h>

#ifndef PTHREAD_DESTRUCTOR_ITERATIONS
#define PTHREAD_DESTRUCTOR_ITERATIONS 4
#endif

enum { THREADS = 1000, MEASURE_FROM = 100, BOUND_KIB = 1024, LEAK_BYTES = 20 * 1024 };

// The length of randp's per-thread mapping: its 4 KiB state page and its
// 12 KiB extension.
enum { STATE_MAPPING = 16 * 1024 };

// Releases of a mapping of STATE_MAPPING bytes, all zero and not.
static atomic_long zeroed_unmaps, dirty_unmaps;

// The library's munmap: counts how a STATE_MAPPING-byte mapping was left,
// then unmaps it with the system call.
int munmap(void *addr, size_t len)
{
	if (len == STATE_MAPPING) {
		const unsigned char *p = addr;
		size_t i = 0;
		while (i < len && p[i] == 0)
			i++;
		atomic_fetch_add(i == len ? &zeroed_unmaps : &dirty_unmaps, 1);
	}
	return (int)syscall(SYS_munmap, addr, len);
}

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
	// The control: a mapping of the state's size, not zeroed, is seen.
	unsigned char *mine = mmap(NULL, STATE_MAPPING, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	SETUP(mine != MAP_FAILED, "mmap");
	memset(mine, 1, STATE_MAPPING);
	SETUP(munmap(mine, STATE_MAPPING) == 0, "munmap");
	CHECK(atomic_load(&dirty_unmaps) == 1 && atomic_load(&zeroed_unmaps) == 0,
	      "control: a mapping of ones was seen as %ld not zeroed and %ld zeroed, not 1 and 0",
	      atomic_load(&dirty_unmaps), atomic_load(&zeroed_unmaps));
	atomic_store(&dirty_unmaps, 0);

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
	long zeroed = atomic_load(&zeroed_unmaps), dirty = atomic_load(&dirty_unmaps);
	CHECK(dirty == 0, "%ld states were unmapped without being zeroed first", dirty);
	CHECK(zeroed >= THREADS, "%ld zeroed states were unmapped, fewer than the %d threads: "
	      "the library's releases do not come through this munmap", zeroed, THREADS);
	printf("destructor_rounds%s%s%s: VmSize %ld KiB after %d threads, %+ld KiB after %d; "
	       "%ld states unmapped zeroed, %ld not; %s\n",
	       leak_control ? " --leak-control" : "", first_draw_in_destructor ? " --first-draw-in-destructor" : "",
	       test_key_first ? " --test-key-first" : "", at_from, MEASURE_FROM, growth, THREADS, zeroed, dirty,
	       failures ? "FAILED" : "ok");
	return failures ? 1 : 0;
}
