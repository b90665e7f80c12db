//go:build cgo && linux && !android && (amd64 || arm64) && !randp_purego

package randp

import (
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
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

// vmClockRole tells a re-run test binary, started with a stand-in for
// /dev/vmclock0, whether the library must find a VM generation counter
// there ("1") or not ("0").
const vmClockRole = "RANDP_TEST_VM_CLOCK_DEVICE"

// vmClockPage is a VMClock device's page (struct vmclock_abi, Linux's
// vmclock-abi.h): magic "VCLK", size, version 1, an even sequence count,
// flags, and the VM generation counter at 1.
func vmClockPage(flags uint64) []byte {
	b := make([]byte, 4096)
	binary.LittleEndian.PutUint32(b[0:], 0x4b4c4356)
	binary.LittleEndian.PutUint32(b[4:], 112)
	binary.LittleEndian.PutUint16(b[8:], 1)
	binary.LittleEndian.PutUint32(b[12:], 2)
	binary.LittleEndian.PutUint64(b[24:], flags)
	binary.LittleEndian.PutUint64(b[104:], 1)
	return b
}

// TestVMClockDeviceKeepsNoOutput: the package's choice to keep output
// follows what the randp library reads from the VMClock device, end to
// end. This test binary is re-run in a mount namespace of its own whose
// /dev is a tmpfs holding /dev/null and a stand-in /dev/vmclock0: a valid
// page with the flag that says the counter is present, and (the control)
// the same page without that flag. With the flag, the library must say
// readable and the child keep nothing on the Go side (the draws of
// TestVMGenerationKeepsNoOutput); without it, the library must say not
// readable and the child keep its buffers. Needs root, for the mounts
// (CI runs as root).
func TestVMClockDeviceKeepsNoOutput(t *testing.T) {
	if want := os.Getenv(vmClockRole); want != "" {
		readable := cVMGenerationReadable()
		if readable != (want == "1") || keepsOutput == readable {
			println("vm-clock: library readable =", readable, "keepsOutput =", keepsOutput, "want readable =", want)
			os.Exit(1)
		}
		if readable {
			if p := mapPage(); p != nil {
				println("vm-clock: a page was mapped")
				os.Exit(1)
			}
			if msg := noPageDraws(); msg != "" {
				println("vm-clock:", msg)
				os.Exit(1)
			}
		} else if msg := noPageDraws(); !strings.Contains(msg, "of its own") {
			println("vm-clock: with no counter, the buffers must be kept:", msg)
			os.Exit(1)
		}
		println("vm-clock: readable", readable, "as the device says")
		os.Exit(0)
	}
	if os.Geteuid() != 0 {
		t.Skip("mounting a stand-in /dev/vmclock0 needs root")
	}
	// Under qemu-user, which ignores MADV_WIPEONFORK, no page is kept in
	// any case (and the child, a binary of another architecture, would
	// need the emulator named to run).
	if p := mapPage(); p == nil {
		t.Skip("no page can be kept here at all (TestNoPageKeepsNoOutput covers it)")
	} else {
		releasePage(p)
	}
	unshare, err := exec.LookPath("unshare")
	if err != nil {
		t.Fatalf("unshare (util-linux) is needed for a mount namespace: %v", err)
	}
	const script = `mount -t tmpfs randp-test /dev && mknod -m 666 /dev/null c 1 3 && cp "$1" /dev/vmclock0 && shift && exec "$@"`
	for _, c := range []struct {
		want  string
		flags uint64
	}{{"1", 1 << 8}, {"0", 0}} {
		page := filepath.Join(t.TempDir(), "vmclock0")
		if err := os.WriteFile(page, vmClockPage(c.flags), 0o444); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(unshare, "--mount", "--propagation", "private", "sh", "-c", script, "sh", page,
			os.Args[0], "-test.run=^TestVMClockDeviceKeepsNoOutput$", "-test.count=1")
		cmd.Env = append(os.Environ(), vmClockRole+"="+c.want)
		out, err := cmd.CombinedOutput()
		if want := "vm-clock: readable " + map[string]string{"1": "true", "0": "false"}[c.want] + " as the device says"; err != nil || !strings.Contains(string(out), want) {
			t.Errorf("flags %#x: the child must print %q (%v):\n%s", c.flags, want, err, out)
		}
	}
}
