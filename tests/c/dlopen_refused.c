// What musl's dynamic loader does with librandp.so, whose thread-local word
// uses the initial-exec TLS model (src/os/linux/tls.rs). musl gives initial-exec TLS
// only to the libraries loaded at startup; dlopen of such a library later
// fails with "initial-exec TLS resolves to dynamic definition" (musl's
// ldso/dynlink.c, do_relocs). glibc instead keeps spare static TLS for such
// libraries, which is why the glibc tests load librandp.so with dlopen.
//
// Built two ways (mk/musl.mk):
//   - plain: dlopen(PATH) must fail with that message, and the program goes
//     on (no crash, no half-loaded library). If it ever succeeds, musl has
//     changed and the README's Platforms section must say so.
//   - -DRANDP_LINKED, linked with -lrandp (DT_NEEDED librandp.so.0): the
//     library is loaded at startup, so dlopen(PATH) finds it loaded and
//     succeeds, and its randp_u64 is the linked one and draws: the way a
//     musl program lets its plugins use randp.
//
// Usage: dlopen_refused PATH_TO_LIBRANDP_SO_0. Exit 0: as above; 1: not.

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#ifdef RANDP_LINKED
#include "randp.h"
#endif

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s PATH_TO_LIBRANDP_SO_0\n", argv[0]);
		return 2;
	}
	void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
#ifdef RANDP_LINKED
	if (h == NULL) {
		fprintf(stderr, "FAIL: dlopen of the already loaded %s: %s\n", argv[1], dlerror());
		return 1;
	}
	uint64_t (*u64)(void) = (uint64_t(*)(void))(uintptr_t)dlsym(h, "randp_u64");
	if (u64 != randp_u64) {
		fprintf(stderr, "FAIL: dlsym gave randp_u64 at %p, the linked one is at %p\n",
		        (void *)(uintptr_t)u64, (void *)(uintptr_t)randp_u64);
		return 1;
	}
	uint64_t a = u64(), b = u64();
	if (a == b) {
		fprintf(stderr, "FAIL: two draws through the dlopen handle were equal\n");
		return 1;
	}
	printf("dlopen_refused (linked): dlopen finds the librandp.so.0 loaded at startup, and it draws\n");
	return 0;
#else
	if (h != NULL) {
		fprintf(stderr, "FAIL: dlopen of %s succeeded: this loader accepts initial-exec TLS in a "
		                "library loaded after startup; update the README's Platforms section\n", argv[1]);
		return 1;
	}
	const char *e = dlerror();
	if (e == NULL || strstr(e, "initial-exec TLS resolves to dynamic definition") == NULL) {
		fprintf(stderr, "FAIL: dlopen of %s failed, but not for its TLS: %s\n", argv[1], e ? e : "(no dlerror)");
		return 1;
	}
	printf("dlopen_refused: the loader refuses a dlopen of librandp.so: %s\n", e);
	return 0;
#endif
}
