// Compile-only check that this project's randp.h agrees with planet36/randp's
// declarations: the header is included first, then planet36/randp's
// prototypes are repeated exactly as its randp.h writes them. Any difference
// in a parameter or return type is a conflicting-types error in C and an
// overload-by-return-type error in C++.

#include "randp.h"

#if defined(__cplusplus)
extern "C" {
#endif

void randp_bytes(void* buf, size_t n);

uint8_t randp_u8();

uint16_t randp_u16();

uint32_t randp_u32();

uint64_t randp_u64();

uint32_t randp_lt_u32(uint32_t upper_bound);

uint64_t randp_lt_u64(uint64_t upper_bound);

#if defined(__cplusplus)
}
#endif
