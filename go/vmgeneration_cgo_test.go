//go:build cgo && linux && !android && (amd64 || arm64) && !randp_purego

package randp

import (
	"os"
	"strings"
	"testing"
)

// vmGenerationRole tells a re-run test binary to draw as where the library
// reads a VM generation counter.
const vmGenerationRole = "RANDP_TEST_VM_GENERATION"

// TestVMGenerationKeepsNoOutput: where the randp library reads a VM
// generation counter (VMClock), the cgo path keeps no output on the Go side,
// so that no value escapes the library's check (a clone of a restored VM
// snapshot would repeat a Go-side buffer). In a child process that takes the
// library's answer as "readable" before its first draw, eight goroutines
// draw through every API, and noPageDraws checks that every P's shard is
// noShard, every Buffered's page noBuffer, that those hold nothing, and that
// the values are distinct. Controls: keepsOutput is the library's own
// answer in this process, and here, where the buffers are kept (no VMClock
// device), the same check finds shards of their own.
func TestVMGenerationKeepsNoOutput(t *testing.T) {
	if os.Getenv(vmGenerationRole) != "" {
		if len(*shards.Load()) != 0 {
			println("vm-generation: shards were made before the first draw")
			os.Exit(1)
		}
		keepsOutput = false
		if p := mapPage(); p != nil {
			println("vm-generation: a page was mapped")
			os.Exit(1)
		}
		if msg := noPageDraws(); msg != "" {
			println("vm-generation:", msg)
			os.Exit(1)
		}
		println("vm-generation: kept nothing")
		os.Exit(0)
	}
	if keepsOutput == cVMGenerationReadable() {
		t.Fatalf("keepsOutput is %v, but the library says readable = %v", keepsOutput, cVMGenerationReadable())
	}
	if !keepsOutput {
		t.Skip("this process reads a VM generation counter: the parent's control needs one that does not")
	}
	if p := mapPage(); p == nil {
		t.Skip("no page can be kept here at all (TestNoPageKeepsNoOutput covers it)")
	} else {
		releasePage(p)
	}
	Uint64()
	if msg := noPageDraws(); !strings.Contains(msg, "of its own") {
		t.Fatalf("control: with the buffers kept, the check must find a page of their own, got %q", msg)
	}
	out, _ := rerun("TestVMGenerationKeepsNoOutput", vmGenerationRole+"=1")
	if !strings.Contains(string(out), "vm-generation: kept nothing") {
		t.Errorf("the child must keep no output on the Go side:\n%s", out)
	}
}
