package server

import (
	"math/rand/v2"
	"testing"
	"time"

	"tanknet/netcode"
	"tanknet/wire"
)

// TestWorld_StoresExactlyWhatItSends drives tanks into each other and the walls with contact
// on: after every tick each stored pose is exactly the pose a client decodes from the
// snapshot, so a client replaying from it starts where the server is.
func TestWorld_StoresExactlyWhatItSends(t *testing.T) {
	w := newTestWorld(t, func(c *Config) { c.Rules.Contact = netcode.ContactServer })
	rng := rand.New(rand.NewPCG(9, 9))
	var players []*player
	var peers []*fakePeer
	for _, name := range []string{"a", "b", "c", "d"} {
		p, fp := mustJoin(t, w, 0, name)
		players, peers = append(players, p), append(peers, fp)
	}
	placeAt(w, players[1], w.cfg.Arena.Snap(netcode.Pose{X: players[0].tank.Pose().X + 0.5, Y: players[0].tank.Pose().Y})) // touching from the start
	for tick := uint32(1); tick <= 400; tick++ {
		for _, fp := range peers {
			fp.inputs = append(fp.inputs, netcode.PendingInput{Tick: tick,
				Input:    netcode.Input{Turn: 2*rng.Float64() - 1, Throttle: 2*rng.Float64() - 1},
				Duration: time.Duration(20+rng.IntN(31)) * time.Millisecond})
		}
		w.step(time.Duration(tick) * tickInterval)
		states := decodeFrame(peers[0].snapshot).GetSnapshot().GetPlayers()
		for i, p := range players {
			if got := wire.StateFromProto(states[i]).Pose; got != p.tank.Pose() {
				t.Fatalf("tick %d: player %d stores %v but a client decodes %v", tick, p.tank.ID(), p.tank.Pose(), got)
			}
		}
	}
	if w.stats.contacts.Load() == 0 {
		t.Error("no contact happened: the test did not exercise ResolveContacts")
	}
}
