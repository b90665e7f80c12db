// A plugin host may dlclose librandp.so while a thread that drew through it
// is still running; that thread must still be able to exit.
//
// The library is loaded with dlopen, a worker thread draws through the
// dlsym'd randp_u64, the main thread calls dlclose (which must return 0),
// then the worker exits and is joined. If the library were unmapped while a
// pthread key destructor it registered (or any code the exiting thread runs
// for it) stays registered, the worker's exit jumps into unmapped memory.
// This proves the process ends normally: the test body runs in a child and
// the child must exit with status 0 (not die by SIGSEGV). Whether the library
// is still mapped after dlclose (RTLD_NOLOAD) is printed, not asserted:
// staying loaded (NODELETE) is one correct answer, a clean unload another.
//
// Usage: dlclose_exit LIBRARY. Exit 0: passed; 1: failed; 2: set-up failed.

#define _GNU_SOURCE
#include "check.h"

#include <dlfcn.h>
#include <pthread.h>
#include <semaphore.h>

typedef uint64_t (*u64_fn)(void);

static const char *library;
static u64_fn draw;
static sem_t drew, may_exit;

static void *worker(void *arg)
{
	(void)arg;
	volatile uint64_t x = draw();
	(void)x;
	sem_post(&drew);
	while (sem_wait(&may_exit) != 0 && errno == EINTR)
		;
	return NULL;
}

static int body(void *arg)
{
	(void)arg;
	void *h = dlopen(library, RTLD_NOW | RTLD_LOCAL);
	SETUP(h != NULL, "dlopen %s: %s", library, dlerror());
	draw = (u64_fn)(uintptr_t)dlsym(h, "randp_u64");
	SETUP(draw != NULL, "dlsym randp_u64: %s", dlerror());
	SETUP(sem_init(&drew, 0, 0) == 0 && sem_init(&may_exit, 0, 0) == 0, "sem_init");
	pthread_t t;
	SETUP(pthread_create(&t, NULL, worker, NULL) == 0, "pthread_create");
	while (sem_wait(&drew) != 0 && errno == EINTR)
		;

	int rc = dlclose(h);
	CHECK(rc == 0, "dlclose returned %d: %s", rc, dlerror());
	void *again = dlopen(library, RTLD_NOW | RTLD_NOLOAD);
	printf("dlclose_exit: after dlclose the library is %s\n",
	       again ? "still loaded" : "unloaded");
	if (again)
		dlclose(again);
	fflush(stdout);

	sem_post(&may_exit);
	SETUP(pthread_join(t, NULL) == 0, "pthread_join");
	return failures ? 1 : 0;
}

int main(int argc, char **argv)
{
	SETUP(argc == 2, "usage: dlclose_exit LIBRARY");
	library = argv[1];
	char st[128];
	int status = run_in_child(body, NULL);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "dlopen, draw on a worker, dlclose, worker exits: the process %s",
	      status_str(status, st, sizeof st));
	printf("dlclose_exit: the process %s; %s\n", status_str(status, st, sizeof st),
	       failures ? "FAILED" : "ok");
	return failures ? 1 : 0;
}
