//go:build race

package randp

import "sync/atomic"

// Under the race detector, pinned sections on the same P must be ordered
// for the detector, which does not know that pinning excludes other
// goroutines. An atomic load on entry and an atomic store on exit give it
// that order; nothing reads the value.
type raceOrder struct{ v atomic.Uint32 }

func (r *raceOrder) acquire() { r.v.Load() }

func (r *raceOrder) release() { r.v.Store(1) }
