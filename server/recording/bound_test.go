package recording

import (
	"math"
	"tanknet/world"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"tanknet/netcode"
	"tanknet/server"
)

// MaxMoveBytes is the most one recorded move costs in a tick record (AppliedMove with its
// field tag and length; every field at its widest): the basis of the bound
// docs/RECORDINGS.md states.
const maxMoveBytes = 50

// A server applies at most 4 of one player's inputs a tick (server.Config.MaxSimPerTick of
// 50 ms inputs; server's TestWorld_TinyMovesAppliedAtMostFourATick), so whatever a client
// sends, its moves cost the recording at most 4 * maxMoveBytes per tick: 4 KB per
// player-second at 20 ticks a second, where an honest client's one move a tick costs a
// quarter of that.
func TestRecording_MovesPerPlayerSecondBounded(t *testing.T) {
	worst := world.AppliedInput{Player: math.MaxUint32, MoveTick: math.MaxUint32,
		Input: netcode.Input{Turn: -0.123456789, Throttle: 0.987654321}, Duration: 199 * time.Millisecond}
	empty := proto.Size(TickOf(server.TickRecord{Outcome: world.Outcome{Tick: math.MaxUint32}}))
	for moves := 1; moves <= 4; moves++ {
		rec := server.TickRecord{Outcome: world.Outcome{Tick: math.MaxUint32}}
		for range moves {
			rec.Applied = append(rec.Applied, worst)
		}
		if got := proto.Size(TickOf(rec)) - empty; got > moves*maxMoveBytes {
			t.Errorf("%d moves cost %d bytes in a tick record, want at most %d", moves, got, moves*maxMoveBytes)
		}
	}
	if perSecond := 4 * maxMoveBytes * 20; perSecond > 4096 {
		t.Errorf("bound %d B per player-second, more than the 4 KB documented", perSecond)
	}
}
