package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"displaycheck"

	"tanknet/render/view"
)

var built struct {
	once sync.Once
	bin  string
	err  error
}

// tankclientBinary builds tankclient once for the tests that run it as a user would.
func tankclientBinary(t *testing.T) string {
	t.Helper()
	built.once.Do(func() {
		dir, err := os.MkdirTemp("", "tankclient-test")
		if err != nil {
			built.err = err
			return
		}
		built.bin = filepath.Join(dir, "tankclient")
		if out, err := exec.Command("go", "build", "-o", built.bin, ".").CombinedOutput(); err != nil {
			built.err = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.bin
}

func TestMain(m *testing.M) {
	code := m.Run()
	if built.bin != "" {
		os.RemoveAll(filepath.Dir(built.bin))
	}
	os.Exit(code)
}

// freeAddr returns a loopback UDP address nothing listens on now.
func freeAddr(t *testing.T) string {
	t.Helper()
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer pc.Close()
	return pc.LocalAddr().String()
}

// TestFrameReport_Demo: -demo -frame-report N draws N frames, prints one JSON object with
// their count, rate and frame-time percentiles on stdout, and exits 0.
func TestFrameReport_Demo(t *testing.T) {
	if os.Getenv("DISPLAY") == "" {
		t.Fatal("this test needs a display: run it under xvfb-run -a")
	}
	cmd := exec.Command(tankclientBinary(t), "-demo", "-server", freeAddr(t), "-width", "800", "-height", "450", "-frame-report", "30")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("tankclient -demo -frame-report 30: %v\n%s", err, stderr.Bytes())
	}
	var r struct {
		Frames  int                `json:"frames"`
		FPS     float64            `json:"fps"`
		FrameMS map[string]float64 `json:"frame_ms"`
	}
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("stdout is not one JSON object: %v\n%s", err, out)
	}
	if r.Frames != 30 || r.FPS <= 0 || r.FrameMS["p50"] <= 0 || r.FrameMS["p99"] < r.FrameMS["p50"] {
		t.Errorf("report %s: want 30 frames, a positive rate and p99 >= p50 > 0", out)
	}
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

// TestTour_RunsEndToEnd: -demo -tour-advance N shows every scene of the guided tour in
// order, setting each (the far player's inputs as the scene says, which the window reports
// from its client), and exits 0 after the last.
func TestTour_RunsEndToEnd(t *testing.T) {
	if os.Getenv("DISPLAY") == "" {
		t.Fatal("this test needs a display: run it under xvfb-run -a")
	}
	cmd := exec.Command(tankclientBinary(t), "-demo", "-server", freeAddr(t), "-bots", "0", "-width", "800", "-height", "450", "-tour-advance", "15")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("tankclient -demo -tour-advance 15: %v\n%s", err, stderr.Bytes())
	}
	tour := view.NewTour(view.TourScenes, view.FeatureInputBuffer) // the window can show the input buffer (U)
	tour.Start()
	var want []string
	for ; tour.Running(); tour.Next() {
		s, n, of, _ := tour.Scene()
		mode := "buffered"
		if s.InputOnArrival {
			mode = "on arrival"
		}
		want = append(want, fmt.Sprintf("tankclient: tour scene %d of %d: %s (inputs %s)", n, of, s.Title, mode))
	}
	var got []string
	for _, l := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(l, "tankclient: tour scene") {
			got = append(got, l)
		}
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("the tour showed\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
