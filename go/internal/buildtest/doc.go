// Package buildtest builds and runs programs that use package randp the way
// its users do: in a module outside the repository, vendored, statically
// linked, as a C shared library, with Go's internal linker (which must refuse
// the cgo path), on platforms the package does not support, under go vet,
// and as README.md shows it. It has no API; its tests are the point.
package buildtest
