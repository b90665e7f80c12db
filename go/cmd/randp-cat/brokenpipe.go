//go:build !js && !wasip1 && !plan9

package main

import (
	"errors"
	"os/signal"
	"syscall"
)

// ignoreSIGPIPE makes a write to a closed pipe return EPIPE, which ends the
// stream with status 0, instead of killing the process.
func ignoreSIGPIPE() { signal.Ignore(syscall.SIGPIPE) }

// brokenPipe reports whether err is a write's error for a closed pipe.
func brokenPipe(err error) bool { return errors.Is(err, syscall.EPIPE) }
