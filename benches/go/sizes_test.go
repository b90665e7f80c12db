package peers

import "testing"

// readSizes are decred dcrd's Read sizes, with its names, as randp's
// go/internal/benchmarks/dcrd_test.go uses them.
var readSizes = []struct {
	name string
	n    int
}{
	{"4b", 4}, {"8b", 8}, {"32b", 32}, {"512b", 512}, {"1KiB", 1 << 10}, {"4KiB", 4 << 10},
}

var sinkBytes int

func benchReadSizes(b *testing.B, read func([]byte) (int, error)) {
	for _, size := range readSizes {
		b.Run(size.name, func(b *testing.B) {
			buf := make([]byte, size.n)
			b.SetBytes(int64(size.n))
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				n, err := read(buf)
				if err != nil || n != len(buf) {
					b.Fatalf("read %d of %d: %v", n, len(buf), err)
				}
				sinkBytes += n
			}
		})
	}
}
