package recording

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestVerifyAcrossArchitectures: the golden recording, a fresh one from a live match of
// gunner bots (contact on, made by this machine's build), the scripted shove (contact
// predicted: pushes and the server's limit) and the scripted duel (interest
// management, lag-compensated views up to 14 ticks old) re-simulate exactly, their shots
// judged again to the same end points, under js/wasm (node, as in a browser tab) and under
// linux/arm64 (qemu-user-static): the simulation and the judging are bit-exact across
// architectures, so a browser's prediction can be exact too. make deps installs both tools;
// a machine without one skips that architecture, saying which package is missing.
func TestVerifyAcrossArchitectures(t *testing.T) {
	if testing.Short() {
		t.Skip("builds tankreplay for two other architectures")
	}
	dir := t.TempDir()
	fresh, duel, shove := filepath.Join(dir, "fresh.rec"), filepath.Join(dir, "duel.rec"), filepath.Join(dir, "shove.rec")
	if err := os.WriteFile(fresh, recordMatch(t, 3, 30, 6, 5), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(duel, recordDuel(t), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(shove, recordShove(t), 0o644); err != nil {
		t.Fatal(err)
	}
	golden, err := filepath.Abs(goldenPath)
	if err != nil {
		t.Fatal(err)
	}
	goroot := strings.TrimSpace(goEnv(t, "GOROOT"))
	targets := []struct {
		name, goos, goarch string
		runner             string // runs the built program
		tool, pkg          string // what the runner needs, and the Debian package with it
	}{
		{"js-wasm", "js", "wasm", wasmExec(goroot), "node", "nodejs"},
		{"linux-arm64", "linux", "arm64", "qemu-aarch64-static", "qemu-aarch64-static", "qemu-user-static"},
	}
	for _, tg := range targets {
		t.Run(tg.name, func(t *testing.T) {
			if runtime.GOOS == tg.goos && runtime.GOARCH == tg.goarch {
				t.Skip("this machine's own architecture: TestGolden covers it")
			}
			if _, err := exec.LookPath(tg.tool); err != nil {
				t.Skipf("%s is not installed (make deps installs Debian's %s): cannot verify under %s", tg.tool, tg.pkg, tg.name)
			}
			bin := filepath.Join(dir, "tankreplay-"+tg.name)
			build := exec.Command("go", "build", "-o", bin, "tanknet/cmd/tankreplay")
			build.Env = append(os.Environ(), "GOOS="+tg.goos, "GOARCH="+tg.goarch, "CGO_ENABLED=0")
			if out, err := build.CombinedOutput(); err != nil {
				t.Fatalf("build tankreplay for %s: %v\n%s", tg.name, err, out)
			}
			for _, rec := range []string{golden, fresh, duel, shove} {
				out, err := exec.Command(tg.runner, bin, "verify", rec).CombinedOutput()
				if err != nil || !strings.HasPrefix(string(out), "exact") {
					t.Errorf("tankreplay verify %s under %s: %v\n%s", filepath.Base(rec), tg.name, err, out)
				}
			}
		})
	}
}

// wasmExec returns Go's script that runs a js/wasm program under node: lib/wasm since Go
// 1.24, misc/wasm before.
func wasmExec(goroot string) string {
	for _, p := range []string{"lib/wasm/go_js_wasm_exec", "misc/wasm/go_js_wasm_exec"} {
		if f := filepath.Join(goroot, p); fileExists(f) {
			return f
		}
	}
	return filepath.Join(goroot, "lib/wasm/go_js_wasm_exec")
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }

// goEnv returns go env's value of key.
func goEnv(t *testing.T, key string) string {
	t.Helper()
	out, err := exec.Command("go", "env", key).Output()
	if err != nil {
		t.Fatalf("go env %s: %v", key, err)
	}
	return string(out)
}
