// A daemon that closes descriptors it does not know, then opens a file an
// attacker controls, must not get random numbers made from that file.
//
// The program draws once, closes descriptors 3..63 (what closefrom(3) does
// in a daemon), opens a file of 4096 'A' bytes (it lands on descriptor 3),
// then a new thread, whose first draw seeds a new state, draws 16 bytes.
// If randp kept a descriptor to an entropy file (/dev/urandom) open, that
// seed is 32 'A' bytes and the output is AES-256-CTR keystream under the key
// 0x41 x 32: known to the attacker. This proves two things:
//   - the 16 bytes occur nowhere in the first 64 KiB of that keystream
//     (KEYSTREAM_FILE, made by `openssl enc -aes-256-ctr`, passed as argv[1]);
//   - stronger, randp opens no descriptor at all: the set of open descriptors
//     is the same before and after the first draw, and after the thread's
//     draw it is exactly the survivors of the close plus the file.
// The Makefile links it with -static against build/librandp.a (where glibc's
// getrandom cannot be found with dlsym) and dynamically against librandp.so.
//
// Usage: closefrom_file KEYSTREAM_FILE. Exit 0: every check passed; 1: a
// check failed; 2: the scenario could not be set up.

#define _GNU_SOURCE
#include "randp.h"
#include "check.h"

#include <fcntl.h>
#include <pthread.h>

enum { KEYSTREAM_LEN = 65536, MAX_FDS = 256, OUT_LEN = 16 };

static uint8_t out[OUT_LEN];

static void *draw_in_new_thread(void *arg)
{
	(void)arg;
	randp_bytes(out, sizeof out);
	return NULL;
}

static bool same_fds(const int *a, int na, const int *b, int nb)
{
	return na == nb && memcmp(a, b, (size_t)na * sizeof *a) == 0;
}

int main(int argc, char **argv)
{
	SETUP(argc == 2, "usage: closefrom_file KEYSTREAM_FILE");

	// The attacker's keystream, and the attacker's file, made before the
	// first draw so that neither changes the descriptor sets compared.
	static uint8_t keystream[KEYSTREAM_LEN];
	FILE *ks = fopen(argv[1], "rb");
	SETUP(ks != NULL, "open %s", argv[1]);
	SETUP(fread(keystream, 1, sizeof keystream, ks) == sizeof keystream, "read %s", argv[1]);
	fclose(ks);
	char path[] = "/tmp/randp-closefrom-XXXXXX";
	int w = mkstemp(path);
	SETUP(w >= 0, "mkstemp");
	static uint8_t a_bytes[4096];
	memset(a_bytes, 'A', sizeof a_bytes);
	SETUP(write(w, a_bytes, sizeof a_bytes) == (ssize_t)sizeof a_bytes, "write %s", path);
	close(w);

	int before[MAX_FDS], after_draw[MAX_FDS], at_end[MAX_FDS], expected[MAX_FDS];
	char s1[1024], s2[1024];
	int n_before = open_fds(before, MAX_FDS);

	volatile uint64_t first = randp_u64();
	(void)first;
	int n_after_draw = open_fds(after_draw, MAX_FDS);
	CHECK(same_fds(before, n_before, after_draw, n_after_draw),
	      "the first draw opened descriptors: open before %s, after %s",
	      fds_str(before, n_before, s1, sizeof s1), fds_str(after_draw, n_after_draw, s2, sizeof s2));

	for (int fd = 3; fd < 64; fd++)
		close(fd);
	int file = open(path, O_RDONLY);
	SETUP(file >= 0, "open %s", path);
	unlink(path);
	SETUP(file == 3, "the attacker's file landed on descriptor %d, not 3", file);

	pthread_t t;
	SETUP(pthread_create(&t, NULL, draw_in_new_thread, NULL) == 0, "pthread_create");
	SETUP(pthread_join(t, NULL) == 0, "pthread_join");

	int n_expected = 0;
	for (int i = 0; i < n_before; i++)
		if (before[i] < 3 || before[i] > 63)
			expected[n_expected++] = before[i];
	int slot = n_expected++; // the file, descriptor 3, in ascending order
	for (; slot > 0 && expected[slot - 1] > 3; slot--)
		expected[slot] = expected[slot - 1];
	expected[slot] = 3;
	int n_end = open_fds(at_end, MAX_FDS);
	CHECK(same_fds(expected, n_expected, at_end, n_end),
	      "a new thread's first draw opened descriptors: expected %s, open %s",
	      fds_str(expected, n_expected, s1, sizeof s1), fds_str(at_end, n_end, s2, sizeof s2));

	char h[2 * OUT_LEN + 1];
	hex(out, sizeof out, h);
	const uint8_t *hit = memmem(keystream, sizeof keystream, out, sizeof out);
	CHECK(hit == NULL,
	      "the new thread's 16 bytes %s are AES-256-CTR keystream under the key 0x41 x 32 "
	      "(bytes %td..%td): seeded from the attacker's file on descriptor 3",
	      h, hit - keystream, hit - keystream + OUT_LEN);
	close(file);

	printf("%s: new thread drew %s; %s\n", program_name(argv[0]), h, failures ? "FAILED" : "ok");
	return failures ? 1 : 0;
}
