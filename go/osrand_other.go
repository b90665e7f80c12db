//go:build !linux && !windows

package randp

import crand "crypto/rand"

// Off Linux and Windows the pure-Go path seeds from crypto/rand's reader as
// it was when the package was initialised: Go's own, which reads the
// operating system's source (getentropy on macOS and OpenBSD, getrandom or
// kern.arandom on the BSDs, wasi's random_get, and so on).
// Replacing crypto/rand.Reader after that changes nothing here; a package
// initialised before this one that replaces it does, and so does
// testing/cryptotest.SetGlobalRandom, which makes crypto/rand's own reader
// deterministic in a test: there the seeds are what crypto/rand gives.

// osReader is the operating system's source, read for every seed.
var osReader = crand.Reader
