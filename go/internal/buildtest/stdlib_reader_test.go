package buildtest

import (
	"go/version"
	"runtime"
	"strings"
	"testing"
)

// readerUseMain prints how many bytes each standard library function reads
// from the io.Reader it is given.
const readerUseMain = `package main

import (
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"fmt"
	"io"
	"math/big"

	randp "github.com/randp/randp/go"
)

type counter struct{ n int }

func (c *counter) Read(b []byte) (int, error) {
	n, err := randp.Reader.Read(b)
	c.n += n
	return n, err
}

func count(f func(io.Reader) error) int {
	c := new(counter)
	if err := f(c); err != nil {
		panic(err)
	}
	return c.n
}

func main() {
	fmt.Println("ecdsa", count(func(r io.Reader) error { _, err := ecdsa.GenerateKey(elliptic.P256(), r); return err }))
	fmt.Println("rsa", count(func(r io.Reader) error { _, err := rsa.GenerateKey(r, 1024); return err }))
	fmt.Println("ecdh", count(func(r io.Reader) error { _, err := ecdh.P256().GenerateKey(r); return err }))
	fmt.Println("ed25519", count(func(r io.Reader) error { _, _, err := ed25519.GenerateKey(r); return err }))
	fmt.Println("rand.Int", count(func(r io.Reader) error { _, err := rand.Int(r, big.NewInt(1000)); return err }))
	fmt.Println("rand.Prime", count(func(r io.Reader) error { _, err := rand.Prime(r, 64); return err }))
}
`

// TestStdlibIgnoresReader checks what the README says randp.Reader does not
// do: in a module declaring go 1.26 or later, built with Go 1.26 or later,
// ecdsa, rsa and ecdh key generation and crypto/rand.Prime read nothing
// from the reader they are given, while ed25519.GenerateKey and
// crypto/rand.Int still read it; in a
// module declaring an older go version every one of them reads it.
func TestStdlibIgnoresReader(t *testing.T) {
	goBin := goCmd(t)
	counts := func(goVersion string) map[string]string {
		c := newConsumer(t, goVersion, randpModuleDir(t), map[string]string{"main.go": readerUseMain})
		bin := c.path("reader-use")
		c.run(nil, goBin, "build", "-o", bin, ".")
		m := make(map[string]string)
		for _, l := range strings.Split(strings.TrimSpace(c.run(nil, bin)), "\n") {
			name, n, _ := strings.Cut(l, " ")
			m[name] = n
		}
		return m
	}
	for name, n := range counts("1.24") {
		if n == "0" {
			t.Errorf("in a go 1.24 module, %s read nothing from the reader it was given", name)
		}
	}
	if version.Compare(runtime.Version(), "go1.26") < 0 {
		t.Logf("%s predates Go 1.26: nothing ignores the reader yet", runtime.Version())
		return
	}
	got := counts("1.26")
	for name, ignores := range map[string]bool{"ecdsa": true, "rsa": true, "ecdh": true, "rand.Prime": true, "ed25519": false, "rand.Int": false} {
		if ignored := got[name] == "0"; ignored != ignores {
			t.Errorf("in a go 1.26 module, %s read %s bytes from the reader it was given; the README says it %s",
				name, got[name], map[bool]string{true: "ignores the reader", false: "reads it"}[ignores])
		}
	}
}
