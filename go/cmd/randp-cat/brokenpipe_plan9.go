package main

import (
	"errors"
	"os"
)

// ignoreSIGPIPE does nothing on Plan 9, which has notes, not signals: the
// note a write to a closed pipe posts ("sys: write on closed pipe") is
// ignored by Go's runtime unless os/signal asks for it, and the write fails
// with "i/o on hungup channel", which ends the stream.
func ignoreSIGPIPE() {}

// brokenPipe reports whether err is a write's error for a closed pipe: on
// Plan 9 the kernel's Ehungup, which has no syscall constant (os/exec
// recognises it by its text too).
func brokenPipe(err error) bool {
	var pe *os.PathError
	return errors.As(err, &pe) && pe.Err.Error() == "i/o on hungup channel"
}
