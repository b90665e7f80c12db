// Package randp provides unpredictable random numbers about as cheaply as
// math/rand provides predictable ones.
//
// The numbers come from randp, a per-thread, fork-safe AES-256-CTR generator
// with fast key erasure, seeded from the operating system and written in Rust;
// this package reaches it through cgo and buffers its output on the Go side so
// that most values cost no cgo call at all.
//
// There are three ways in:
//
//   - Source returns a math/rand and math/rand/v2 source, so the whole
//     math/rand API works on unpredictable numbers:
//     rand.New(randp.Source()). Like every math/rand source it is not safe
//     for concurrent use; give each goroutine its own.
//   - Reader, Read and Text replace crypto/rand.Reader, crypto/rand.Read
//     and crypto/rand.Text, for code that reads them (see Reader for the
//     crypto packages that ignore the reader they are given since Go 1.26).
//   - Uint64, IntN, N, Float64, NormFloat64, Shuffle, Perm and the other
//     package-level functions have math/rand/v2's names and semantics (and
//     Duration, ShuffleSlice and BigInt those of decred's crypto/rand) and
//     are safe for concurrent use.
//
// # Buffers
//
// Source and the package-level functions keep BufferSize bytes of generator
// output in Go memory. Each byte is overwritten with zero as it is handed
// out, so a buffer never holds output that has already been used. The
// package-level functions and small reads share one buffer per P (see
// runtime.GOMAXPROCS); those buffers live as long as the process.
//
// The randp library wipes its own per-thread state in a forked child. The Go
// runtime never forks without immediately calling exec (os/exec,
// syscall.ForkExec), so the Go-side buffers are never shared with a child
// that runs Go code.
//
// # Failure
//
// Nothing here returns an error. If the operating system's entropy source
// fails, the randp library prints a message to standard error and aborts the
// process; it never returns weak bytes.
//
// # Building
//
// The package links a prebuilt static library committed in the module for
// linux/amd64 and linux/arm64 (lib/linux_amd64/librandp.a and
// lib/linux_arm64/librandp.a), so building needs only Go and a C compiler
// (cgo) for glibc, not Rust. `go mod vendor` keeps the libraries. Without
// cgo, or on another GOOS/GOARCH, the build stops with the single error
// "undefined: randp_needs_cgo_and_linux_amd64_or_linux_arm64"; with a C
// compiler for musl (Alpine), at an #error saying that randp needs glibc.
// Inside the randp repository, the build tag randp_local links the library
// built by `make staticlib` (../build/librandp.a) instead.
package randp
