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
	"tanknet/world"
)

// recordShove scripts a match with contact predicted: tank 1 drives into tank 2 and shoves
// it along a wall while both push their own tanks out of each other as clients do (against
// the other's newest state), tank 3 shoots at them now and then, and a fourth tank that
// sends no push is driven into tank 2 so that the server's limit separates them too. It
// returns the recording.
func recordShove(t testing.TB) []byte {
	t.Helper()
	scfg := server.DefaultConfig()
	scfg.Rules.Contact = netcode.ContactPredicted
	w := scriptedWorld(scfg, false)
	var buf bytes.Buffer
	rec := NewRecorder(&buf, scfg, 20, slog.New(slog.NewTextHandler(io.Discard, nil)))
	var tanks [4]*world.Tank
	starts := []netcode.Pose{{X: 6, Y: 2}, {X: 9, Y: 2, Heading: math.Pi}, {X: 8, Y: 9, Heading: -math.Pi / 2}, {X: 12, Y: 2, Heading: math.Pi}}
	for i := range tanks {
		tk, err := w.Join(uint32(i+1), shooterClient{}, 0)
		if err != nil {
			t.Fatal(err)
		}
		tanks[i] = tk
		w.Place(uint32(i+1), starts[i])
	}
	inputs := []netcode.Input{{Throttle: 1}, {Throttle: 0.2}, {}, {Throttle: 0.8}}
	for tick := uint32(1); tick <= 120; tick++ {
		for i, tk := range tanks {
			in := netcode.PendingInput{Tick: tick, Input: inputs[i], Duration: netcode.StepInterval}
			if i < 2 { // a client that pushes: against the others' newest states
				moved := netcode.Simulate(&scfg.Arena, tk.Pose(), in.Input, in.Duration)
				var others []netcode.Reach
				for j, o := range tanks {
					if j != i {
						others = append(others, netcode.Stay(o.Pose()))
					}
				}
				in.Push = netcode.ContactPush(&scfg.Arena, moved, others, in.Duration)
			}
			w.Queue(tk, in)
		}
		if tick%15 == 0 {
			w.Fire(tanks[2], netcode.ShotRequest{MoveTick: tick})
		}
		out := w.Tick(time.Duration(tick) * netcode.StepInterval)
		rec.Tick(server.TickRecord{Outcome: *out})
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestShove_VerifiesExactAndPushesMatter: a recording made with contact predicted keeps the
// pushes the server applied, and Verify re-simulates it exactly, the server's own
// separations and the shots included; a recording whose pushes are taken out no longer
// verifies (the pushes are what moved the tanks).
func TestShove_VerifiesExactAndPushesMatter(t *testing.T) {
	data := recordShove(t)
	rep, err := Verify(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Exact() {
		t.Fatalf("re-simulation %s", rep)
	}
	pushes := 0
	out := rewriteData(t, data, func(m *tankv1.Record) {
		for _, mv := range m.GetTick().GetMoves() {
			if mv.GetPushX() != 0 || mv.GetPushY() != 0 {
				pushes++
				mv.PushX, mv.PushY = 0, 0
			}
		}
	})
	if pushes < 10 || rep.Shots == 0 {
		t.Fatalf("%d pushes recorded and %d shots judged again, want a shove and shots", pushes, rep.Shots)
	}
	stripped, err := Verify(bytes.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	if stripped.Exact() {
		t.Errorf("the recording verified exact without its %d pushes: they moved nothing", pushes)
	}
	t.Logf("%d bytes, %d ticks, %d pushes, %d shots judged again: exact; without the pushes it %s", len(data), rep.Ticks, pushes, rep.Shots, stripped)
}
