package client_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"maps"
	"reflect"
	"slices"
	"testing"
	"time"

	"tanknet/client"
	"tanknet/internal/servertest"
	"tanknet/netcode"
	"tanknet/wire"
)

// seen is what a frame of a Game shows: its own tank's predicted and drawn poses, the other
// tanks' drawn poses, and its combat and shot figures.
type seen struct {
	predicted, visible netcode.Pose
	remotes            []remoteSeen
	own                wire.Combat
	shots              client.ShotStats
	sent, snapshots    int
}

type remoteSeen struct {
	id        uint32
	pose      netcode.Pose
	bracketed bool
}

func look(g *client.Game) seen {
	s := seen{own: g.Own(), shots: g.ShotStats(), sent: g.Stats().InputsSent, snapshots: g.Stats().Snapshots}
	if l := g.Local(); l != nil {
		s.predicted, s.visible = l.Predicted(), l.Visible()
	}
	for _, id := range slices.Sorted(maps.Keys(g.Remotes())) {
		r := g.Remotes()[id]
		s.remotes = append(s.remotes, remoteSeen{id, r.Pose, r.Bracketed})
	}
	return s
}

// TestReplay_DrawsWhatTheSessionDrew records a gunner bot's live session against a real
// server (with a second gunner to see and shoot at), then runs the recording through a new
// Game: at every frame it predicts, draws and counts exactly what the live one did, bit for
// bit, although nothing of the server is there.
func TestReplay_DrawsWhatTheSessionDrew(t *testing.T) {
	srv := servertest.Start(t, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	other := make(chan error, 1)
	go func() {
		_, err := client.RunBot(ctx, client.BotConfig{Addr: srv.Addr, Name: "target", Seed: 2, Options: client.DefaultOptions(), Fire: true, LagComp: true, Duration: 4 * time.Second})
		other <- err
	}()
	var rec bytes.Buffer
	var live []seen
	report, err := client.RunBot(ctx, client.BotConfig{
		Addr: srv.Addr, Name: "recorded", Seed: 1, Options: client.DefaultOptions(), Fire: true, LagComp: true,
		Duration: 3 * time.Second, Record: &rec,
		OnFrame: func(_ time.Time, g *client.Game) {
			live = append(live, look(g))
			if len(live)%40 == 0 {
				g.Fire(len(live)%80 == 0) // a shot now and then, with and without lag compensation
			}
		},
	})
	if err != nil || report.RecordError != "" {
		t.Fatalf("recorded bot: %v, recording: %q", err, report.RecordError)
	}
	if err := <-other; err != nil {
		t.Fatalf("other bot: %v", err)
	}
	if len(live) < 60 || live[len(live)-1].snapshots < 20 || len(live[len(live)-1].remotes) == 0 {
		t.Fatalf("the live session ran %d frames and saw %+v; want a few seconds of play with the other tank in view", len(live), live[len(live)-1])
	}

	replay, err := client.OpenReplay(bytes.NewReader(rec.Bytes()), time.Unix(5000, 0))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; ; i++ {
		_, err := replay.Step()
		if errors.Is(err, io.EOF) {
			if i != len(live) {
				t.Fatalf("the recording has %d frames, the session ran %d", i, len(live))
			}
			break
		}
		if err != nil {
			t.Fatalf("frame %d: %v", i+1, err)
		}
		if i >= len(live) {
			t.Fatalf("the recording has more frames than the session's %d", len(live))
		}
		if got := look(replay.Game()); !equalSeen(got, live[i]) {
			t.Fatalf("frame %d of %d differs:\nreplayed %+v\nlive     %+v", i+1, len(live), got, live[i])
		}
	}
	if live[len(live)-1].shots.Fired == 0 {
		t.Error("the recorded bot never fired: the replay did not check shots")
	}
}

func equalSeen(a, b seen) bool {
	return a.predicted == b.predicted && a.visible == b.visible && slices.Equal(a.remotes, b.remotes) &&
		a.own == b.own && reflect.DeepEqual(a.shots, b.shots) && a.sent == b.sent && a.snapshots == b.snapshots
}
