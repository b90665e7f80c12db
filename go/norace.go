//go:build !race

package randp

import "unsafe"

// Without the race detector there is nothing to announce (see race.go):
// raceShadow is empty, and its methods, the helpers and the page hooks do
// nothing and inline away. The fast paths (Uint64, Read, Buffered's Uint64
// and Int63) compile to the same machine code as without them.
type raceShadow struct{}

func raceMapped(unsafe.Pointer) {}

func raceUnmapping(unsafe.Pointer) {}

func raceRead[T any](*raceShadow, *T) {}

func raceWrite[T any](*raceShadow, *T) {}

func raceTake[T any](*raceShadow, *T) {}

func raceTakeN[T any](*raceShadow, *T, int) {}

func (*raceShadow) acquire() {}

func (*raceShadow) release() {}
