/* Resolving the contestants of contestants.h.
 *
 * glibc's and libbsd's arc4random families share their names, so neither is
 * linked by name: glibc's come from libc.so.6 by symbol version (GLIBC_2.36)
 * and libbsd's from a dlopen'ed libbsd.so.0. planet36/randp, compiled from
 * its own source at bench time, links with its randp_* symbols renamed to
 * p36_randp_* (objcopy --redefine-sym), beside randp's build/librandp.a. */
#define _GNU_SOURCE
#include "contestants.h"
#include "vdso_getrandom.h"
#include "word_floor.h"

#include <dlfcn.h>
#include <immintrin.h>
#include <openssl/rand.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "randp.h"

#if RANDP_BENCH_PLANET36
void p36_randp_bytes(void *buf, size_t n);
uint32_t p36_randp_u32(void);
uint64_t p36_randp_u64(void);
uint32_t p36_randp_lt_u32(uint32_t upper_bound);
#endif

static void die(const char *what)
{
	fprintf(stderr, "contestants: %s\n", what);
	abort();
}

/* Fills through a byte-oriented call, 8 bytes for a u64 or 4 for a u32:
 * what a caller of a library without word calls writes. */
#define WORDS_FROM_FILL(name, fill)                                                \
	static uint32_t name##_u32(void) { uint32_t v; fill(&v, sizeof v); return v; } \
	static uint64_t name##_u64(void) { uint64_t v; fill(&v, sizeof v); return v; }

/* ---- OpenSSL ---- */
static void openssl_fill(void *buf, size_t n)
{
	if (RAND_bytes(buf, (int)n) != 1)
		die("RAND_bytes failed");
}
WORDS_FROM_FILL(openssl, openssl_fill)

/* ---- the kernel: getentropy, the getrandom system call, the vDSO ---- */
static void getentropy_fill(void *buf, size_t n)
{
	if (getentropy(buf, n) != 0)
		die("getentropy failed");
}
WORDS_FROM_FILL(getentropy, getentropy_fill)

static void getrandom_syscall_fill(void *buf, size_t n)
{
	unsigned char *p = buf;
	while (n > 0) {
		ssize_t got = getrandom(p, n, 0);
		if (got <= 0)
			die("getrandom failed");
		p += got;
		n -= (size_t)got;
	}
}
WORDS_FROM_FILL(getrandom_syscall, getrandom_syscall_fill)
WORDS_FROM_FILL(vdso, vdso_getrandom_fill)

/* ---- the copy a buffered generator makes: no generator at all ----
 * What every buffered generator pays per call besides its keystream: the
 * copy out of a 4 KiB buffer (memcpy) and the zeroing behind it
 * (explicit_bzero), as planet36/randp makes them, from a thread's own
 * buffer whose bytes are never refilled. A reference for the mid-size fill
 * rows, not a contestant: it makes no random bytes. */
static _Thread_local uint64_t copyzero_buf[4096 / 8] __attribute__((aligned(64)));
static _Thread_local size_t copyzero_pos;

static void copyzero_fill(void *buf, size_t n)
{
	unsigned char *dst = buf, *src = (unsigned char *)copyzero_buf;
	while (n > 0) {
		if (copyzero_pos == sizeof copyzero_buf)
			copyzero_pos = 0;
		size_t m = sizeof copyzero_buf - copyzero_pos;
		if (m > n)
			m = n;
		memcpy(dst, src + copyzero_pos, m);
		explicit_bzero(src + copyzero_pos, m);
		copyzero_pos += m, dst += m, n -= m;
	}
}

/* ---- arc4random: glibc (a getrandom system call per call on glibc < 2.41)
 * and libbsd (a userspace ChaCha20, like OpenBSD's) ---- */
struct arc4 {
	fill_fn buf;
	u32_fn word;
	lt_u32_fn uniform;
};
static struct arc4 glibc_arc4, bsd_arc4;

static void glibc_fill(void *b, size_t n) { glibc_arc4.buf(b, n); }
static uint64_t glibc_u64(void) { uint64_t v; glibc_arc4.buf(&v, sizeof v); return v; }
static void bsd_fill(void *b, size_t n) { bsd_arc4.buf(b, n); }
static uint64_t bsd_u64(void) { uint64_t v; bsd_arc4.buf(&v, sizeof v); return v; }

static const char *load_arc4(struct arc4 *a, void *lib, const char *version)
{
	void *buf, *word, *uniform;
	if (version) {
		buf = dlvsym(lib, "arc4random_buf", version);
		word = dlvsym(lib, "arc4random", version);
		uniform = dlvsym(lib, "arc4random_uniform", version);
	} else {
		buf = dlsym(lib, "arc4random_buf");
		word = dlsym(lib, "arc4random");
		uniform = dlsym(lib, "arc4random_uniform");
	}
	if (!buf || !word || !uniform)
		return "the library has no arc4random family";
	a->buf = (fill_fn)buf;
	a->word = (u32_fn)word;
	a->uniform = (lt_u32_fn)uniform;
	return NULL;
}

/* ---- RDRAND / RDSEED as planet36/randp's rdrand32/rdseed32: retried until
 * the CPU reports success ---- */
__attribute__((target("rdrnd"))) static uint32_t rdrand32(void)
{
	unsigned v;
	while (!_rdrand32_step(&v)) {
	}
	return v;
}
/* The kernel's arch_get_random_long before seed 004's patch: one 64-bit
 * RDRAND (retried here until it succeeds, as the kernel tried a few times). */
__attribute__((target("rdrnd"))) static uint64_t rdrand64(void)
{
	unsigned long long v;
	while (!_rdrand64_step(&v)) {
	}
	return v;
}
__attribute__((target("rdseed"))) static uint32_t rdseed32(void)
{
	unsigned v;
	while (!_rdseed32_step(&v)) {
	}
	return v;
}

static struct contestant table[24];
static size_t count;

static struct contestant *add(const char *key)
{
	if (count == sizeof table / sizeof table[0])
		die("too many contestants");
	struct contestant *c = &table[count++];
	c->key = key;
	return c;
}

/* The function named sym in shared object so (opened once), or NULL with
 * *why saying what failed. not_this is the executable's own copy, which
 * dlsym must not return. */
static void *symbol_of(void *so, const char *so_path, const char *sym, const void *not_this, const char **why)
{
	if (!so_path) {
		*why = "no shared object given";
		return NULL;
	}
	if (!so) {
		*why = "the shared object could not be loaded";
		return NULL;
	}
	void *f = dlsym(so, sym);
	if (!f || f == not_this) {
		*why = f ? "dlsym returned the executable's copy" : "the shared object lacks the symbol";
		return NULL;
	}
	return f;
}

const struct contestant *contestants_load(const char *randp_so, const char *floor_so, size_t *n)
{
	if (count) {
		*n = count;
		return table;
	}
	struct contestant *c;

	c = add("randp");
	c->fill = randp_bytes, c->u32 = randp_u32, c->u64 = randp_u64, c->lt_u32 = randp_lt_u32;

	/* Called through the pointer dlsym returns, as the static row calls
	 * randp_u64 through its own pointer: one indirect call each. */
	void *so = randp_so ? dlopen(randp_so, RTLD_NOW | RTLD_LOCAL) : NULL;
	const char *why = NULL;
	c = add("randp_dlopen");
	if (!(c->u64 = (u64_fn)symbol_of(so, randp_so, "randp_u64", (const void *)randp_u64, &why)))
		c->missing = why;

	c = add("planet36");
#if RANDP_BENCH_PLANET36
	c->fill = p36_randp_bytes, c->u32 = p36_randp_u32, c->u64 = p36_randp_u64, c->lt_u32 = p36_randp_lt_u32;
#else
	c->missing = "peer source unavailable";
#endif

	c = add("arc4random_glibc");
	void *libc = dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD);
	if ((c->missing = libc ? load_arc4(&glibc_arc4, libc, "GLIBC_2.36") : "libc.so.6 not found") == NULL)
		c->fill = glibc_fill, c->u32 = glibc_arc4.word, c->u64 = glibc_u64, c->lt_u32 = glibc_arc4.uniform;

	c = add("arc4random_libbsd");
	void *bsd = dlopen("libbsd.so.0", RTLD_NOW | RTLD_LOCAL);
	if ((c->missing = bsd ? load_arc4(&bsd_arc4, bsd, NULL) : "libbsd.so.0 not installed") == NULL)
		c->fill = bsd_fill, c->u32 = bsd_arc4.word, c->u64 = bsd_u64, c->lt_u32 = bsd_arc4.uniform;

	c = add("openssl");
	c->fill = openssl_fill, c->u32 = openssl_u32, c->u64 = openssl_u64;

	c = add("getrandom_vdso");
	if (vdso_getrandom_init(&why) == 0)
		c->fill = vdso_getrandom_fill, c->u32 = vdso_u32, c->u64 = vdso_u64;
	else
		c->missing = why;

	c = add("getrandom_syscall");
	c->fill = getrandom_syscall_fill, c->u32 = getrandom_syscall_u32, c->u64 = getrandom_syscall_u64;

	c = add("getentropy");
	c->fill = getentropy_fill, c->fill_max = 256, c->u32 = getentropy_u32, c->u64 = getentropy_u64;

	c = add("copyzero");
	c->fill = copyzero_fill, c->u64 = word_floor_copyzero;

	/* The one-word references through a dlopen'ed object, as randp_dlopen,
	 * and the call alone in both places (word_floor.c). */
	void *floor = floor_so ? dlopen(floor_so, RTLD_NOW | RTLD_LOCAL) : NULL;
	c = add("copyzero_dlopen");
	if (!(c->u64 = (u64_fn)symbol_of(floor, floor_so, "word_floor_copyzero", (const void *)word_floor_copyzero, &why)))
		c->missing = why;
	c = add("empty");
	c->u64 = word_floor_empty;
	c = add("empty_dlopen");
	if (!(c->u64 = (u64_fn)symbol_of(floor, floor_so, "word_floor_empty", (const void *)word_floor_empty, &why)))
		c->missing = why;

	c = add("rdrand32");
	if (__builtin_cpu_supports("rdrnd"))
		c->u32 = rdrand32;
	else
		c->missing = "no RDRAND on this CPU";

	c = add("rdrand64");
	if (__builtin_cpu_supports("rdrnd"))
		c->u64 = rdrand64;
	else
		c->missing = "no RDRAND on this CPU";

	c = add("rdseed32");
	if (__builtin_cpu_supports("rdseed"))
		c->u32 = rdseed32;
	else
		c->missing = "no RDSEED on this CPU";

	*n = count;
	return table;
}

const struct contestant *contestant_find(const char *key)
{
	for (size_t i = 0; i < count; i++)
		if (strcmp(table[i].key, key) == 0)
			return &table[i];
	return NULL;
}
