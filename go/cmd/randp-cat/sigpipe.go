//go:build !js && !wasip1

package main

import (
	"os/signal"
	"syscall"
)

// ignoreSIGPIPE makes a write to a closed pipe return EPIPE, which ends the
// stream with status 0, instead of killing the process.
func ignoreSIGPIPE() { signal.Ignore(syscall.SIGPIPE) }
