package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestMain runs the command itself, with the arguments in RANDP_CAT_ARGS,
// when a test re-executes the test binary with RANDP_CAT_AS_MAIN=1.
func TestMain(m *testing.M) {
	if os.Getenv("RANDP_CAT_AS_MAIN") == "1" {
		os.Args = append([]string{"randp-cat"}, strings.Fields(os.Getenv("RANDP_CAT_ARGS"))...)
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// randpCat returns the command run as a child process with args.
func randpCat(t *testing.T, args string) *exec.Cmd {
	t.Helper()
	if os.Getenv("RANDP_TEST_EMULATOR") != "" {
		t.Skip("qemu-user (RANDP_TEST_EMULATOR) cannot start a program of the guest's architecture by itself")
	}
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), "RANDP_CAT_AS_MAIN=1", "RANDP_CAT_ARGS="+args)
	return cmd
}

// TestLimit checks that -n writes exactly that many bytes in every mode,
// a last value's low bytes included.
func TestLimit(t *testing.T) {
	for _, mode := range []string{"read", "source", "uint64"} {
		cmd := randpCat(t, "-mode "+mode+" -chunk 100 -n 3000005")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil || stderr.Len() != 0 {
			t.Fatalf("-mode %s: %v, stderr %q", mode, err, stderr.String())
		}
		if len(out) != 3000005 {
			t.Fatalf("-mode %s -n 3000005 wrote %d bytes", mode, len(out))
		}
	}
}

// TestClosedPipeEndsQuietly closes the pipe the unbounded stream is written
// to after a few bytes: the command must end with status 0 and say nothing.
func TestClosedPipeEndsQuietly(t *testing.T) {
	cmd := randpCat(t, "")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if _, err := io.ReadFull(stdout, make([]byte, 4096)); err != nil {
		t.Fatal(err)
	}
	stdout.Close()
	if err := cmd.Wait(); err != nil || stderr.Len() != 0 {
		t.Fatalf("after its reader closed the pipe: %v, stderr %q", err, stderr.String())
	}
}
