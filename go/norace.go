//go:build !race

package randp

// Without the race detector, pinning alone orders the pinned sections on a
// P (see race.go).

func raceAcquire(*shard) {}

func raceRelease(*shard) {}
