package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"time"
)

// sysinfo is the system-info block of the report, as seed 002 gives it.
type sysinfo struct {
	Kernel, CPU, Cores, Libc, Go, Rustc, Cargo, Randp, Date, CPUFlags string
	// Load averages (1, 5, 15 min) when the run started and ended: the
	// machine is shared, so other jobs' load is part of the record.
	LoadStart, LoadEnd string
}

func gatherSysinfo(root string) sysinfo {
	s := sysinfo{
		Kernel: firstLine(run("uname", "-srm")),
		CPU:    cpuField("model name"),
		Cores:  firstLine(run("nproc")),
		Libc:   firstLine(run("ldd", "--version")),
		Go:     runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH,
		Rustc:  firstLine(run("rustc", "--version")),
		Date:   time.Now().UTC().Format("2006-01-02 15:04 UTC"),
	}
	if b, err := os.ReadFile(filepath.Join(root, "build/bench/loadavg-start.txt")); err == nil {
		s.LoadStart = loadavg(string(b))
	}
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		s.LoadEnd = loadavg(string(b))
	}
	var flags []string
	have := " " + cpuField("flags") + " "
	for _, f := range []string{"aes", "vaes", "avx2", "avx512f", "rdrand", "rdseed", "hypervisor"} {
		if strings.Contains(have, " "+f+" ") {
			flags = append(flags, f)
		}
	}
	s.CPUFlags = strings.Join(flags, " ")
	if b, err := os.ReadFile(filepath.Join(root, "Cargo.toml")); err == nil {
		if m := regexp.MustCompile(`(?m)^version\s*=\s*"([^"]+)"`).FindSubmatch(b); m != nil {
			s.Randp = "randp " + string(m[1])
		}
	}
	if rev := firstLine(runIn(root, "git", "rev-parse", "--short", "HEAD")); rev != "" {
		s.Randp += " (git " + rev + ")"
	}
	return s
}

func cpuField(key string) string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(k) == key {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

func run(name string, args ...string) string { return runIn("", name, args...) }

func runIn(dir, name string, args ...string) string {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		return ""
	}
	return string(out)
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return strings.TrimSpace(line)
}

// loadavg keeps the three load averages of a /proc/loadavg line.
func loadavg(line string) string {
	f := strings.Fields(line)
	if len(f) < 3 {
		return ""
	}
	return strings.Join(f[:3], " ")
}
