// Command randp-cat writes the randp Go module's output to standard output,
// so that statistical test suites read the Go path and not only the Rust
// one: `randp-cat | dieharder -g 200 -a`.
//
//	randp-cat [-mode read|source|uint64] [-chunk N] [-n BYTES]
//
// -mode read (the default) fills buffers with randp.Read, -chunk bytes per
// call: reads under 512 bytes come from the per-P buffers, larger ones go
// straight to the library. -mode source writes rand.New(randp.Source()).Uint64
// values and -mode uint64 the package-level randp.Uint64, little-endian. The
// stream is unbounded unless -n is given; it ends silently with status 0
// when the reader closes the pipe.
package main

import (
	"encoding/binary"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"

	randp "github.com/randp/randp/go"
)

func main() {
	mode := flag.String("mode", "read", "read, source or uint64")
	chunk := flag.Int("chunk", 1<<20, "bytes per randp.Read call (mode read)")
	limit := flag.Int64("n", -1, "bytes to write; -1 is an unbounded stream")
	flag.Parse()
	if flag.NArg() != 0 || *chunk <= 0 || *limit < -1 {
		flag.Usage()
		os.Exit(2)
	}
	var fill func([]byte)
	switch *mode {
	case "read":
		fill = func(b []byte) {
			for i := 0; i < len(b); i += *chunk {
				randp.Read(b[i:min(i+*chunk, len(b))])
			}
		}
	case "source":
		r := rand.New(randp.Source())
		fill = func(b []byte) { fillUint64(b, r.Uint64) }
	case "uint64":
		fill = func(b []byte) { fillUint64(b, randp.Uint64) }
	default:
		fmt.Fprintf(os.Stderr, "randp-cat: unknown -mode %q\n", *mode)
		os.Exit(2)
	}
	ignoreSIGPIPE()

	buf := make([]byte, 1<<20)
	left := *limit
	for left != 0 {
		b := buf
		if left > 0 && left < int64(len(b)) {
			b = b[:left]
		}
		fill(b)
		if _, err := os.Stdout.Write(b); err != nil {
			if brokenPipe(err) {
				os.Exit(0)
			}
			fmt.Fprintf(os.Stderr, "randp-cat: %v\n", err)
			os.Exit(1)
		}
		if left > 0 {
			left -= int64(len(b))
		}
	}
}

// fillUint64 fills b with little-endian values of next; a tail shorter
// than 8 bytes takes the low bytes of one more value.
func fillUint64(b []byte, next func() uint64) {
	i := 0
	for ; i+8 <= len(b); i += 8 {
		binary.LittleEndian.PutUint64(b[i:], next())
	}
	if i < len(b) {
		var t [8]byte
		binary.LittleEndian.PutUint64(t[:], next())
		copy(b[i:], t[:])
	}
}
