// A program with exactly the faults `make valgrind` must catch: an invalid
// write one byte past a heap block, and a definitely lost block.
// scripts/valgrind-memcheck.sh runs it first and insists that memcheck fails
// it, so a passing memcheck run of the real tests means something.
#include <stdlib.h>
#include <string.h>

int main(void)
{
	volatile size_t n = 16;
	char *overrun = malloc(n);
	memset(overrun, 0, n + 1); // invalid write of 1 byte
	free(overrun);
	char *lost = malloc(64);
	lost[0] = 1;
	lost = NULL; // definitely lost
	return 0;
}
