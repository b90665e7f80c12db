//go:build go1.26

package randp

import (
	crand "crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"strings"
	"testing"
	"testing/cryptotest"
)

// globalRandomRole tells a re-run test binary to draw under
// cryptotest.SetGlobalRandom.
const globalRandomRole = "RANDP_TEST_GLOBAL_RANDOM"

// TestSetGlobalRandomSeedsNothing: testing/cryptotest.SetGlobalRandom makes
// crypto/rand deterministic for a test; it must not make randp so. Two child
// processes each set it, with the same seed, before their first draw, and
// draw through a new Buffered, Uint64 and Read: their values must differ (a
// seed taken from crypto/rand would repeat them). Control: crypto/rand.Read
// gives both the same bytes.
func TestSetGlobalRandomSeedsNothing(t *testing.T) {
	if os.Getenv(globalRandomRole) != "" {
		cryptotest.SetGlobalRandom(t, 1)
		b, c := make([]byte, 16), make([]byte, 16)
		Read(b)
		crand.Read(c)
		fmt.Printf("global-random: %#x %#x %s %s\n", Source().Uint64(), Uint64(), hex.EncodeToString(b), hex.EncodeToString(c))
		return
	}
	if underQemuUser() {
		t.Skip("qemu-user (RANDP_TEST_EMULATOR) cannot start a program of the guest's architecture by itself")
	}
	var runs [2][]string
	for i := range runs {
		out, err := rerun("TestSetGlobalRandomSeedsNothing", globalRandomRole+"=1")
		_, line, ok := strings.Cut(string(out), "global-random: ")
		if err != nil || !ok {
			t.Fatalf("child %d (%v):\n%s", i, err, out)
		}
		line, _, _ = strings.Cut(line, "\n")
		runs[i] = strings.Fields(line)
	}
	t.Logf("%s path: %v and %v", Implementation(), runs[0], runs[1])
	if len(runs[0]) != 4 || len(runs[1]) != 4 {
		t.Fatalf("children printed %v and %v, not four values each", runs[0], runs[1])
	}
	for i, what := range []string{"Source().Uint64()", "Uint64()", "Read(16 bytes)"} {
		if runs[0][i] == runs[1][i] {
			t.Errorf("%s gave %s in both processes under SetGlobalRandom", what, runs[0][i])
		}
	}
	if runs[0][3] != runs[1][3] {
		t.Errorf("control: crypto/rand.Read gave %s and %s under SetGlobalRandom with one seed, not the same bytes",
			runs[0][3], runs[1][3])
	}
}
