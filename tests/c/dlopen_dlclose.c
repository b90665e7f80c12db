// librandp.so loaded with dlopen and closed with dlclose while a thread that
// drew from it is still running. The thread exists before the dlopen, so its
// thread-local word is one the loader had to set up for a running thread
// (glibc from its static TLS reserve; musl, where randp uses a TLS
// descriptor, by giving every thread the new module's TLS at dlopen). The
// library is NODELETE, so it stays
// loaded (dlopen with RTLD_NOLOAD still finds it), its functions still work
// through the old pointers, and the thread's exit runs randp's pthread key
// destructor in code that is still mapped. Without NODELETE, dlclose unmaps
// the library and the thread's exit jumps into unmapped memory.
//
// Usage: dlopen_dlclose PATH_TO_LIBRANDP_SO

#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef uint64_t (*u64_fn)(void);
typedef void (*bytes_fn)(void *, size_t);

static u64_fn randp_u64_ptr;
static bytes_fn randp_bytes_ptr;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int stage; // 1: main loaded the library; 2: the thread drew; 3: main closed it

static void wait_stage(int s)
{
	pthread_mutex_lock(&mu);
	while (stage < s)
		pthread_cond_wait(&cv, &mu);
	pthread_mutex_unlock(&mu);
}

static void set_stage(int s)
{
	pthread_mutex_lock(&mu);
	stage = s;
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&mu);
}

static void *drawer(void *out)
{
	uint64_t *words = out;
	wait_stage(1);
	words[0] = randp_u64_ptr(); // maps this thread's state and sets its key
	set_stage(2);
	wait_stage(3);
	words[1] = randp_u64_ptr(); // after dlclose
	return NULL; // the key destructor runs now
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s PATH_TO_LIBRANDP_SO\n", argv[0]);
		return 2;
	}
	uint64_t words[2] = {0, 0};
	pthread_t t;
	if (pthread_create(&t, NULL, drawer, words) != 0) {
		fprintf(stderr, "dlopen_dlclose: pthread_create failed\n");
		return 1;
	}
	void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		fprintf(stderr, "dlopen_dlclose: dlopen: %s\n", dlerror());
		return 1;
	}
	// POSIX allows converting dlsym's result to a function pointer.
	*(void **)&randp_u64_ptr = dlsym(lib, "randp_u64");
	*(void **)&randp_bytes_ptr = dlsym(lib, "randp_bytes");
	if (!randp_u64_ptr || !randp_bytes_ptr) {
		fprintf(stderr, "dlopen_dlclose: dlsym failed\n");
		return 1;
	}

	set_stage(1);
	wait_stage(2);
	if (dlclose(lib) != 0) {
		fprintf(stderr, "dlopen_dlclose: dlclose: %s\n", dlerror());
		return 1;
	}
	if (!dlopen(argv[1], RTLD_NOW | RTLD_NOLOAD)) {
		fprintf(stderr, "dlopen_dlclose: the library was unloaded by dlclose (not NODELETE)\n");
		return 1;
	}
	uint8_t buf[64];
	memset(buf, 0, sizeof buf);
	randp_bytes_ptr(buf, sizeof buf); // main thread, after dlclose
	set_stage(3);
	pthread_join(t, NULL); // the thread ran randp's key destructor on exit

	int zero = 1;
	for (size_t i = 0; i < sizeof buf; i++)
		zero &= buf[i] == 0;
	if (words[0] == words[1] || zero) {
		fprintf(stderr, "dlopen_dlclose: draws after dlclose repeated or wrote nothing\n");
		return 1;
	}
	printf("dlopen_dlclose: librandp.so stays loaded after dlclose; draws and thread exit work\n");
	return 0;
}
