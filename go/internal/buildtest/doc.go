// Package buildtest builds and runs programs that use package randp the way
// its users do: in a module outside the repository, and vendored. It has no
// API; its tests are the point.
package buildtest
