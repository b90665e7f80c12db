//go:build cgo && !android && !randp_local && !randp_purego

package randp

// The blank import links lib/linux_arm64/randp_linux_arm64.syso, the prebuilt
// library that cgo.go calls on linux/arm64, into every binary that uses the
// package (and makes `go mod vendor` copy it). Not on Android, which takes
// the pure-Go path (see cgo.go).
import _ "github.com/randp/randp/go/lib/linux_arm64"
