//go:build !race

package randp

// Without the race detector, pinning alone orders the pinned sections on a
// P (see race.go), and raceOrder is empty.
type raceOrder struct{}

func (*raceOrder) acquire() {}

func (*raceOrder) release() {}
