//go:build !android

// Package librandp holds the prebuilt randp library for linux/amd64,
// randp_linux_amd64.syso in this directory: one relocatable object whose only
// global symbols are the randp_* functions, built by `make go-lib` from the
// repository's Rust source (`make verify-go-lib` rebuilds it and compares).
// It has no API. The go command links a package's .syso files into every
// binary that imports the package, and package randp imports this one on its
// cgo path, so executables, c-archive and c-shared builds get the library
// with nothing named on a command line, and `go mod vendor` keeps it. The
// package builds nothing for Android, whose GOOS satisfies the object's
// _linux_ name: the object is built for glibc, and Android takes package
// randp's pure-Go path.
package librandp
