/* The C-to-C contestants: randp's C ABI and the C libraries a C programmer
 * would call instead, each as a table of function pointers so that every
 * call is a real call, made the same way for all. */
#ifndef RANDP_BENCH_CONTESTANTS_H
#define RANDP_BENCH_CONTESTANTS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef void (*fill_fn)(void *buf, size_t n);
typedef uint32_t (*u32_fn)(void);
typedef uint64_t (*u64_fn)(void);
typedef uint32_t (*lt_u32_fn)(uint32_t upper_bound);

/* One contestant. A missing entry point is NULL (the contestant has no such
 * call); when the whole contestant is unavailable, missing says why and
 * every pointer is NULL. */
struct contestant {
	const char *key;     /* row key in the results, e.g. "arc4random_libbsd" */
	fill_fn fill;        /* fill n bytes, as the library's own call does */
	size_t fill_max;     /* largest n one fill call accepts (0: no limit) */
	u32_fn u32;
	u64_fn u64;
	lt_u32_fn lt_u32;
	const char *missing; /* NULL when available */
};

/* Resolves every contestant. randp_so is the path of librandp.so to dlopen
 * for the "randp_dlopen" row, floor_so that of libwordfloor.so (word_floor.c)
 * for the "copyzero_dlopen" and "empty_dlopen" rows (NULL: those rows are
 * missing). Returns the table and its length in *n; the table lives for the
 * process. */
const struct contestant *contestants_load(const char *randp_so, const char *floor_so, size_t *n);

/* The contestant with this key, or NULL. */
const struct contestant *contestant_find(const char *key);

#ifdef __cplusplus
}
#endif

#endif
