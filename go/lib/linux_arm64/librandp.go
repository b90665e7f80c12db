// Package librandp holds the prebuilt randp static library for linux/arm64,
// librandp.a in this directory, which package randp links through cgo. It has
// no API. Package randp imports it only so that `go mod vendor`, which copies
// the directories of imported packages and nothing else, keeps the library.
package librandp
