/* Linux's vDSO getrandom (kernel 6.11 and later), called directly: the
 * fastest kernel-backed secure source, which glibc 2.41+ and Go 1.24+ use
 * and glibc 2.36 does not. A benchmark rival only; randp never calls it. */
#ifndef RANDP_BENCH_VDSO_GETRANDOM_H
#define RANDP_BENCH_VDSO_GETRANDOM_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Finds __vdso_getrandom in the vDSO and asks it for its state parameters.
 * Returns 0 when it can be used, or -1 with a reason in *why (a static
 * string): no vDSO, an older kernel without the symbol, or a refusal. */
int vdso_getrandom_init(const char **why);

/* Fills buf with n bytes through the vDSO, with this thread's own opaque
 * state (mapped on the thread's first call and never freed: the benchmark
 * threads are few). Aborts if the vDSO call fails or init did not succeed. */
void vdso_getrandom_fill(void *buf, size_t n);

#ifdef __cplusplus
}
#endif

#endif
