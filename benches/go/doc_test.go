// Package peers holds the Go benchmarks that need code outside the randp
// module: the getrandom system call per Read through golang.org/x/sys (how
// crypto/rand read before Go 1.24), and, built with -tags peer_unpredictable
// against the peer source named in a generated -modfile (make bench), the
// pure-Go arc4random of github.com/art4711/unpredictable. decred dcrd's own
// benchmarks run from its package through the same -modfile. Nothing here
// is part of randp.
package peers
