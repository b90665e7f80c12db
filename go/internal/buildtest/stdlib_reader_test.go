package buildtest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/version"
	"maps"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// readerUseMain prints, for each standard library function that the doc
// comment of randp.Reader names, how many bytes it read from the io.Reader
// it was given, as a line "name bytes" with the name as the doc links it.
// A name printed more than once (every curve of crypto/ecdh) must agree.
const readerUseMain = `package main

import (
	"crypto"
	"crypto/dsa"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
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

func count(name string, f func(io.Reader) error) {
	c := new(counter)
	if err := f(c); err != nil {
		panic(name + ": " + err.Error())
	}
	fmt.Println(name, c.n)
}

func main() {
	// The keys the signing and encryption calls use, made from crypto/rand.
	ek, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	rk, _ := rsa.GenerateKey(rand.Reader, 1024)
	var dk dsa.PrivateKey
	if err := dsa.GenerateParameters(&dk.Parameters, rand.Reader, dsa.L1024N160); err != nil {
		panic(err)
	}
	if err := dsa.GenerateKey(&dk, rand.Reader); err != nil {
		panic(err)
	}
	h := sha256.Sum256([]byte("message"))

	count("crypto/ecdsa.GenerateKey", func(r io.Reader) error { _, err := ecdsa.GenerateKey(elliptic.P256(), r); return err })
	count("crypto/ecdsa.Sign", func(r io.Reader) error { _, _, err := ecdsa.Sign(r, ek, h[:]); return err })
	count("crypto/ecdsa.SignASN1", func(r io.Reader) error { _, err := ecdsa.SignASN1(r, ek, h[:]); return err })
	count("crypto/ecdsa.PrivateKey.Sign", func(r io.Reader) error { _, err := ek.Sign(r, h[:], crypto.SHA256); return err })
	for _, c := range []ecdh.Curve{ecdh.P256(), ecdh.P384(), ecdh.P521(), ecdh.X25519()} {
		count("crypto/ecdh.Curve.GenerateKey", func(r io.Reader) error { _, err := c.GenerateKey(r); return err })
	}
	count("crypto/rsa.GenerateKey", func(r io.Reader) error { _, err := rsa.GenerateKey(r, 1024); return err })
	count("crypto/rsa.GenerateMultiPrimeKey", func(r io.Reader) error { _, err := rsa.GenerateMultiPrimeKey(r, 3, 1024); return err })
	count("crypto/rsa.EncryptPKCS1v15", func(r io.Reader) error { _, err := rsa.EncryptPKCS1v15(r, &rk.PublicKey, h[:]); return err })
	count("crypto/rsa.SignPSS", func(r io.Reader) error { _, err := rsa.SignPSS(r, rk, crypto.SHA256, h[:], nil); return err })
	count("crypto/rsa.EncryptOAEP", func(r io.Reader) error { _, err := rsa.EncryptOAEP(sha256.New(), r, &rk.PublicKey, h[:], nil); return err })
	count("crypto/dsa.GenerateParameters", func(r io.Reader) error {
		var p dsa.Parameters
		return dsa.GenerateParameters(&p, r, dsa.L1024N160)
	})
	count("crypto/dsa.GenerateKey", func(r io.Reader) error {
		k := dsa.PrivateKey{PublicKey: dsa.PublicKey{Parameters: dk.Parameters}}
		return dsa.GenerateKey(&k, r)
	})
	count("crypto/dsa.Sign", func(r io.Reader) error { _, _, err := dsa.Sign(r, &dk, h[:]); return err })
	count("crypto/ed25519.GenerateKey", func(r io.Reader) error { _, _, err := ed25519.GenerateKey(r); return err })
	count("crypto/rand.Int", func(r io.Reader) error { _, err := rand.Int(r, big.NewInt(1000)); return err })
	count("crypto/rand.Prime", func(r io.Reader) error { _, err := rand.Prime(r, 64); return err })
}
`

// readerDocClaims returns the standard library functions that the doc
// comment of randp.Reader (read.go) links to as ignoring the reader they are
// given (before the sentence "These still read") and as reading it (from
// that sentence on).
func readerDocClaims(t *testing.T) (ignore, read []string) {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(randpModuleDir(t), "read.go"), nil, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	var doc string
	for _, d := range f.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.VAR && g.Specs[0].(*ast.ValueSpec).Names[0].Name == "Reader" {
			doc = g.Doc.Text()
		}
	}
	before, after, ok := strings.Cut(doc, "These still read")
	if !ok {
		t.Fatalf("the doc comment of randp.Reader has no sentence \"These still read\":\n%s", doc)
	}
	links := func(s string) []string {
		var names []string
		for _, m := range regexp.MustCompile(`\[(crypto/[^\]\s]+)\]`).FindAllStringSubmatch(s, -1) {
			names = append(names, m[1])
		}
		return names
	}
	return links(before), links(after)
}

// TestStdlibIgnoresReader checks what the doc comment of randp.Reader says,
// link by link: in a module declaring go 1.26 or later, built with Go 1.26
// or later, every function it lists as ignoring the reader reads nothing
// from the randp.Reader it is given, and every function it says still reads
// the reader does read it; in a module declaring go 1.24 or 1.25 (or built
// with an older Go) every one of them reads it. The functions measured must
// be exactly those the doc links to.
func TestStdlibIgnoresReader(t *testing.T) {
	goBin := goCmd(t)
	ignore, read := readerDocClaims(t)
	counts := func(goVersion string) map[string][]int {
		c := newConsumer(t, goVersion, randpModuleDir(t), map[string]string{"main.go": readerUseMain})
		bin := c.path("reader-use")
		c.run(nil, goBin, "build", "-o", bin, ".")
		m := make(map[string][]int)
		for _, l := range strings.Split(strings.TrimSpace(c.run(nil, bin)), "\n") {
			name, s, _ := strings.Cut(l, " ")
			n, err := strconv.Atoi(s)
			if err != nil {
				t.Fatalf("reader-use printed %q", l)
			}
			m[name] = append(m[name], n)
		}
		return m
	}
	old := counts("1.24")
	measured := slices.Sorted(maps.Keys(old))
	documented := slices.Sorted(slices.Values(slices.Concat(ignore, read)))
	if !slices.Equal(measured, documented) {
		onlyIn := func(a, b []string) []string {
			return slices.DeleteFunc(slices.Clone(a), func(s string) bool { return slices.Contains(b, s) })
		}
		t.Fatalf("randp.Reader's doc and readerUseMain must name the same functions: only the doc links %v, only the test measures %v",
			onlyIn(documented, measured), onlyIn(measured, documented))
	}
	for _, oldVersion := range []string{"1.24", "1.25"} {
		if version.Compare(runtime.Version(), "go"+oldVersion) < 0 {
			continue // this toolchain cannot build a module that declares it
		}
		if oldVersion != "1.24" {
			old = counts(oldVersion)
		}
		for name, ns := range old {
			if slices.Contains(ns, 0) {
				t.Errorf("in a go %s module, %s read %v bytes from the reader it was given; the doc says it reads it", oldVersion, name, ns)
			}
		}
	}
	if version.Compare(runtime.Version(), "go1.26") < 0 {
		t.Logf("%s predates Go 1.26: nothing ignores the reader yet", runtime.Version())
		return
	}
	got := counts("1.26")
	for _, name := range ignore {
		if slices.ContainsFunc(got[name], func(n int) bool { return n != 0 }) {
			t.Errorf("in a go 1.26 module, %s read %v bytes from the reader it was given; randp.Reader's doc says it ignores the reader", name, got[name])
		}
	}
	for _, name := range read {
		if slices.Contains(got[name], 0) {
			t.Errorf("in a go 1.26 module, %s read %v bytes from the reader it was given; randp.Reader's doc says it reads it", name, got[name])
		}
	}
}
