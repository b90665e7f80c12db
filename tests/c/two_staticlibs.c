// One program linking randp's static library together with another
// LTO-built Rust static library, which has its own std, compiler_builtins and
// personality routine: both must work. Such links can fail with duplicate
// symbols (rust-lang/rust#44322). On Linux build/librandp.a is localised and
// exports only randp_* (mk/c.mk), so no clash can arise; Windows' librandp.a
// is rustc's archive as built, and mk/windows.mk links it with mingw-w64's
// linker.

#include "randp.h"

#include <stdio.h>

uint64_t other_distinct_bytes(const uint8_t *buf, size_t len);
uint64_t other_calls(void);

int main(void)
{
	uint8_t buf[4096];
	randp_bytes(buf, sizeof buf);
	uint64_t distinct = other_distinct_bytes(buf, sizeof buf);
	uint64_t calls = other_calls();
	printf("two_staticlibs: %llu distinct byte values in 4096 random bytes, %llu call\n",
	       (unsigned long long)distinct, (unsigned long long)calls);
	// 4096 uniform bytes miss a given value with probability (255/256)^4096 < 2^-23;
	// fewer than 250 distinct values means one library's code went wrong.
	return (distinct >= 250 && calls == 1) ? 0 : 1;
}
