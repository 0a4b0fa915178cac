//go:build !js

package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
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

// playersIn counts the players a server recording placed (joined or respawned) at least once.
func playersIn(t *testing.T, r io.Reader) int {
	t.Helper()
	rd, err := recording.NewReader(r)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[uint32]bool{}
	for {
		m, err := rd.Next()
		if errors.Is(err, io.EOF) {
			return len(seen)
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range m.GetTick().GetEvents() {
			seen[e.GetPlayerId()] = true
		}
	}
}

func TestRecordPaths(t *testing.T) {
	if got := recordPaths("out/m.tnrec", false); !slices.Equal(got, []string{"out/m.tnrec"}) {
		t.Errorf("single window: %q", got)
	}
	if got := recordPaths("out/m.tnrec", true); !slices.Equal(got, []string{"out/m-near.tnrec", "out/m-far.tnrec", "out/m-server.tnrec"}) {
		t.Errorf("demo: %q", got)
	}
	if got := recordPaths("match", true); !slices.Equal(got, []string{"match-near", "match-far", "match-server"}) {
		t.Errorf("demo, no extension: %q", got)
	}
}

// TestRecord_DemoWritesAReplayableRecordingPerPlayer: -demo -record writes the near and far
// players' recordings, and each replays through a Game to its end with as many frames as
// the window drew, and the in-process server's recording, which verifies exact with both
// players and the bot in it; a path that cannot be written stops the client before the
// window.
func TestRecord_DemoWritesAReplayableRecordingPerPlayer(t *testing.T) {
	if os.Getenv("DISPLAY") == "" {
		t.Fatal("this test needs a display: run it under xvfb-run -a")
	}
	dir := t.TempDir()
	shot := filepath.Join(dir, "shot.png")
	cmd := exec.Command(tankclientBinary(t), "-demo", "-server", freeAddr(t), "-bots", "1", "-width", "800", "-height", "450",
		"-frames", "240", "-screenshot", shot, "-record", filepath.Join(dir, "m.tnrec"))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("tankclient -demo -record: %v\n%s", err, stderr.Bytes())
	}
	for _, player := range []string{"near", "far"} {
		p := replayToEnd(t, filepath.Join(dir, "m-"+player+".tnrec"))
		// The window draws faster than it updates (60 a second): 240 frames are at least
		// some updates, each a recorded frame.
		if p.Frames() < 10 || p.Game().Stats().Snapshots == 0 || p.Game().Local() == nil {
			t.Errorf("%s: replayed %d frames, %d snapshots; want a few frames, with snapshots and its tank", player, p.Frames(), p.Game().Stats().Snapshots)
		}
	}

	srvRec, err := os.Open(filepath.Join(dir, "m-server.tnrec"))
	if err != nil {
		t.Fatal(err)
	}
	defer srvRec.Close()
	rep, err := recording.Verify(srvRec)
	if err != nil || !rep.Exact() || rep.Ticks < 10 || rep.Moves == 0 {
		t.Errorf("the demo's server recording: %v, %v (%d ticks, %d moves); want it exact, with ticks and moves", rep, err, rep.Ticks, rep.Moves)
	}
	if _, err := srvRec.Seek(0, 0); err != nil {
		t.Fatal(err)
	}
	if n := playersIn(t, srvRec); n != 3 {
		t.Errorf("the demo's server recording placed %d players, want 3 (near, far and a bot)", n)
	}

	// The near player's recording in the replay window, opened paused at 0.25 s: it stays
	// there while the window draws, and says where it is when it closes.
	replay := exec.Command(tankclientBinary(t), "-replay", filepath.Join(dir, "m-near.tnrec"), "-replay-at", "250ms",
		"-width", "800", "-height", "450", "-frames", "30", "-screenshot", filepath.Join(dir, "replay.png"))
	out, err := replay.Output()
	if err != nil {
		t.Fatalf("tankclient -replay: %v\n%s", err, out)
	}
	var frame, frames int
	var at, length float64
	for _, l := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(l, "tankclient: replay at") {
			fmt.Sscanf(l, "tankclient: replay at frame %d of %d, %f s of %f s", &frame, &frames, &at, &length)
		}
	}
	// A moment past the recording's end is refused, saying how long the recording is, for
	// the single recording and for the set.
	for _, file := range []string{"m-near.tnrec", "m.tnrec"} {
		past := exec.Command(tankclientBinary(t), "-replay", filepath.Join(dir, file), "-replay-at", "1h", "-width", "800", "-height", "450", "-frames", "5")
		if out, err := past.CombinedOutput(); err == nil || !strings.Contains(string(out), "past the recording's end") {
			t.Errorf("-replay %s -replay-at 1h: %v, %s; want it refused as past the end", file, err, out)
		}
	}
	// Which frame is at 0.25 s depends on how the window ran (its first frames come slowly);
	// the recording itself says.
	data, err := os.ReadFile(filepath.Join(dir, "m-near.tnrec"))
	if err != nil {
		t.Fatal(err)
	}
	pb, err := client.NewPlayback(data)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pb.Seek(250 * time.Millisecond); err != nil {
		t.Fatal(err)
	}
	wantFrame, wantFrames := pb.Frame()
	if at != 0.25 || frame != wantFrame || frames != wantFrames || length <= at {
		t.Errorf("replay closed at frame %d of %d, %v s of %v s; want it paused at 0.25 s, frame %d of %d", frame, frames, at, length, wantFrame, wantFrames)
	}
	if _, err := os.Stat(filepath.Join(dir, "replay.png")); err != nil {
		t.Errorf("no screenshot of the replay: %v", err)
	}

	checkSetReplay(t, dir)

	bad := exec.Command(tankclientBinary(t), "-server", freeAddr(t), "-record", filepath.Join(dir, "no", "such", "dir", "m.tnrec"))
	out, err = bad.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "-record") {
		t.Errorf("an unwritable -record path: %v, %s; want an error naming -record", err, out)
	}
}

// TestRecord_SlowMotionDemoVerifies: a demo run in slow motion (-slow 4) writes a server
// recording that verifies exact and player recordings that replay to their end with no
// residual: slow motion changes how long a tick lasts on the wall clock, never what a tick is.
func TestRecord_SlowMotionDemoVerifies(t *testing.T) {
	if os.Getenv("DISPLAY") == "" {
		t.Fatal("this test needs a display: run it under xvfb-run -a")
	}
	dir := t.TempDir()
	cmd := exec.Command(tankclientBinary(t), "-demo", "-slow", "4", "-server", freeAddr(t), "-bots", "1", "-width", "800", "-height", "450",
		"-frames", "300", "-screenshot", filepath.Join(dir, "shot.png"), "-record", filepath.Join(dir, "m.tnrec"))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("tankclient -demo -slow 4 -record: %v\n%s", err, stderr.Bytes())
	}
	if !strings.Contains(string(out), "tankclient: speed 1/4") {
		t.Errorf("the demo did not report running at 1/4:\n%s", out)
	}
	f, err := os.Open(filepath.Join(dir, "m-server.tnrec"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rep, err := recording.Verify(f)
	if err != nil || !rep.Exact() || rep.Ticks < 10 || rep.Moves == 0 {
		t.Errorf("the slow motion demo's server recording: %v, %v (%d ticks, %d moves); want it exact, with ticks and moves", rep, err, rep.Ticks, rep.Moves)
	}
	for _, player := range []string{"near", "far"} {
		p := replayToEnd(t, filepath.Join(dir, "m-"+player+".tnrec"))
		l := p.Game().Local()
		if l == nil || l.Counters().NonZeroResiduals != 0 || p.Game().Stats().Snapshots == 0 {
			t.Errorf("%s: replayed %d frames; want its tank, snapshots and no residual", player, p.Frames())
		}
	}
}

// replayToEnd opens the client recording at path and plays it to its end, failing t if it
// cannot.
func replayToEnd(t *testing.T, path string) *client.Replay {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	p, err := client.OpenReplay(bytes.NewReader(data), time.Unix(0, 0))
	if err != nil {
		t.Fatalf("%s: %v", filepath.Base(path), err)
	}
	if err := p.StepToEnd(); err != nil {
		t.Fatalf("%s: frame %d: %v", filepath.Base(path), p.Frames(), err)
	}
	return p
}
