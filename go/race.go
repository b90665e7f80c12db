//go:build race

package randp

// Under the race detector, pinned sections on the same P must be ordered
// for the detector, which does not know that pinning excludes other
// goroutines. An atomic load of raceSync on entry and an atomic store on
// exit give it that order; nothing reads the value.

func raceAcquire(sh *shard) { sh.raceSync.Load() }

func raceRelease(sh *shard) { sh.raceSync.Store(1) }
