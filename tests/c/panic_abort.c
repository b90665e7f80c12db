// A panic inside the C library never unwinds into C: it aborts the process
// with a message. Loads a build of librandp.so with the test-only
// randp_test_panic() (make test-c-panic), calls it in a child process, and
// checks the child died of SIGABRT with the message on stderr, and that the
// code after the call never ran.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s LIBRANDP_WITH_PANIC_PROBE.so\n", argv[0]);
		return 2;
	}
	int err[2];
	if (pipe(err) != 0) {
		perror("pipe");
		return 1;
	}
	pid_t pid = fork();
	if (pid == 0) {
		dup2(err[1], 2);
		void *lib = dlopen(argv[1], RTLD_NOW);
		if (!lib) {
			fprintf(stderr, "dlopen: %s\n", dlerror());
			_exit(3);
		}
		uint32_t (*probe)(uint32_t);
		*(void **)(&probe) = dlsym(lib, "randp_test_panic"); // POSIX's idiom for a function from dlsym
		if (!probe) {
			fprintf(stderr, "randp_test_panic missing\n");
			_exit(3);
		}
		probe(1);
		fprintf(stderr, "returned from the panic\n");
		_exit(0);
	}
	close(err[1]);
	char msg[4096] = {0};
	size_t len = 0;
	ssize_t n;
	while (len < sizeof msg - 1 && (n = read(err[0], msg + len, sizeof msg - 1 - len)) > 0)
		len += (size_t)n;
	int status;
	waitpid(pid, &status, 0);
	int ok = WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT &&
		 strstr(msg, "randp: internal panic in the C library; aborting") != NULL &&
		 strstr(msg, "returned from the panic") == NULL;
	printf("panic_abort: child %s %d, stderr: %s%s", WIFSIGNALED(status) ? "killed by signal" : "exited",
	       WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status), msg, ok ? "panic_abort: ok\n" : "panic_abort: FAILED\n");
	return ok ? 0 : 1;
}
