package randp

import "testing"

// checkDistinct fails t if a value of vals is in seen or appears in vals
// twice, and adds vals to seen: two goroutines that shared buffer or
// generator bytes would hand out the same 64 bits twice.
func checkDistinct(t testing.TB, seen map[uint64]bool, vals [][]uint64) {
	t.Helper()
	for _, vs := range vals {
		for _, v := range vs {
			if seen[v] {
				t.Fatalf("value %#x handed out twice", v)
			}
			seen[v] = true
		}
	}
}

// CheckAllDistinct is checkDistinct with nothing seen before, for the tests
// outside the package.
func CheckAllDistinct(t testing.TB, vals [][]uint64) {
	t.Helper()
	checkDistinct(t, make(map[uint64]bool), vals)
}
