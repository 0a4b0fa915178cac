package recording

import (
	"bytes"
	"io"
	"log/slog"
	"math"
	"testing"
	"time"

	"tanknet/netcode"
	tankv1 "tanknet/proto/tank/v1"
	"tanknet/server"
)

// recordContactSwitch runs a world of contact predicted as a server would for 60 ticks, two
// tanks driving into each other head on, and switches it to contact server for ticks 21 to
// 40 (as server.SetContact does): the server then pushes them apart itself. It returns the
// recording, with a keyframe every 10 ticks.
func recordContactSwitch(t *testing.T) []byte {
	t.Helper()
	scfg := server.DefaultConfig()
	scfg.Rules.Contact = netcode.ContactPredicted
	w := scriptedWorld(scfg, false)
	var buf bytes.Buffer
	rec := NewRecorder(&buf, scfg, 10, slog.New(slog.NewTextHandler(io.Discard, nil)))
	a, err := w.Join(1, shooterClient{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	b, err := w.Join(2, shooterClient{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	w.Place(1, netcode.Pose{X: 12, Y: 3})
	w.Place(2, netcode.Pose{X: 28, Y: 3, Heading: math.Pi}) // they meet about tick 30
	for tick := uint32(1); tick <= 60; tick++ {
		switch tick {
		case 21:
			w.SetContact(netcode.ContactServer)
		case 41:
			w.SetContact(netcode.ContactPredicted)
		}
		in := netcode.PendingInput{Tick: tick, Input: netcode.Input{Throttle: 1}, Duration: netcode.StepInterval}
		w.Queue(a, in)
		w.Queue(b, in)
		out := w.Tick(time.Duration(tick) * netcode.StepInterval)
		rec.Tick(server.TickRecord{Outcome: *out})
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestVerify_ContactSwitchedDuringTheMatch: a match whose contact mode was switched while
// it was recorded keeps the mode on the ticks that ran under another than the header's
// (contact server, the twenty middle ticks, in which the server pushed the tanks apart) and
// verifies exact; the same file with those marks taken out differs.
func TestVerify_ContactSwitchedDuringTheMatch(t *testing.T) {
	data := recordContactSwitch(t)
	var marked []uint32
	stripped := rewriteData(t, data, func(m *tankv1.Record) {
		if tk := m.GetTick(); tk != nil && tk.GetContact() != tankv1.Contact_CONTACT_UNSPECIFIED {
			if tk.GetContact() != tankv1.Contact_CONTACT_SERVER {
				t.Errorf("tick %d marked %v, want CONTACT_SERVER", tk.GetTick(), tk.GetContact())
			}
			marked = append(marked, tk.GetTick())
			tk.Contact = tankv1.Contact_CONTACT_UNSPECIFIED
		}
	})
	if len(marked) != 20 || marked[0] != 21 || marked[19] != 40 {
		t.Errorf("ticks marked with their contact mode: %v, want 21 to 40", marked)
	}
	rep, err := Verify(bytes.NewReader(data))
	if err != nil || !rep.Exact() {
		t.Errorf("Verify = %s, %v; want exact", rep, err)
	}
	rep, err = Verify(bytes.NewReader(stripped))
	if err != nil || rep.Exact() {
		t.Errorf("Verify without the ticks' contact = %s, %v; want a difference (the server's pushes are lost)", rep, err)
	}
}
