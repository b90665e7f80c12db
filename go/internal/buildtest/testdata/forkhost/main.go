// Command forkhost is a Go library for a C host that forks without exec
// (host.c): built with -buildmode=c-shared or c-archive, it exports draws
// from every randp API and from a control generator kept in ordinary Go
// memory. internal/buildtest's TestForkingCHost builds and runs it.
package main

/*
#include <stdint.h>
*/
import "C"

import (
	crand "crypto/rand"
	"encoding/binary"
	"math/rand/v2"
	"unsafe"

	randp "github.com/randp/randp/go"
)

// Drawn from before and after forks: a Source made before the first fork
// (through math/rand/v2, as users hold it) and a Buffered zero value.
var (
	source   = rand.New(randp.Source())
	buffered randp.Buffered
	// control is a generator in ordinary Go memory, copied into every child
	// as it is: its values must repeat, or the host could not see repeats.
	control *rand.ChaCha8
)

func init() {
	var seed [32]byte
	crand.Read(seed[:])
	control = rand.NewChaCha8(seed)
}

// randp_test_draw writes 8 values to out: Uint64, Read of 8 bytes, Read of
// 32 bytes (4 values), Source and Buffered.
//
//export randp_test_draw
func randp_test_draw(out *C.uint64_t) {
	v := unsafe.Slice((*uint64)(unsafe.Pointer(out)), 8)
	v[0] = randp.Uint64()
	var b [40]byte
	randp.Read(b[:8])
	randp.Read(b[8:])
	for i := range 5 {
		v[1+i] = binary.LittleEndian.Uint64(b[8*i:])
	}
	v[6] = source.Uint64()
	v[7] = buffered.Uint64()
}

//export randp_test_control
func randp_test_control() C.uint64_t { return C.uint64_t(control.Uint64()) }

//export randp_test_implementation
func randp_test_implementation() *C.char { return C.CString(randp.Implementation()) }

func main() {}
