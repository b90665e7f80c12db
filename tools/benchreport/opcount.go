package main

import (
	"os"
	"strconv"
	"strings"
)

// opcounts is scripts/go-opcount.sh's output: callgrind's instructions per
// call of the Go hot paths, and the compiler's frame line of each v2
// Source's Uint64 ("nosplit size=132 args=0x8 locals=0x0"), by function.
type opcounts struct {
	PerCall map[string]int    // operation -> instructions per call
	Frames  map[string]string // e.g. "math/rand/v2.(*PCG).Uint64" -> its frame
	Order   []string          // the functions, as printed
}

// loadOpcounts reads go-opcount.txt; a missing file is an empty set.
func loadOpcounts(path string) (opcounts, error) {
	o := opcounts{PerCall: map[string]int{}, Frames: map[string]string{}}
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return o, nil
	}
	for _, line := range strings.Split(string(b), "\n") {
		name, rest, _ := strings.Cut(strings.TrimSpace(line), " ")
		rest = strings.TrimSpace(rest)
		switch {
		case name == "" || name == "operation" || name == "function":
		case strings.Contains(name, ".("):
			o.Frames[name] = rest
			o.Order = append(o.Order, name)
		default:
			if n, err := strconv.Atoi(rest); err == nil {
				o.PerCall[name] = n
			}
		}
	}
	return o, err
}
