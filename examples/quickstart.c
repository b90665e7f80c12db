#include <inttypes.h>
#include <stdio.h>
#include <randp.h>

int main(void) {
    unsigned char key[32];
    randp_bytes(key, sizeof key);   /* any length; never fails */
    uint32_t die = randp_lt_u32(6) + 1;   /* like arc4random_uniform */
    printf("%016" PRIx64 " %" PRIu32 "\n", randp_u64(), die);
    return 0;
}
