//go:build cgo && !randp_local

package randp

// The blank import makes `go mod vendor` copy lib/linux_arm64/, and with it
// the prebuilt library that cgo.go links on linux/arm64.
import _ "github.com/randp/randp/go/lib/linux_arm64"
