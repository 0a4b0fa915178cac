package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"displaycheck"
)

// tankclientBinary builds tankclient once for the tests that run it as a user would.
func tankclientBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "tankclient")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// runHelp runs bin -h with env and returns its exit code and what it wrote.
func runHelp(t *testing.T, bin string, env []string) (int, string) {
	t.Helper()
	cmd := exec.Command(bin, "-h")
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return exit.ExitCode(), string(out)
	}
	if err != nil {
		t.Fatal(err)
	}
	return 0, string(out)
}

// TestHelp_WithAndWithoutDisplay: -h prints the flags and exits 0, on a display and with
// none (where displaycheck prints its copy, which must be the same text). Set
// TANKNET_UPDATE_HELP=1 to rewrite that copy after changing a flag.
func TestHelp_WithAndWithoutDisplay(t *testing.T) {
	if os.Getenv("DISPLAY") == "" {
		t.Fatal("this test needs a display: run it under xvfb-run -a")
	}
	bin := tankclientBinary(t)
	code, help := runHelp(t, bin, os.Environ())
	if code != 0 || !strings.Contains(help, "Usage: tankclient") || !strings.Contains(help, "-demo") {
		t.Fatalf("tankclient -h on a display: exit %d, printed:\n%s", code, help)
	}
	if os.Getenv("TANKNET_UPDATE_HELP") != "" {
		if err := os.WriteFile("../../internal/displaycheck/help.txt", []byte(help), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if help != displaycheck.Help {
		t.Errorf("internal/displaycheck/help.txt differs from tankclient -h: rerun this test with TANKNET_UPDATE_HELP=1")
	}
	var noDisplay []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "DISPLAY=") {
			noDisplay = append(noDisplay, kv)
		}
	}
	code, got := runHelp(t, bin, noDisplay)
	if code != 0 || !bytes.Equal([]byte(got), []byte(help)) {
		t.Errorf("tankclient -h without a display: exit %d, printed:\n%s\nwant exit 0 and the help", code, got)
	}
}
