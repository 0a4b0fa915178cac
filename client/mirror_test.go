package client

import (
	"bytes"
	"errors"
	"io"
	"testing"
	"time"

	"tanknet/netcode"
	"tanknet/wire"
)

// TestMirror_FollowsTheGameAsItRecords runs a Game on a Runner's schedule (an Update at each
// arrival and each step due) and, every 50 ms as a slow page draws, hands what it recorded
// since to a Mirror and steps it: after every step the Mirror's Game has the same poses,
// counters and input as the recording Game, and the session's end reaches it on its frame.
func TestMirror_FollowsTheGameAsItRecords(t *testing.T) {
	arena := netcode.DefaultArena()
	link := &scriptLink{welcome: wire.Welcome{PlayerID: 1, Arena: arena, Rules: netcode.DefaultRules()}}
	start := time.Unix(1000, 0)
	srv := &scriptedServer{arena: arena, link: link, latency: 40 * time.Millisecond, me: netcode.Pose{X: 10, Y: 10}}
	remote := func(tick uint32) netcode.Pose { return netcode.Pose{X: 5 + 0.1*float64(tick), Y: 30} }
	g := NewGame(link, DefaultOptions(), start)
	var out bytes.Buffer
	if err := g.RecordTo(&out); err != nil {
		t.Fatal(err)
	}
	m := NewMirror(time.Unix(7000, 0))
	m.Keep()
	hand := func(frames int) {
		if err := g.FlushRecording(); err != nil {
			t.Fatal(err)
		}
		m.Add(out.Bytes(), frames)
		out.Reset()
	}
	hand(0) // the header alone
	if n, err := m.Step(nil); n != 0 || err != nil || m.Game() == nil {
		t.Fatalf("after the header: stepped %d, %v, game %v; want 0, nil and a Game", n, err, m.Game())
	}
	r := NewRunner(g, nil)
	r.SetInput(netcode.Input{Turn: 0.3, Throttle: 1})
	wake, nextDraw, unsent := start, start, 0
	for now := start; now.Before(start.Add(3 * time.Second)); now = now.Add(time.Millisecond) {
		srv.serve(now, remote)
		if len(link.queue) > 0 || !now.Before(wake) {
			if now.Sub(start) > time.Second {
				r.SetInput(netcode.Input{Turn: -0.5, Throttle: 0.5})
			}
			wait, err := r.Advance(now)
			if err != nil {
				t.Fatal(err)
			}
			wake = now.Add(wait)
			unsent++
		}
		if now.Before(nextDraw) {
			continue
		}
		nextDraw = nextDraw.Add(50 * time.Millisecond)
		hand(unsent)
		// At the newest frame handed over, the Game the mirror runs is the recorder's now.
		last, want, called := m.Frames()+unsent, mirrorLook(g), false
		if !m.At(last, func(game *Game) {
			called = true
			if got := mirrorLook(game); got != want {
				t.Errorf("at frame %d the mirror shows %+v, the Game showed %+v", last, got, want)
			}
		}) && unsent > 0 {
			t.Fatalf("At(%d) refused with %d frames run", last, m.Frames())
		}
		stepped := unsent
		unsent = 0
		n, err := m.Step(nil)
		if err != nil || n != stepped {
			t.Fatalf("at %v: the mirror stepped %d of %d frames: %v", now.Sub(start), n, stepped, err)
		}
		if stepped > 0 && !called {
			t.Fatalf("At(%d) was not called", last)
		}
		if got, want := mirrorLook(m.Game()), mirrorLook(g); got != want {
			t.Fatalf("at %v the mirror shows %+v, the Game %+v", now.Sub(start), got, want)
		}
	}
	if g.Stats().Snapshots < 40 || g.Local() == nil {
		t.Fatalf("the Game saw %d snapshots; want a few seconds of play", g.Stats().Snapshots)
	}
	// The session ends: the frame that says so reaches the mirror, which ends with its error.
	gone := errors.New("the server is gone")
	g.uplink.link = &failLink{Link: link, err: gone}
	if err := g.Update(start.Add(3*time.Second+time.Millisecond), netcode.Input{}); err == nil {
		t.Fatal("the Game did not end with its link")
	}
	hand(unsent + 1)
	m.End(nil)
	if n, err := m.Step(nil); n != unsent+1 || err == nil || err.Error() != gone.Error() {
		t.Fatalf("the last frames stepped %d and ended %v; want %d and %q", n, err, unsent+1, gone)
	}
	if _, err := m.Step(nil); !errors.Is(err, io.EOF) {
		t.Fatalf("after the end, Step says %v; want io.EOF", err)
	}
	p, err := OpenReplay(bytes.NewReader(m.Recording()), time.Unix(5000, 0))
	if err != nil {
		t.Fatal(err)
	}
	if err := p.StepToEnd(); err == nil || err.Error() != gone.Error() {
		t.Fatalf("the kept recording replays to %v; want %q", err, gone)
	}
}

// mirrorLook is what a page draws of a Game, enough to tell two apart.
type mirrorSeen struct {
	predicted, visible netcode.Pose
	remote             netcode.Pose
	in                 netcode.Input
	sent, snapshots    int
	now                time.Duration
}

func mirrorLook(g *Game) mirrorSeen {
	s := mirrorSeen{in: g.Input(), sent: g.Stats().InputsSent, snapshots: g.Stats().Snapshots, now: g.Now()}
	if l := g.Local(); l != nil {
		s.predicted, s.visible = l.Predicted(), l.Visible()
	}
	if r := g.Remotes()[2]; r != nil {
		s.remote = r.Pose
	}
	return s
}

// failLink is a Link whose Drain fails with err, after what was queued.
type failLink struct {
	Link
	err error
}

func (l *failLink) Drain(dst []Received) ([]Received, error) {
	dst, _ = l.Link.Drain(dst)
	return dst, l.err
}

func TestWaitLog_SummarisesOnePerTick(t *testing.T) {
	var w WaitLog
	if s := w.Summary(); s != (WaitSummary{}) {
		t.Fatalf("empty log: %+v", s)
	}
	w.waits = []time.Duration{30 * time.Millisecond, 10 * time.Millisecond, 20 * time.Millisecond, 40 * time.Millisecond}
	w.starved = 1
	if s := w.Summary(); s.P50Ms != 30 || s.P90Ms != 40 || s.Samples != 4 || s.Starved != 1 {
		t.Fatalf("summary %+v; want p50 30, p90 40 of 4, 1 starved", s)
	}
}
