package matchplay

import (
	"bytes"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"tanknet/client"
	"tanknet/netcode"
	"tanknet/server/recording"
)

// The sets in testdata are two short demos (tankclient -demo -bots 2 -record
// testdata/a.tnrec, and b.tnrec): a is 9 s, past the server recording's first keyframe.
func readSet(t testing.TB, name string) (near, far, server Part) {
	t.Helper()
	read := func(part string) Part {
		data, err := os.ReadFile("testdata/" + name + "-" + part + ".tnrec")
		if err != nil {
			t.Fatal(err)
		}
		return Part{Name: name + "-" + part + ".tnrec", Data: data}
	}
	return read("near"), read("far"), read("server")
}

// look is what a pane draws of a Game, bit for bit: its own tank's predicted and drawn poses
// and every other tank's drawn pose.
type look struct {
	frame            int
	predicted, drawn netcode.Pose
	remotes          []netcode.Pose
}

func lookAt(pb *client.Playback) look {
	g := pb.Game()
	n, _ := pb.Frame()
	l := look{frame: n}
	if loc := g.Local(); loc != nil {
		l.predicted, l.drawn = loc.Predicted(), loc.Visible()
	}
	ids := make([]uint32, 0, len(g.Remotes()))
	for id := range g.Remotes() {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		l.remotes = append(l.remotes, g.Remotes()[id].Pose)
	}
	return l
}

func (a look) equal(b look) bool {
	return a.frame == b.frame && a.predicted == b.predicted && a.drawn == b.drawn && slices.Equal(a.remotes, b.remotes)
}

// newestTick is the newest server tick whose snapshot had reached either player by now (a
// moment on the players' shared clock), found by replaying both recordings afresh.
func newestTick(t *testing.T, now time.Duration, parts ...Part) uint32 {
	var newest uint32
	for _, p := range parts {
		rep, err := client.OpenReplay(bytes.NewReader(p.Data), time.Unix(0, 0))
		if err != nil {
			t.Fatal(err)
		}
		for {
			if _, err := rep.Step(); err != nil {
				break
			}
			for _, a := range rep.SnapshotTicks(nil) {
				if a.At <= now {
					newest = max(newest, a.Tick)
				}
			}
		}
	}
	return newest
}

// TestSet_EveryPaneAtAnyMoment: at moments visited in a shuffled order (forward, back, across
// the keyframe), each player's pane is what a single replay of its recording shows at the
// same moment, and the server pane is the world a fresh re-simulation of the server recording
// gives at the newest tick either player had received by then.
func TestSet_EveryPaneAtAnyMoment(t *testing.T) {
	near, far, server := readSet(t, "a")
	s, err := Open(near, far, server)
	if err != nil {
		t.Fatal(err)
	}
	if s.Near.Duration() < 6*time.Second || s.Match.Last() <= recording.DefaultKeyframeEvery {
		t.Fatalf("testdata/a: %v and %d ticks; want a recording past the first keyframe", s.Near.Duration(), s.Match.Last())
	}
	soloNear, _ := client.NewPlayback(near.Data)
	soloFar, _ := client.NewPlayback(far.Data)
	fresh, err := recording.Load(bytes.NewReader(server.Data))
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 12; i++ {
		at := time.Duration(rng.Int64N(int64(s.Near.Duration())))
		if err := s.Seek(at); err != nil {
			t.Fatal(err)
		}
		if _, err := soloNear.Seek(at); err != nil {
			t.Fatal(err)
		}
		now := at + s.nearStart
		if _, err := soloFar.Seek(now - s.farStart); err != nil {
			t.Fatal(err)
		}
		if got, want := lookAt(s.Near), lookAt(soloNear); !got.equal(want) {
			t.Fatalf("at %v the near pane shows %+v, its single replay %+v", at, got, want)
		}
		if got, want := lookAt(s.Far), lookAt(soloFar); !got.equal(want) {
			t.Fatalf("at %v the far pane shows %+v, its single replay %+v", at, got, want)
		}
		tick := newestTick(t, now, near, far)
		want, _, err := fresh.At(tick, nil)
		if err != nil {
			t.Fatal(err)
		}
		if s.Tick() != tick || !slices.Equal(s.Truth(), want) {
			t.Fatalf("at %v the server pane shows tick %d: %+v; want tick %d: %+v", at, s.Tick(), s.Truth(), tick, want)
		}
	}
}

// TestOpen_BadSets: a server recording of another match, a part cut short and parts in the
// wrong places each get an error naming the part and what is wrong, never a panic.
func TestOpen_BadSets(t *testing.T) {
	near, far, server := readSet(t, "a")
	_, _, otherServer := readSet(t, "b")
	cut := func(p Part, n int) Part { return Part{Name: p.Name, Data: p.Data[:len(p.Data)-n]} }
	for _, c := range []struct {
		name            string
		near, far, srv  Part
		wantIn, wantErr string
	}{
		{"another match's server", near, far, otherServer, "a-near.tnrec", "not of one match"},
		{"server cut short", near, far, cut(server, 5), "a-server.tnrec", "truncated"},
		{"near cut short", cut(near, 5), far, server, "a-near.tnrec", "truncated"},
		{"a client recording as the server", near, far, far, "a-far.tnrec", "client recording"},
		{"a server recording as a player", server, far, server, "a-server.tnrec", "server recording"},
		{"empty far", near, Part{Name: far.Name}, server, "a-far.tnrec", "empty"},
	} {
		_, err := Open(c.near, c.far, c.srv)
		if err == nil || !strings.Contains(err.Error(), c.wantIn) || !strings.Contains(err.Error(), c.wantErr) {
			t.Errorf("%s: %v; want an error naming %s and saying %q", c.name, err, c.wantIn, c.wantErr)
		}
	}
	if _, err := Open(near, far, server); err != nil {
		t.Errorf("the whole set: %v", err)
	}
}
