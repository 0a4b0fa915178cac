package world

import (
	"slices"
	"testing"
	"time"

	"tanknet/netcode"
)

// awayInput is one 50 ms full-throttle input of move tick tick.
func awayInput(tick uint32) netcode.PendingInput {
	return netcode.PendingInput{Tick: tick, Input: netcode.Input{Throttle: 1}, Duration: netcode.StepInterval}
}

// countingBuffer is a BufferObserver that counts player-ticks and starved ones.
type countingBuffer struct{ ticks, starved int }

func (b *countingBuffer) PlayerTick(starved bool, _, _ int) {
	b.ticks++
	if starved {
		b.starved++
	}
}
func (b *countingBuffer) InputWait(time.Duration) {}

// TestAway_HoldsTheTankWithoutStarving: a player sends three inputs and then Away after the
// third. The three are applied one a tick as usual; then for 40 ticks the tank holds the pose
// the third left, no tick starves (in the outcome, the report or the buffer's figures) and
// each is counted as away; its next input ends it and moves the tank again.
func TestAway_HoldsTheTankWithoutStarving(t *testing.T) {
	w := New(testConfig())
	var buf countingBuffer
	w.ObserveBuffer(&buf)
	tank, err := w.Join(1, &testClient{mode: ModeBuffered}, 0)
	if err != nil {
		t.Fatal(err)
	}
	w.Queue(tank, awayInput(1), awayInput(2), awayInput(3))
	if !w.Away(tank, 3) {
		t.Fatal("Away(3) after inputs 1..3 did not take")
	}
	var away uint64
	for range 3 {
		away += runTick(w).Counts.AwayTicks
	}
	if tank.Ack() != 3 || away != 0 {
		t.Fatalf("after 3 ticks: ack %d, away ticks %d; want 3 and 0 (queued inputs apply first)", tank.Ack(), away)
	}
	held := tank.Pose()
	for i := range 40 {
		out := runTick(w)
		away += out.Counts.AwayTicks
		if slices.Contains(out.Starved, tank.ID()) || tank.InputReport().Starved {
			t.Fatalf("away tick %d: starved (outcome %v, report %+v), want not", i, out.Starved, tank.InputReport())
		}
		if tank.Pose() != held {
			t.Fatalf("away tick %d: pose %v, want held at %v", i, tank.Pose(), held)
		}
	}
	// The buffer's player-ticks: the ticks that applied inputs 2 and 3 (the first counts
	// from its first applied input on); none of the away ones.
	if away != 40 || buf.starved != 0 || buf.ticks != 2 {
		t.Errorf("away ticks %d, buffer player-ticks %d starved %d; want 40, 2, 0", away, buf.ticks, buf.starved)
	}
	w.Queue(tank, awayInput(4))
	if tank.Away() {
		t.Fatal("still away after a fresh input")
	}
	runTick(w)
	if tank.Ack() != 4 || tank.Pose() == held {
		t.Errorf("after coming back: ack %d, pose %v; want 4 and moved from %v", tank.Ack(), tank.Pose(), held)
	}
}

// TestAway_OutOfDateIsIgnored: an Away naming a tick older than one the world has (a
// datagram copy of a later input overtook it) changes nothing, and a stale copy of an input
// before the Away does not end it.
func TestAway_OutOfDateIsIgnored(t *testing.T) {
	w := New(testConfig())
	tank, _ := w.Join(1, &testClient{mode: ModeBuffered}, 0)
	w.Queue(tank, awayInput(1), awayInput(2))
	w.QueueCopies(tank, awayInput(3))
	if w.Away(tank, 2) || tank.Away() {
		t.Fatal("Away(2) took with move tick 3 already queued")
	}
	if !w.Away(tank, 3) {
		t.Fatal("Away(3) did not take")
	}
	w.QueueCopies(tank, awayInput(2), awayInput(3))
	w.Queue(tank, awayInput(3))
	if !tank.Away() {
		t.Error("a stale copy ended the Away")
	}
	if got := runTick(w).Counts.Aways; got != 1 {
		t.Errorf("Counts.Aways = %d, want 1", got)
	}
}
