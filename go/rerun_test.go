package randp

import (
	"os"
	"os/exec"
)

// rerun runs this test binary again, once, as a child that runs only the
// test named test, with env ("NAME=value" each) added to its environment,
// and returns what the child printed and how it ended. A test tells it is
// the child by its own environment variable; under qemu-user
// (underQemuUser) a child cannot be started this way.
func rerun(test string, env ...string) ([]byte, error) {
	cmd := exec.Command(os.Args[0], "-test.run=^"+test+"$", "-test.count=1")
	cmd.Env = append(os.Environ(), env...)
	return cmd.CombinedOutput()
}
