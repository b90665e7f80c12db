//go:build js || wasip1

package main

import (
	"errors"
	"syscall"
)

// ignoreSIGPIPE does nothing where there are no signals (js, wasip1): a
// write to a closed pipe returns an error there, which ends the stream.
func ignoreSIGPIPE() {}

// brokenPipe reports whether err is a write's error for a closed pipe.
func brokenPipe(err error) bool { return errors.Is(err, syscall.EPIPE) }
