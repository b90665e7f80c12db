// Thread exit on Windows: the state of every thread that drew is zeroed and
// released when the thread exits, also for threads created by C code that
// Rust knows nothing of (CreateThread, _beginthreadex).
//
// States are counted as the system sees them: VirtualQuery walks the address
// space and counts the committed, private, read-write regions of exactly one
// page that begin an allocation (what randp's VirtualAlloc of one page
// makes). While THREADS threads that drew are alive, the count must have
// grown by at least THREADS (the control: the count sees the states); once
// they have exited it must be back where it started.
//
// Built three ways (make test-windows-c): linked with build/windows/
// librandp.a, linked with randp.dll through its import library, and with
// -DRANDP_LOADLIBRARY, which loads randp.dll with LoadLibrary, starts the
// threads, calls FreeLibrary while they still run, and checks that the DLL
// stayed loaded (it pins itself, as librandp.so is NODELETE) and that their
// states are still released when they exit. Exits 0 when every check passes.

#include <windows.h>
#include <process.h>
#include <stdint.h>
#include <stdio.h>

#ifndef RANDP_LOADLIBRARY
#include "randp.h"
static uint64_t (*draw)(void) = randp_u64;
#else
static uint64_t (*draw)(void);
#endif

enum { THREADS = 64 };

static int failures;
static HANDLE release_event;
static uint64_t outputs[2 * THREADS];

#define CHECK(cond, ...)                                                     \
	do {                                                                     \
		if (!(cond)) {                                                       \
			failures++;                                                      \
			fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond); \
			fprintf(stderr, __VA_ARGS__);                                    \
			fputc('\n', stderr);                                             \
		}                                                                    \
	} while (0)

static long count_states(void)
{
	long n = 0;
	MEMORY_BASIC_INFORMATION info;
	for (uintptr_t a = 0x10000; VirtualQuery((void *)a, &info, sizeof info) == sizeof info;
	     a = (uintptr_t)info.BaseAddress + info.RegionSize) {
		if (info.State == MEM_COMMIT && info.Type == MEM_PRIVATE && info.Protect == PAGE_READWRITE &&
		    info.RegionSize == 4096 && info.AllocationBase == info.BaseAddress)
			n++;
		if ((uintptr_t)info.BaseAddress + info.RegionSize < a)
			break;
	}
	return n;
}

// Draws once, then waits until the main thread lets every thread exit.
static DWORD WINAPI create_thread_body(void *arg)
{
	*(uint64_t *)arg = draw();
	WaitForSingleObject(release_event, INFINITE);
	return 0;
}

static unsigned __stdcall beginthreadex_body(void *arg)
{
	return (unsigned)create_thread_body(arg);
}

static void run_round(const char *how, int use_beginthreadex, HMODULE dll)
{
	HANDLE threads[THREADS];
	long before = count_states();
	ResetEvent(release_event);
	for (int i = 0; i < THREADS; i++) {
		uint64_t *out = &outputs[(use_beginthreadex ? THREADS : 0) + i];
		threads[i] = use_beginthreadex
		                 ? (HANDLE)_beginthreadex(NULL, 0, beginthreadex_body, out, 0, NULL)
		                 : CreateThread(NULL, 0, create_thread_body, out, 0, NULL);
		if (!threads[i]) {
			fprintf(stderr, "%s failed\n", how);
			exit(2);
		}
	}
	// Every thread has drawn once its output is non-zero (2^-64 otherwise).
	for (int i = 0; i < THREADS; i++)
		while (*(volatile uint64_t *)&outputs[(use_beginthreadex ? THREADS : 0) + i] == 0)
			Sleep(1);
	long alive = count_states();
	CHECK(alive - before >= THREADS, "%s: %ld states while %d threads that drew are alive (control)", how,
	      alive - before, THREADS);
	if (dll) {
		CHECK(FreeLibrary(dll), "FreeLibrary failed");
		CHECK(GetModuleHandleA("randp.dll") != NULL, "randp.dll was unloaded by FreeLibrary");
	}
	SetEvent(release_event);
	WaitForMultipleObjects(THREADS, threads, TRUE, INFINITE);
	for (int i = 0; i < THREADS; i++)
		CloseHandle(threads[i]);
	long after = count_states();
	CHECK(after == before, "%s: %ld states before, %ld after %d threads exited", how, before, after, THREADS);
	printf("thread_exit: %s: %ld states with the threads alive, %ld after they exited\n", how, alive - before,
	       after - before);
}

int main(void)
{
	HMODULE dll = NULL;
#ifdef RANDP_LOADLIBRARY
	dll = LoadLibraryA("randp.dll");
	if (!dll || !(draw = (uint64_t(*)(void))(void (*)(void))GetProcAddress(dll, "randp_u64"))) {
		fprintf(stderr, "cannot load randp_u64 from randp.dll\n");
		return 2;
	}
#endif
	release_event = CreateEventA(NULL, TRUE, FALSE, NULL);
	draw(); // the main thread's state exists before the counts
	run_round("CreateThread", 0, NULL);
	run_round("_beginthreadex", 1, dll);
	int repeats = 0;
	for (int i = 0; i < 2 * THREADS; i++)
		for (int j = i + 1; j < 2 * THREADS; j++)
			repeats += outputs[i] == outputs[j];
	CHECK(repeats == 0, "%d equal draws across %d threads", repeats, 2 * THREADS);
	if (failures) {
		fprintf(stderr, "thread_exit: %d checks failed\n", failures);
		return 1;
	}
	printf("thread_exit: all checks passed\n");
	return 0;
}
