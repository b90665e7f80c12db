/* References for the one-word rows: see word_floor.c. */
#ifndef RANDP_BENCH_WORD_FLOOR_H
#define RANDP_BENCH_WORD_FLOOR_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The least a call costs that hands out a word from a per-thread buffer and
 * erases it, keystream aside: a thread-local index, one word loaded and
 * zeroed behind it, the index stored back (the next call's load of the
 * index waits for that store). */
uint64_t word_floor_copyzero(void);

/* A call that does nothing: what the call through a pointer itself costs. */
uint64_t word_floor_empty(void);

#ifdef __cplusplus
}
#endif

#endif
