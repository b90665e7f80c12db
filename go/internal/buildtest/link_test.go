package buildtest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// These tests link a consumer the ways Go programs are deployed and check
// that the prebuilt library adds nothing unwanted to the link: no undefined
// references, no linker warnings, no extra shared libraries.

// cSharedMain is a consumer built with -buildmode=c-shared: a C library
// whose exported function draws from randp.
const cSharedMain = `package main

import "C"

import randp "github.com/randp/randp/go"

//export consumer_uint64
func consumer_uint64() C.ulonglong { return C.ulonglong(randp.Uint64()) }

func main() {}
`

// cSharedProgram is the C program linked against the c-shared library.
const cSharedProgram = `#include <stdio.h>
#include "libconsumer.h"

int main(void) {
	unsigned long long a = consumer_uint64(), b = consumer_uint64();
	if (a == b) {
		puts("two draws were equal");
		return 1;
	}
	puts("c-shared ok");
	return 0;
}
`

// TestCSharedLinksWithGcc builds the consumer as a C shared library, links a
// C program against it with gcc, and runs it.
func TestCSharedLinksWithGcc(t *testing.T) {
	goBin := goCmd(t)
	gcc := needTool(t, "gcc", "gcc")
	c := newConsumer(t, "1.24", randpModuleDir(t), map[string]string{"main.go": cSharedMain})
	c.run(nil, goBin, "build", "-buildmode=c-shared", "-o", c.path("libconsumer.so"), ".")
	// The C program stays out of the Go package's directory, where cgo
	// would compile it into the library.
	progDir := t.TempDir()
	progSrc := filepath.Join(progDir, "prog.c")
	if err := os.WriteFile(progSrc, []byte(cSharedProgram), 0o644); err != nil {
		t.Fatal(err)
	}
	prog := filepath.Join(progDir, "prog")
	c.run(nil, gcc, "-o", prog, progSrc, "-I"+c.dir, "-L"+c.dir, "-lconsumer", "-Wl,-rpath,"+c.dir)
	if out := c.run(nil, prog); out != "c-shared ok\n" {
		t.Fatalf("the C program printed %q", out)
	}
}

// TestCArchiveLinksWithNothingAdded builds the consumer as a C archive and
// links a C program against it with gcc, naming the archive and nothing
// else: the prebuilt object is inside the archive (a .syso of the package),
// and no -lrandp, librandp.a or -lpthread is needed.
func TestCArchiveLinksWithNothingAdded(t *testing.T) {
	goBin := goCmd(t)
	gcc := needTool(t, "gcc", "gcc")
	c := newConsumer(t, "1.24", randpModuleDir(t), map[string]string{"main.go": cSharedMain})
	c.run(nil, goBin, "build", "-buildmode=c-archive", "-o", c.path("libconsumer.a"), ".")
	progDir := t.TempDir()
	progSrc := filepath.Join(progDir, "prog.c")
	if err := os.WriteFile(progSrc, []byte(strings.ReplaceAll(cSharedProgram, "c-shared ok", "c-archive ok")), 0o644); err != nil {
		t.Fatal(err)
	}
	prog := filepath.Join(progDir, "prog")
	c.run(nil, gcc, "-o", prog, progSrc, "-I"+c.dir, c.path("libconsumer.a"))
	if out := c.run(nil, prog); out != "c-archive ok\n" {
		t.Fatalf("the C program printed %q", out)
	}
}

// TestStaticLinkHasNoWarnings links the consumer fully statically
// (-extldflags -static): the link must print nothing (glibc warns when a
// static program uses getaddrinfo, getpwuid_r and friends, which then need
// the shared libraries of the machine it runs on) and the binary must run.
func TestStaticLinkHasNoWarnings(t *testing.T) {
	goBin := goCmd(t)
	c := newConsumer(t, "1.24", randpModuleDir(t), map[string]string{"main.go": consumerMain})
	bin := c.path("consumer")
	if out := c.run(nil, goBin, "build", "-ldflags=-extldflags=-static", "-o", bin, "."); out != "" {
		t.Errorf("the static link printed:\n%s", out)
	}
	if out := c.run(nil, "readelf", "-l", bin); strings.Contains(out, "INTERP") {
		t.Errorf("the static binary has a program interpreter:\n%s", out)
	}
	if out := c.run(nil, bin); out != "consumer ok cgo\n" {
		t.Fatalf("the static consumer printed %q", out)
	}
}

// TestNoLibgccS checks that a consumer built the default way depends on no
// shared library beyond those of any cgo program: in particular not on
// libgcc_s.so.1, which the Rust standard library's unwinder pulls in.
func TestNoLibgccS(t *testing.T) {
	goBin := goCmd(t)
	ldd := needTool(t, "ldd", "libc-bin")
	c := newConsumer(t, "1.24", randpModuleDir(t), map[string]string{"main.go": consumerMain})
	bin := c.path("consumer")
	c.run(nil, goBin, "build", "-o", bin, ".")
	out, err := exec.Command(ldd, bin).CombinedOutput()
	if err != nil {
		t.Fatalf("ldd %s: %v\n%s", bin, err, out)
	}
	if strings.Contains(string(out), "libgcc_s") {
		t.Fatalf("the consumer depends on libgcc_s:\n%s", out)
	}
}
