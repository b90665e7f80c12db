// Package randp provides unpredictable random numbers about as cheaply as
// math/rand provides predictable ones.
//
// Every function, Source, Reader and Text here is a cryptographically secure
// random number generator: seeded from the operating system, with fast key
// erasure, and no way to seed it. Its output may be used for keys, tokens,
// nonces and anything else that must not be guessed.
//
// There are three ways in:
//
//   - Source returns a math/rand and math/rand/v2 source, so the whole
//     math/rand API works on unpredictable numbers:
//     rand.New(randp.Source()). Like every math/rand source it is not safe
//     for concurrent use; give each long-lived goroutine its own. For a value
//     or two per request, use the package-level functions rather than a
//     source per request: they cost less than a new source's first value,
//     which pays for getting and filling a buffer.
//   - Reader, Read and Text replace crypto/rand.Reader, crypto/rand.Read
//     and crypto/rand.Text, for code that reads them. Since Go 1.26 many
//     of the standard library's crypto functions ignore a custom reader:
//     see Reader.
//   - Uint64, IntN, N, Float64, NormFloat64, Shuffle, Perm and the other
//     package-level functions have math/rand/v2's names and semantics (and
//     Duration, ShuffleSlice and BigInt those of decred's crypto/rand) and
//     are safe for concurrent use.
//
// # Goroutine safety
//
// The package-level functions, Read, Reader, Text, BigInt and the
// Unbuffered source are safe for concurrent use by any number of
// goroutines. A Buffered (what Source returns) is not: like every math/rand
// source, and like the rand.Rand around it, it must be used by one goroutine
// at a time; two drawing at once can be handed the same value, or zeros.
//
// # Two paths, one API
//
// Implementation reports which path a build uses. Both offer every function
// and type with the same semantics and the same guarantees as far as this
// documentation states them; they differ in where the generator runs.
//
// The cgo path ("cgo") is the default wherever cgo is on and a prebuilt
// library exists: linux/amd64 and linux/arm64, glibc or musl. Android is not
// among them (its C library, Bionic, is neither). The numbers come from the
// randp library, written in Rust and linked as an object committed in the
// module (so building needs Go and a C compiler, never Rust): AES-256-CTR
// with fast key erasure, one state per thread, reseeded from getrandom(2)
// after every 1 MiB, on the CPU's AES instructions. The Go side keeps up to
// BufferSize bytes of its output per Buffered and per P, so that most values
// cost no cgo call.
//
// The pure-Go path ("purego") is taken without cgo (CGO_ENABLED=0, the
// default when cross-compiling), on every other GOOS/GOARCH (Android
// included), and with the build tag randp_purego. Each Buffered and each P
// has a generator of its own: ChaCha8Rand, math/rand/v2's ChaCha8 stream,
// with fast key erasure: each 1 KiB epoch is made whole and its key replaced
// by 32 bytes of it that are never handed out before any of it is, and 32
// bytes from the operating system are XORed into the key at the start and
// after every 1 MiB; 16 bytes from crypto/rand.Read (the kernel's vDSO
// getrandom since Go 1.24; the operating system's source while
// crypto/rand.Reader is replaced, which is never read) are XORed in before
// every refill of 3,968 bytes (a large Read reuses its own mix for up to
// 63,488 bytes it takes whole), so that once their kernels reseed, clones of a restored VM
// snapshot repeat no more than one refill per generator, after the call in
// flight. The generator lays rand.ChaCha8 values over memory of its own,
// whose unexported layout the package checks against the running Go
// release as it is initialised (Go 1.22 to 1.27 share it): should a later
// release change it, a pure-Go binary panics at start-up, naming the
// release, rather than run a generator it does not know; a newer randp then
// supports it.
// Where the randp library reads the VMClock device's VM generation counter
// (Linux 6.13+, root-only by default), a restored clone repeats nothing of
// its library's output after the call in flight; the cgo path then keeps no
// output on the Go side, so that holds for every value (each is drawn from
// the library, at the cost of a cgo call). The pure-Go path reads no such
// counter.
//
// # Seeds
//
// Neither path can be seeded, not even through crypto/rand: the sources'
// Seed methods, which math/rand's Rand.Seed calls, panic. On Linux both
// read getrandom(2) themselves (the cgo path in the randp library, the
// pure-Go path through a system call of its own), and on Windows the pure-Go
// path calls ProcessPrng itself, so neither a program or package that
// replaces crypto/rand.Reader, even in an init that runs before this
// package's, nor testing/cryptotest.SetGlobalRandom, which makes crypto/rand
// deterministic in a test, changes their output; on Linux the two paths
// behave the same. Elsewhere the pure-Go path seeds from crypto/rand.Reader
// as it was when this package was initialised, Go's own reader of the
// operating system's source (getentropy on macOS and OpenBSD, getrandom or
// kern.arandom on the BSDs, random_get on WASI): replacing crypto/rand.Reader
// later changes nothing, but a package initialised before this one that
// replaces it, or SetGlobalRandom in a test, decides the seeds there.
//
// On both paths each value's bytes are zeroed in the buffer as they are
// handed out, no key that made output already handed out is kept, and the
// buffers and states live in memory the package owns, outside the Go heap
// on Linux, and are zeroed when released (a Buffered's once no copy of it is
// reachable; the per-P ones live as long as the process). Copies the Go
// compiler makes on a goroutine's stack or in registers are not covered.
//
// # Memory
//
// On Linux the buffers are 4 KiB slots of shared mappings of 64 KiB, which
// the package keeps and reuses: a released buffer is zeroed and handed to
// the next source. What the package maps is bounded: one buffer per P and at
// most 1,024 for Buffered sources at a time (4 MiB); a Buffered that finds
// none free draws through the package-level functions instead, with the same
// guarantees. It locks (mlock) at most 1/16 of RLIMIT_MEMLOCK and never more
// than 1 MiB, whatever the limit or the process's privileges, so the rest of
// the program's budget of locked memory stays its own; the buffers past that
// budget are not locked and may be swapped out, but are wiped in a forked
// child and left out of core dumps all the same. That bound is the package's
// own: on the cgo path the randp library also locks, as for any C caller and
// where RLIMIT_MEMLOCK allows, the 12 KiB that extend the state of each OS
// thread that refills a buffer through it (and, before Linux 6.11, each such
// thread's 4 KiB state page), until the thread exits. A Buffered costs the Go
// heap a few words; its buffer is outside the heap, and the garbage
// collector, which does not see it, returns it when it collects the
// Buffered. Off Linux the buffers are Go heap objects, which the collector
// and GOMEMLIMIT see.
//
// # Forks
//
// A Go program never forks without exec, but a C program that loads this
// package built with -buildmode=c-shared or c-archive may (a Python host
// with multiprocessing's fork start method does). On Linux every Go-side
// buffer and generator state lives in a page advised MADV_WIPEONFORK, so a
// forked child finds it zeroed, and zero means empty: the child's first draw
// refills (cgo path: from the randp library, whose own state is wiped as
// well) or reseeds from getrandom(2) (pure-Go path). Parent and child never
// hand out the same bytes. The pages are also advised MADV_DONTDUMP (not in
// core dumps) and locked with mlock within the budget described under
// Memory (not in swap). The package checks that the kernel honours the
// advice (Linux 4.14 and later); where it does not (qemu-user, for one, or
// a seccomp filter that fakes it), where /proc/self/smaps cannot be read to
// confirm it (a chroot or container without /proc), or where no page can be
// mapped, it keeps no output on the Go side and draws every value directly:
// as secure, at the cost of a cgo call (cgo path) or a getrandom(2) system
// call (pure-Go path) per value. Implementation still reports the path. On other
// systems the Go-side memory is not wiped in a forked child. Go's runtime
// itself does not support running Go code in a forked child
// (golang/go#15538): such a child may hang on a runtime lock that another of
// the parent's threads held at the fork, but it never repeats its parent's
// values. How often it hangs depends on the host's other threads and on the
// machine's load: most often where other threads call into Go continuously,
// and now and then even where the forking thread is the host's only one,
// since Go's own monitor thread takes the scheduler's lock to take back the
// processor of a thread that returned to C. A host that forks should end a
// child that does not finish in time, or exec in the child before it calls
// into Go.
//
// # Failure
//
// Nothing here returns an error. If the operating system's entropy source
// fails (getrandom(2) refused by a seccomp filter, say), the randp library
// (cgo path) or the package itself (pure-Go path) prints a message and ends
// the process with a non-zero status, which a recover cannot stop; neither
// returns weak bytes or falls back to another source.
//
// # Building
//
// On the cgo path the package links lib/linux_amd64/randp_linux_amd64.syso
// or lib/linux_arm64/randp_linux_arm64.syso, which the go command adds to
// every binary, C archive and C shared library that imports the package, and
// which `go mod vendor` keeps. With a C compiler for musl (Alpine's
// musl-gcc) it links the same object, statically or dynamically. Inside the
// randp repository, the build tag randp_local links the library built by
// `make staticlib` (../build/librandp.a) instead.
//
// The cgo path needs the external linker, which the go command uses by
// default for a program with such an object. Go's internal linker
// (-ldflags=-linkmode=internal, or GO_EXTLINK_ENABLED=0) loads neither the
// object's thread-local storage, where the library keeps each thread's
// state, nor its .init_array constructor, which creates the library's
// pthread key at load time: that link fails, naming .init_array and
// reporting randp_read undefined, and never yields a program without them.
// A program that must be linked internally takes the pure-Go path, with the
// build tag randp_purego or CGO_ENABLED=0.
package randp
