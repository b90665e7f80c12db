// A program written for planet36/randp: it uses exactly that library's API
// (randp_bytes, randp_u8 .. randp_u64, randp_lt_u32, randp_lt_u64) and relies
// on randp.h for <stddef.h> and <stdint.h>, as planet36/randp's header
// provides them. The Makefile builds it unchanged as C17 and as C++17 with
// -Wall -Wextra -Werror against this project's header and static library.

#include "randp.h"

#include <inttypes.h>
#include <stdio.h>

int main(void)
{
	unsigned char key[32];
	randp_bytes(key, sizeof key);

	uint8_t a = randp_u8();
	uint16_t b = randp_u16();
	uint32_t c = randp_u32();
	uint64_t d = randp_u64();
	uint32_t die = randp_lt_u32(6) + 1;
	uint64_t index = randp_lt_u64(1000000);

	unsigned nonzero = 0;
	for (size_t i = 0; i < sizeof key; i++)
		nonzero += key[i] != 0;

	printf("planet36_program: u8=%" PRIu8 " u16=%" PRIu16 " u32=%" PRIu32 " u64=%" PRIu64
	       " die=%" PRIu32 " index=%" PRIu64 "\n",
	       a, b, c, d, die, index);
	// 32 random bytes are all zero with probability 2^-256.
	return (die >= 1 && die <= 6 && index < 1000000 && nonzero > 0) ? 0 : 1;
}
