/* What a call of one word costs with no generator behind it, compiled twice:
 * into bench_c, beside randp's static library, and into libwordfloor.so,
 * which bench_c dlopens as it dlopens librandp.so. The two randp_u64 rows
 * (linked statically, through dlopen) each get a reference made by the same
 * code and reached the same way, so that what a call into a dlopen'ed
 * object costs on this CPU is measured, not assumed.
 *
 * Neither function is a contestant: they make no random bytes. */
#include "word_floor.h"

/* As many words as randp's buffer holds (224 blocks), so that the index
 * wraps as rarely as randp refills. The buffer is the process's, the index
 * the thread's; the benchmark draws from one thread. */
#define WORDS (224 * 16 / 8)
static uint64_t words[WORDS];

/* Initial-exec, as randp's own thread-local word: a load at a fixed offset
 * from the thread pointer in the executable, through one GOT entry in the
 * shared object (glibc keeps room for it in every thread's static TLS). */
static _Thread_local size_t word_index __attribute__((tls_model("initial-exec")));

uint64_t word_floor_copyzero(void)
{
	size_t i = word_index;
	if (i == 0)
		i = WORDS;
	i--;
	uint64_t v = words[i];
	words[i] = 0;
	word_index = i;
	return v;
}

uint64_t word_floor_empty(void)
{
	return 0;
}
