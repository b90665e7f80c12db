// bcryptprimitives.dll for the wine prefix the Windows tests run in (make
// test-windows installs it there), because Debian 12's wine 8.0 has none:
// without it no Rust program for x86_64-pc-windows-gnu starts under that
// wine, since Rust's std imports ProcessPrng from it as randp does.
//
// ProcessPrng here fills the buffer from wine's BCryptGenRandom with the
// system-preferred RNG (which wine takes from the host kernel). It is the
// OS for the tests, not part of randp: on Windows 10 and later the system's
// own bcryptprimitives.dll is loaded.
//
// For the tests of randp's abort path (tests/entropy_failure_windows.rs),
// every call returns FALSE, as a failing ProcessPrng would, while the
// process's environment has RANDP_TEST_PROCESSPRNG_FAIL (the test sets it
// after the seeds it wants to succeed). The real ProcessPrng is documented
// never to fail on Windows 10 and later; wine's own can.

#include <windows.h>
#include <bcrypt.h>

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len)
{
	char value[8];
	if (GetEnvironmentVariableA("RANDP_TEST_PROCESSPRNG_FAIL", value, sizeof value) > 0)
		return FALSE;
	while (len > 0) {
		ULONG chunk = len > 0x40000000 ? 0x40000000 : (ULONG)len;
		if (!BCRYPT_SUCCESS(BCryptGenRandom(NULL, data, chunk, BCRYPT_USE_SYSTEM_PREFERRED_RNG)))
			return FALSE;
		data += chunk;
		len -= chunk;
	}
	return TRUE;
}

// Tells the tests that this stand-in, and so its failure switch, is loaded.
__declspec(dllexport) int randp_test_processprng_stand_in(void) { return 1; }
