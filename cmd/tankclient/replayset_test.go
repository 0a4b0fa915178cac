//go:build !js

package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"tanknet/client"
	"tanknet/server/recording"
)

// checkSetReplay opens the demo recording set dir/m.tnrec (m-near, m-far, m-server) in the
// three-pane replay window, paused at 0.25 s, and checks what it drew against the files read
// apart: the far player at the frame its single replay is at the same moment, and the server
// pane at the newest tick either player had received by then, every tank where a
// re-simulation of the server recording puts it. Then: a missing part and a server part cut
// short after its header each stop it with an error saying so, before any window (a server
// recording of another match: render/matchplay's TestOpen_BadSets).
func checkSetReplay(t *testing.T, dir string) {
	t.Helper()
	replay := exec.Command(tankclientBinary(t), "-replay", filepath.Join(dir, "m.tnrec"), "-replay-at", "250ms",
		"-width", "1200", "-height", "500", "-frames", "30", "-screenshot", filepath.Join(dir, "set.png"), "-screenshot-details")
	out, err := replay.Output()
	if err != nil {
		t.Fatalf("tankclient -replay SET: %v\n%s", err, out)
	}
	var farFrame, farFrames, tick int
	var truth []string
	for _, l := range strings.Split(string(out), "\n") {
		switch {
		case strings.HasPrefix(l, "tankclient: replay far player"):
			fmt.Sscanf(l, "tankclient: replay far player at frame %d of %d; server tick %d", &farFrame, &farFrames, &tick)
		case strings.HasPrefix(l, "tankclient: truth"):
			truth = append(truth, l)
		}
	}
	read := func(part string) []byte {
		data, err := os.ReadFile(filepath.Join(dir, "m-"+part+".tnrec"))
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	// The moment on the players' shared clock (from their Games' start), the newest tick
	// that had reached either player by then, and the far player's frame then.
	start, _, _ := firstFrameAndTicks(t, read("near"), 0)
	now := start + 250*time.Millisecond
	_, nearTick, _ := firstFrameAndTicks(t, read("near"), now)
	farStart, farTick, _ := firstFrameAndTicks(t, read("far"), now)
	far, err := client.NewPlayback(read("far"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := far.Seek(now - farStart); err != nil {
		t.Fatal(err)
	}
	if n, _ := far.Frame(); farFrame != n {
		t.Errorf("the far pane was at frame %d, its single replay at the same moment at %d", farFrame, n)
	}
	if want := max(nearTick, farTick); tick != int(want) || want == 0 {
		t.Fatalf("the server pane showed tick %d; the newest either player had received by then is %d", tick, want)
	}
	m, err := recording.Load(bytes.NewReader(read("server")))
	if err != nil {
		t.Fatal(err)
	}
	world, _, err := m.At(uint32(tick), nil)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, tk := range world {
		want = append(want, fmt.Sprintf("tankclient: truth tick %d player %d at %.4f %.4f heading %.4f", tick, tk.ID, tk.Pose.X, tk.Pose.Y, tk.Pose.Heading))
	}
	if !slices.Equal(truth, want) || len(want) < 3 {
		t.Errorf("the server pane drew\n%s\nthe server recording re-simulated to tick %d has\n%s", strings.Join(truth, "\n"), tick, strings.Join(want, "\n"))
	}

	// A part missing, then a server part with no tick.
	other := filepath.Join(dir, "x.tnrec")
	for _, part := range []string{"near", "far"} {
		if err := os.WriteFile(filepath.Join(dir, "x-"+part+".tnrec"), read(part), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, err = exec.Command(tankclientBinary(t), "-replay", other).CombinedOutput()
	if code := exitCode(err); code != 2 || !strings.Contains(string(out), "x-server.tnrec") {
		t.Errorf("a set without its server part: exit %d, %s; want 2 and an error naming x-server.tnrec", code, out)
	}
	if err := os.WriteFile(filepath.Join(dir, "x-server.tnrec"), read("server")[:headerEnd(t, read("server"))], 0o644); err != nil {
		t.Fatal(err)
	}
	out, err = exec.Command(tankclientBinary(t), "-replay", other).CombinedOutput()
	if code := exitCode(err); code != 2 || !strings.Contains(string(out), "no tick") {
		t.Errorf("a set whose server part has no tick: exit %d, %s; want 2 and an error saying so", code, out)
	}
}

// firstFrameAndTicks replays a client recording and returns its first frame's time since the
// Game began and the newest server tick that had arrived by now.
func firstFrameAndTicks(t *testing.T, data []byte, now time.Duration) (start time.Duration, newest uint32, frames int) {
	t.Helper()
	epoch := time.Unix(0, 0)
	rep, err := client.OpenReplay(bytes.NewReader(data), epoch)
	if err != nil {
		t.Fatal(err)
	}
	for {
		at, err := rep.Step()
		if err != nil {
			return start, newest, frames
		}
		if frames++; frames == 1 {
			start = at.Sub(epoch)
		}
		for _, a := range rep.SnapshotTicks(nil) {
			if a.At <= now {
				newest = max(newest, a.Tick)
			}
		}
	}
}

// headerEnd returns the length of a server recording's header record.
func headerEnd(t *testing.T, data []byte) int {
	rd, err := recording.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	return int(rd.Offset())
}

// exitCode is a finished command's exit code (0 when err is nil, -1 when it did not run).
func exitCode(err error) int {
	if err == nil {
		return 0
	}
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	return -1
}
