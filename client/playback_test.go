package client

import (
	"bytes"
	"errors"
	"io"
	"os"
	"testing"
	"time"

	"tanknet/netcode"
	"tanknet/wire"
)

// straightPoses replays data from start to end and returns each frame's predicted pose and
// the other tank's drawn pose.
func straightPoses(t *testing.T, data []byte) (own, other []netcode.Pose) {
	t.Helper()
	p, err := NewPlayback(data)
	if err != nil {
		t.Fatal(err)
	}
	rep := p.rep // already at frame 1
	for {
		o, r := posesOf(rep.Game())
		own, other = append(own, o), append(other, r)
		if _, err := rep.Step(); errors.Is(err, io.EOF) {
			return own, other
		} else if err != nil {
			t.Fatal(err)
		}
	}
}

// posesOf returns g's predicted pose and where it draws the other tank (zero when none).
func posesOf(g *Game) (own, other netcode.Pose) {
	if l := g.Local(); l != nil {
		own = l.Predicted()
	}
	if rm := g.Remotes()[2]; rm != nil {
		other = rm.Pose
	}
	return own, other
}

// TestPlayback_SeeksStepsAndPlays: from any moment, forward or back, a Playback shows what
// a straight replay showed at that frame, bit for bit; Advance follows Speed and pauses, and
// stops at the end.
func TestPlayback_SeeksStepsAndPlays(t *testing.T) {
	data, frames := recordScripted(t)
	own, other := straightPoses(t, data)
	p, err := NewPlayback(data)
	if err != nil {
		t.Fatal(err)
	}
	if n, of := p.Frame(); n != 1 || of != frames {
		t.Fatalf("a new playback is at frame %d of %d, want 1 of %d", n, of, frames)
	}
	frameTime := time.Second / 60
	if d := p.Duration(); d < time.Duration(frames-1)*frameTime-time.Millisecond || d > time.Duration(frames-1)*frameTime+time.Millisecond {
		t.Errorf("duration %v, want %d frames of %v", d, frames-1, frameTime)
	}
	at := func(what string, wantFrame int, wantRebuilt, rebuilt bool) {
		t.Helper()
		n, _ := p.Frame()
		o, r := posesOf(p.Game())
		if n != wantFrame || rebuilt != wantRebuilt || o != own[n-1] || r != other[n-1] {
			t.Errorf("%s: frame %d (rebuilt %v), own %v other %v; want frame %d (rebuilt %v), own %v other %v",
				what, n, rebuilt, o, r, wantFrame, wantRebuilt, own[wantFrame-1], other[wantFrame-1])
		}
	}
	rebuilt, err := p.Seek(40 * frameTime)
	if err != nil {
		t.Fatal(err)
	}
	at("seek forward to frame 41", 41, false, rebuilt)
	rebuilt, _ = p.Seek(10*frameTime + frameTime/2)
	at("seek back to between frames 11 and 12", 11, true, rebuilt)
	rebuilt, _ = p.StepFrames(1)
	at("one frame on", 12, false, rebuilt)
	rebuilt, _ = p.StepFrames(-1)
	at("one frame back", 11, true, rebuilt)
	if !p.Paused {
		t.Error("stepping frames did not pause")
	}
	if err := p.Advance(100 * time.Millisecond); err != nil || p.Position() != 10*frameTime {
		t.Errorf("paused Advance moved to %v (%v), want it to stay", p.Position(), err)
	}
	p.Paused, p.Speed = false, 2
	before := p.Position()
	if err := p.Advance(100 * time.Millisecond); err != nil || p.Position() != before+200*time.Millisecond {
		t.Errorf("Advance(100 ms) at speed 2 moved %v → %v (%v), want 200 ms on", before, p.Position(), err)
	}
	if err := p.Advance(time.Hour); err != nil || !p.Paused || p.Position() != p.Duration() {
		t.Errorf("past the end: position %v of %v, paused %v (%v); want the end, paused", p.Position(), p.Duration(), p.Paused, err)
	}
	at("the end", frames, false, false)
	rebuilt, _ = p.Seek(-time.Second)
	at("before the start", 1, true, rebuilt)
}

// TestPlayback_RefusesWhatCannotPlay: a recording with no frames, or damaged in the middle,
// is refused when opened, not halfway through playing it.
func TestPlayback_RefusesWhatCannotPlay(t *testing.T) {
	data, _ := recordScripted(t)
	if _, err := NewPlayback(data[:len(data)/2]); err == nil {
		t.Error("a recording cut in half opened for playback")
	}
	var header []byte
	{
		p, err := OpenReplay(bytes.NewReader(data), time.Unix(0, 0))
		if err != nil {
			t.Fatal(err)
		}
		header = data[:p.in.Offset()]
	}
	if _, err := NewPlayback(header); err == nil {
		t.Error("a recording with no frame opened for playback")
	}
}

// BenchmarkPlaybackSeek measures a seek back to the middle of a 60 s recording, the worst
// case for a scrubber (it replays from the start). Set TANKNET_RECORDING to a recording's
// path (tanksim -record DIR) to measure that one instead of a scripted 60 s of one tank
// watching another.
func BenchmarkPlaybackSeek(b *testing.B) {
	var data []byte
	if path := os.Getenv("TANKNET_RECORDING"); path != "" {
		var err error
		if data, err = os.ReadFile(path); err != nil {
			b.Fatal(err)
		}
	} else {
		data = recordScriptedFor(b, 60*time.Second)
	}
	p, err := NewPlayback(data)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(p.Duration().Seconds(), "recording_s")
	b.ResetTimer()
	for range b.N {
		if _, err := p.Seek(p.Duration()); err != nil {
			b.Fatal(err)
		}
		if _, err := p.Seek(p.Duration() / 2); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkUpdate_Recording measures what keeping a recording adds to a Game's frame: the
// same scripted second (60 frames of one tank watching another) with and without it.
func BenchmarkUpdate_Recording(b *testing.B) {
	for _, recording := range []bool{false, true} {
		name := "off"
		if recording {
			name = "on"
		}
		b.Run(name, func(b *testing.B) {
			arena := netcode.DefaultArena()
			remote := func(tick uint32) netcode.Pose { return netcode.Pose{X: 5 + 0.01*float64(tick%1000), Y: 30} }
			b.ReportAllocs()
			for range b.N {
				link := &scriptLink{welcome: wire.Welcome{PlayerID: 1, Arena: arena, Rules: netcode.DefaultRules()}}
				start := time.Unix(1000, 0)
				srv := &scriptedServer{arena: arena, link: link, latency: 40 * time.Millisecond, me: netcode.Pose{X: 10, Y: 10}}
				g := NewGame(link, DefaultOptions(), start)
				if recording {
					if err := g.RecordTo(io.Discard); err != nil {
						b.Fatal(err)
					}
				}
				for f := range 60 {
					now := start.Add(time.Duration(f) * time.Second / 60)
					srv.serve(now, remote)
					if err := g.Update(now, netcode.Input{Throttle: 1, Turn: 0.2}); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
