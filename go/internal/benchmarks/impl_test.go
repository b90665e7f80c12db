//go:build randp_bench_impl

package benchmarks_test

// make bench builds its Go benchmark binaries with the tag randp_bench_impl
// when the package has Implementation, so that every pass's output names the
// implementation that ran as a benchmark configuration line
// ("randp-implementation: cgo" or "purego"), which the report reads: a
// binary built with -tags randp_purego is shown as pure-Go only if it says so.

import (
	"fmt"

	randp "github.com/randp/randp/go"
)

func init() { fmt.Printf("randp-implementation: %s\n", randp.Implementation()) }
