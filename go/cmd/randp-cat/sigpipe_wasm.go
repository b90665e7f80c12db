//go:build js || wasip1

package main

// ignoreSIGPIPE does nothing where there are no signals (js, wasip1): a
// write to a closed pipe returns an error there, which ends the stream.
func ignoreSIGPIPE() {}
