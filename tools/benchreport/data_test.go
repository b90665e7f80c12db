package main

import "testing"

// rejectsMutations fails t unless check, through parseData, rejects each of
// the mutations of text, which are named by what they break; a mutation
// that leaves text as it was fails t too, so that none passes unapplied.
func rejectsMutations[T any](t *testing.T, text string, check func(*T) error, bad map[string]string) {
	t.Helper()
	for name, mutated := range bad {
		if mutated == text {
			t.Fatalf("%s: the mutation did not apply", name)
		}
		if _, err := parseData(mutated, check); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
