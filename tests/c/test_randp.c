// The C ABI test: calls every function of include/randp.h through the real
// library (the Makefile links it once against build/librandp.a and once
// against target/release/librandp.so; make test-windows-c links it with
// mingw-w64 against build/windows/librandp.a and randp.dll and runs it under
// wine) and checks the contract the header states. Exits 0 when every check
// passes; prints each failure and exits 1 otherwise.

#include "randp.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _WIN32
#include <windows.h>
#else
#include <sys/wait.h>
#include <unistd.h>
#endif

static int failures;

#define CHECK(cond, ...)                                                     \
	do {                                                                     \
		if (!(cond)) {                                                       \
			failures++;                                                      \
			fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond); \
			fprintf(stderr, __VA_ARGS__);                                    \
			fputc('\n', stderr);                                             \
		}                                                                    \
	} while (0)

// Bytes of known content on both sides of every buffer handed to the library.
enum { GUARD = 64 };

static uint8_t guard_byte(size_t i) { return (uint8_t)(0xA5u ^ (i * 37u)); }

typedef void (*fill_fn)(void *buf, size_t n);

static void fill_with_bytes(void *buf, size_t n) { randp_bytes(buf, n); }

static void fill_with_read(void *buf, size_t n)
{
	int rc = randp_read(buf, n);
	CHECK(rc == 0, "randp_read(buf, %zu) returned %d", n, rc);
}

// Fills a buffer of n bytes, at an offset that varies its alignment, 24
// times; before each fill the buffer is set to 0x00 or 0xFF. A byte the
// library never writes keeps the prefill; a random byte matches the prefill
// all 24 times with probability 2^-192. The guard bytes around the buffer
// must never change, and two fills of 16 bytes or more must differ.
static void check_fill(const char *name, fill_fn fill, size_t n)
{
	enum { ROUNDS = 24 };
	const size_t offset = n % 8;
	const size_t total = GUARD + offset + n + GUARD;
	uint8_t *mem = malloc(total);
	uint8_t *written = calloc(n ? n : 1, 1);
	uint8_t *previous = malloc(n ? n : 1);
	if (!mem || !written || !previous) {
		fprintf(stderr, "out of memory\n");
		exit(2);
	}
	uint8_t *buf = mem + GUARD + offset;
	for (size_t i = 0; i < total; i++)
		mem[i] = guard_byte(i);

	for (int round = 0; round < ROUNDS; round++) {
		const uint8_t prefill = (round % 2) ? 0xFF : 0x00;
		memset(buf, prefill, n);
		fill(buf, n);
		for (size_t i = 0; i < n; i++)
			written[i] |= (buf[i] != prefill);
		if (n >= 16 && round > 0)
			CHECK(memcmp(buf, previous, n) != 0, "%s: two fills of %zu bytes are equal", name, n);
		memcpy(previous, buf, n);
	}

	size_t unwritten = 0;
	for (size_t i = 0; i < n; i++)
		unwritten += !written[i];
	CHECK(unwritten == 0, "%s(%zu): %zu bytes never written", name, n, unwritten);

	size_t overwritten = 0;
	for (size_t i = 0; i < GUARD + offset; i++)
		overwritten += (mem[i] != guard_byte(i));
	for (size_t i = GUARD + offset + n; i < total; i++)
		overwritten += (mem[i] != guard_byte(i));
	CHECK(overwritten == 0, "%s(%zu): %zu guard bytes changed", name, n, overwritten);

	free(previous);
	free(written);
	free(mem);
}

static void test_fills(void)
{
	static const size_t sizes[] = {
		1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 255, 256,
		257, 1000, 4095, 4096, 4097, 16383, 16384, 16385, 65536, (1u << 20) + 3,
	};
	for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		check_fill("randp_bytes", fill_with_bytes, sizes[i]);
		check_fill("randp_read", fill_with_read, sizes[i]);
	}
}

// Length 0 is a no-op for both fill functions, with or without a buffer;
// randp_read with NULL and a length reports RANDP_ERR_NULL (documented as 1).
static void test_edge_cases(void)
{
	uint8_t buf[32];
	for (size_t i = 0; i < sizeof buf; i++)
		buf[i] = guard_byte(i);

	randp_bytes(buf, 0);
	randp_bytes(NULL, 0);
	CHECK(randp_read(buf, 0) == 0, "randp_read(buf, 0) must return 0");
	CHECK(randp_read(NULL, 0) == 0, "randp_read(NULL, 0) must return 0");
	for (size_t i = 0; i < sizeof buf; i++)
		CHECK(buf[i] == guard_byte(i), "length 0 changed byte %zu", i);

	CHECK(RANDP_ERR_NULL == 1, "RANDP_ERR_NULL is %d, documented as 1", (int)RANDP_ERR_NULL);
	static const size_t lens[] = {1, 8, 4096, SIZE_MAX};
	for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
		int rc = randp_read(NULL, lens[i]);
		CHECK(rc == RANDP_ERR_NULL, "randp_read(NULL, %zu) returned %d", lens[i], rc);
	}
}

// randp_vm_generation_readable says 1 only where the process can read the
// VMClock device: never on Windows, and on Linux not where /dev/vmclock0
// cannot be opened for reading; the answer does not change.
static void test_vm_generation(void)
{
	int readable = randp_vm_generation_readable();
	CHECK(readable == 0 || readable == 1, "randp_vm_generation_readable returned %d", readable);
	CHECK(randp_vm_generation_readable() == readable, "the answer changed");
#ifdef _WIN32
	CHECK(readable == 0, "Windows has no VMClock device");
#else
	if (access("/dev/vmclock0", R_OK) != 0)
		CHECK(readable == 0, "no readable /dev/vmclock0, yet the library reads a counter");
#endif
	printf("test_randp: VM generation counter readable: %d\n", readable);
}

// randp_bytes(NULL, n > 0) aborts the process with a message on stderr.
#ifndef _WIN32
static void test_bytes_null_aborts(const char *self)
{
	(void)self;
	int fds[2];
	if (pipe(fds) != 0) {
		perror("pipe");
		exit(2);
	}
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		perror("fork");
		exit(2);
	}
	if (pid == 0) {
		dup2(fds[1], STDERR_FILENO);
		close(fds[0]);
		close(fds[1]);
		randp_bytes(NULL, 16);
		_exit(0); // reached only if randp_bytes returned
	}
	close(fds[1]);
	char msg[1024];
	size_t len = 0;
	ssize_t got;
	while (len < sizeof msg - 1 &&
	       ((got = read(fds[0], msg + len, sizeof msg - 1 - len)) > 0 || (got < 0 && errno == EINTR)))
		if (got > 0)
			len += (size_t)got;
	msg[len] = '\0';
	close(fds[0]);
	int status;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
	}
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT,
	      "randp_bytes(NULL, 16) must abort; child status 0x%x", status);
	CHECK(strstr(msg, "randp") != NULL, "abort message must name randp; stderr was \"%s\"", msg);
}
#else
// On Windows: this program run again with --null-bytes, its stderr read
// through a pipe; the library ends it with __fastfail, whose exit status is
// STATUS_STACK_BUFFER_OVERRUN.
static void test_bytes_null_aborts(const char *self)
{
	SECURITY_ATTRIBUTES sa = {sizeof sa, NULL, TRUE};
	HANDLE rd, wr;
	if (!CreatePipe(&rd, &wr, &sa, 0) || !SetHandleInformation(rd, HANDLE_FLAG_INHERIT, 0)) {
		fprintf(stderr, "CreatePipe failed\n");
		exit(2);
	}
	STARTUPINFOA si = {.cb = sizeof si, .dwFlags = STARTF_USESTDHANDLES};
	si.hStdInput = GetStdHandle(STD_INPUT_HANDLE);
	si.hStdOutput = wr;
	si.hStdError = wr;
	PROCESS_INFORMATION pi;
	char cmd[MAX_PATH + 32];
	snprintf(cmd, sizeof cmd, "\"%s\" --null-bytes", self);
	if (!CreateProcessA(NULL, cmd, NULL, NULL, TRUE, 0, NULL, NULL, &si, &pi)) {
		fprintf(stderr, "CreateProcess failed\n");
		exit(2);
	}
	CloseHandle(wr);
	char msg[1024];
	DWORD len = 0, got;
	while (len < sizeof msg - 1 && ReadFile(rd, msg + len, (DWORD)(sizeof msg - 1 - len), &got, NULL) && got > 0)
		len += got;
	msg[len] = '\0';
	CloseHandle(rd);
	WaitForSingleObject(pi.hProcess, INFINITE);
	DWORD status = 0;
	GetExitCodeProcess(pi.hProcess, &status);
	CloseHandle(pi.hProcess);
	CloseHandle(pi.hThread);
	CHECK(status == 0xC0000409, "randp_bytes(NULL, 16) must abort (__fastfail); child status 0x%lx",
	      (unsigned long)status);
	CHECK(strstr(msg, "randp_bytes called with a NULL buffer") != NULL,
	      "abort message must name randp; output was \"%s\"", msg);
	CHECK(strstr(msg, "returned") == NULL, "randp_bytes(NULL, 16) returned");
}
#endif

// Draws N values and checks that every bit position takes both values
// (the OR of all draws has every bit of the type set, the AND has none):
// a stuck bit survives N = 256 draws with probability 2^-255.
#define CHECK_ALL_BITS(type, expr, all_ones)                                   \
	do {                                                                       \
		type or_ = 0, and_ = (type)(all_ones);                                 \
		for (int i = 0; i < 256; i++) {                                        \
			type v = (expr);                                                   \
			or_ |= v;                                                          \
			and_ &= v;                                                         \
		}                                                                      \
		CHECK(or_ == (type)(all_ones), "%s: some bit is never 1", #expr);     \
		CHECK(and_ == 0, "%s: some bit is never 0", #expr);                   \
	} while (0)

static void test_integers(void)
{
	CHECK_ALL_BITS(uint8_t, randp_u8(), UINT8_MAX);
	CHECK_ALL_BITS(uint16_t, randp_u16(), UINT16_MAX);
	CHECK_ALL_BITS(uint32_t, randp_u32(), UINT32_MAX);
	CHECK_ALL_BITS(uint64_t, randp_u64(), UINT64_MAX);
	CHECK_ALL_BITS(uint64_t, randp_uint64(), UINT64_MAX);
	CHECK_ALL_BITS(uint64_t, (uint64_t)randp_int63(), INT64_MAX);

	for (int i = 0; i < 100000; i++) {
		int64_t v = randp_int63();
		if (v < 0) {
			CHECK(v >= 0, "randp_int63 returned %" PRId64, v);
			break;
		}
	}

	// 256 draws of a byte cover about 162 distinct values; fewer than 100
	// means the bytes are far from uniform.
	bool seen[256] = {false};
	int distinct = 0;
	for (int i = 0; i < 256; i++) {
		uint8_t v = randp_u8();
		distinct += !seen[v];
		seen[v] = true;
	}
	CHECK(distinct >= 100, "256 randp_u8 draws gave only %d distinct values", distinct);

	// 64-bit draws never repeat in practice (birthday bound 2^-51 here).
	enum { N = 1024 };
	static uint64_t draws[N];
	for (int i = 0; i < N; i++)
		draws[i] = (i % 2) ? randp_u64() : randp_uint64();
	int repeats = 0;
	for (int i = 0; i < N; i++)
		for (int j = i + 1; j < N; j++)
			repeats += (draws[i] == draws[j]);
	CHECK(repeats == 0, "%d repeated 64-bit values in %d draws", repeats, N);
}

static void check_lt_u32(uint32_t bound, int draws)
{
	bool low = false, high = false; // below and at/above bound / 2
	uint32_t counts[8] = {0};
	for (int i = 0; i < draws; i++) {
		uint32_t v = randp_lt_u32(bound);
		if (v >= bound) {
			CHECK(v < bound, "randp_lt_u32(%" PRIu32 ") returned %" PRIu32, bound, v);
			return;
		}
		low |= v < bound / 2;
		high |= v >= bound / 2;
		if (bound <= 8)
			counts[v]++;
	}
	CHECK(low && high, "randp_lt_u32(%" PRIu32 ") never covered both halves", bound);
	for (uint32_t v = 0; bound <= 8 && v < bound; v++)
		CHECK(counts[v] > 0, "randp_lt_u32(%" PRIu32 ") never returned %" PRIu32, bound, v);
}

static void check_lt_u64(uint64_t bound, int draws)
{
	bool low = false, high = false;
	uint64_t counts[8] = {0};
	for (int i = 0; i < draws; i++) {
		uint64_t v = randp_lt_u64(bound);
		if (v >= bound) {
			CHECK(v < bound, "randp_lt_u64(%" PRIu64 ") returned %" PRIu64, bound, v);
			return;
		}
		low |= v < bound / 2;
		high |= v >= bound / 2;
		if (bound <= 8)
			counts[v]++;
	}
	CHECK(low && high, "randp_lt_u64(%" PRIu64 ") never covered both halves", bound);
	for (uint64_t v = 0; bound <= 8 && v < bound; v++)
		CHECK(counts[v] > 0, "randp_lt_u64(%" PRIu64 ") never returned %" PRIu64, bound, v);
}

// Results stay below the bound, cover the range, and bounds 0 and 1 give 0
// (as planet36/randp and arc4random_uniform document).
static void test_bounded(void)
{
	static const uint32_t b32[] = {2, 3, 7, 8, 1000, (UINT32_C(1) << 31) + 1, UINT32_MAX};
	for (size_t i = 0; i < sizeof b32 / sizeof b32[0]; i++)
		check_lt_u32(b32[i], 20000);
	static const uint64_t b64[] = {2, 3, 7, 8, 1000, (UINT64_C(1) << 32) + 1, (UINT64_C(1) << 63) + 1,
	                               UINT64_MAX};
	for (size_t i = 0; i < sizeof b64 / sizeof b64[0]; i++)
		check_lt_u64(b64[i], 20000);

	for (int i = 0; i < 1000; i++) {
		uint32_t a = randp_lt_u32(0), b = randp_lt_u32(1);
		uint64_t c = randp_lt_u64(0), d = randp_lt_u64(1);
		if (a || b || c || d) {
			CHECK(a == 0 && b == 0 && c == 0 && d == 0,
			      "bounds 0 and 1 gave %" PRIu32 " %" PRIu32 " %" PRIu64 " %" PRIu64, a, b, c, d);
			break;
		}
	}
}

// Threads the library did not create (plain pthreads) each get their own
// stream, and their state is released at exit: 512 short-lived threads draw
// 16 bytes each, and no two draws are equal.
enum { THREADS = 512 };
static uint8_t thread_out[THREADS][16];

static void *thread_draw(void *arg)
{
	uint8_t *out = arg;
	randp_bytes(out, 8);
	uint64_t v = randp_u64();
	memcpy(out + 8, &v, 8);
	return NULL;
}

static void test_threads(void)
{
	for (int i = 0; i < THREADS; i += 2) {
		pthread_t t[2];
		for (int k = 0; k < 2; k++)
			if (pthread_create(&t[k], NULL, thread_draw, thread_out[i + k]) != 0) {
				fprintf(stderr, "pthread_create failed\n");
				exit(2);
			}
		for (int k = 0; k < 2; k++)
			pthread_join(t[k], NULL);
	}
	int repeats = 0;
	for (int i = 0; i < THREADS; i++)
		for (int j = i + 1; j < THREADS; j++)
			repeats += memcmp(thread_out[i], thread_out[j], 16) == 0;
	CHECK(repeats == 0, "%d equal 16-byte draws across %d threads", repeats, THREADS);
}

// After fork, parent and child draw from different streams, also when the
// parent's buffer was partly consumed before the fork: no 16-byte block of
// the child's output appears in the parent's.
#ifdef _WIN32
static void test_fork(void) { printf("test_randp: test_fork: not applicable, Windows has no fork\n"); }
#else
static void test_fork(void)
{
	enum { LEN = 4096 };
	static uint8_t parent[LEN], child[LEN];
	(void)randp_u32(); // leave the buffer partly consumed
	int fds[2];
	if (pipe(fds) != 0) {
		perror("pipe");
		exit(2);
	}
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		perror("fork");
		exit(2);
	}
	if (pid == 0) {
		close(fds[0]);
		randp_bytes(child, LEN);
		size_t off = 0;
		while (off < LEN) {
			ssize_t w = write(fds[1], child + off, LEN - off);
			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0)
				_exit(3);
			off += (size_t)w;
		}
		_exit(0);
	}
	close(fds[1]);
	randp_bytes(parent, LEN);
	size_t off = 0;
	ssize_t got;
	while (off < LEN && ((got = read(fds[0], child + off, LEN - off)) > 0 || (got < 0 && errno == EINTR)))
		if (got > 0)
			off += (size_t)got;
	close(fds[0]);
	int status;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
	}
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0 && off == LEN, "fork child failed (status 0x%x)",
	      status);
	int shared = 0;
	for (size_t i = 0; i + 16 <= LEN; i += 16)
		for (size_t j = 0; j + 16 <= LEN; j += 16)
			shared += memcmp(parent + i, child + j, 16) == 0;
	CHECK(shared == 0, "%d 16-byte blocks appear in both parent and child output", shared);
}
#endif

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "--null-bytes") == 0) {
		randp_bytes(NULL, 16); // the child of test_bytes_null_aborts on Windows
		printf("randp_bytes returned\n");
		return 0;
	}
	test_edge_cases();
	test_vm_generation();
	test_fills();
	test_integers();
	test_bounded();
	test_threads();
	test_fork();
	test_bytes_null_aborts(argv[0]);
	if (failures) {
		fprintf(stderr, "test_randp: %d checks failed\n", failures);
		return 1;
	}
	printf("test_randp: all checks passed\n");
	return 0;
}
