package main

import (
	"strings"
	"testing"
)

// TestReferencesSchema: the embedded data file loads; an unknown key, a
// missing document and a field of the wrong type are errors.
func TestReferencesSchema(t *testing.T) {
	referencesTOML := dataText("references.toml")
	ref, err := parseData(referencesTOML, checkReferences)
	if err != nil {
		t.Fatal(err)
	}
	if len(ref.Planet36) != 4 || len(ref.Dcrd.Rows) != 24 || ref.Dcrd.Rows[21].OldPM != "± 3%" {
		t.Errorf("references: %d planet36 runs, %d dcrd rows, want 4 and 24 (Uint64N old ± 3%%)", len(ref.Planet36), len(ref.Dcrd.Rows))
	}
	rejectsMutations(t, referencesTOML, checkReferences, map[string]string{
		"unknown key":   referencesTOML + "\n[extra]\nx = 1\n",
		"missing table": strings.Replace(referencesTOML, "[rdrand_patch]", "[rdrand_patch_old]", 1),
		"wrong type":    strings.Replace(referencesTOML, `name = "DcrdRead/4b", old = 37.29,`, `name = "DcrdRead/4b", old = "37.29",`, 1),
		"short row":     strings.Replace(referencesTOML, `ns_op = 4908092, mb_s = 427.28, b_op = 18, allocs = 0 }`, `allocs = 0 }`, 1),
	})
}
