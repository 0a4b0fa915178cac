package server

import (
	"fmt"
	"testing"
	"time"

	"tanknet/netcode"
	tankv1 "tanknet/proto/tank/v1"
	"tanknet/transport"
	"tanknet/wire"
)

// How a player's inputs arrive (input_wait_ms, input_waiting, input_starved) is its own
// business: only its own PlayerState carries the figures, on both lanes, with and without
// interest management, whole or delta encoded.
func TestInputReport_OnlyInTheOwnersState(t *testing.T) {
	for _, lane := range []wire.Lane{wire.LaneReliable, wire.LaneDatagram} {
		for _, large := range []bool{false, true} {
			t.Run(fmt.Sprintf("%v/large=%v", lane, large), func(t *testing.T) {
				w := newTestWorld(t, func(c *Config) {
					c.Lane = lane
					if large {
						c.Arena = netcode.LargeArena()
					}
				})
				var peers []*fakePeer
				var players []*player
				for i := range 3 {
					p, fp := mustJoin(t, w, 0, fmt.Sprint("p", i))
					fp.arrived = map[uint32]time.Duration{}
					placeAt(w, p, netcode.Pose{X: 20 + float64(i), Y: 20}) // in each other's view on any arena
					peers, players = append(peers, fp), append(players, p)
				}
				now := time.Duration(0)
				for tick := uint32(1); tick <= 6; tick++ {
					for _, fp := range peers {
						fp.inputs = append(fp.inputs, netcode.PendingInput{Tick: tick, Input: netcode.Input{Throttle: 0.1}, Duration: netcode.StepInterval})
						fp.arrived[tick] = now + 30*time.Millisecond // 20 ms before its tick
						fp.ack = w.tick()                            // every snapshot arrives: deltas from the second tick on
					}
					now += netcode.StepInterval
					w.step(now)
					for i, fp := range peers {
						states := received(t, w, fp)
						if len(states) != len(players) {
							t.Fatalf("tick %d: client %d got %d states, want %d", tick, i, len(states), len(players))
						}
						for _, ps := range states {
							r := wire.InputReportFromProto(ps)
							own := ps.GetPlayerId() == players[i].tank.ID()
							switch {
							case own && r.Wait != 20*time.Millisecond:
								t.Errorf("tick %d: client %d's own state says input_wait_ms %v, want 20ms", tick, i, r.Wait)
							case !own && r != (netcode.InputReport{}):
								t.Errorf("tick %d: client %d got player %d's input report %+v, want none", tick, i, ps.GetPlayerId(), r)
							}
						}
					}
				}
			})
		}
	}
}

// received returns the whole PlayerStates fp was sent in w's last tick (on the datagram
// lane, its chunks' whole states; tanks sent against a baseline carry no report anyway),
// and the ids of the others.
func received(t *testing.T, w *game, fp *fakePeer) []*tankv1.PlayerState {
	t.Helper()
	if w.cfg.Lane == wire.LaneReliable {
		return decodeFrame(fp.snapshot).GetSnapshot().GetPlayers()
	}
	var out []*tankv1.PlayerState
	for _, c := range fp.chunks {
		if _, err := wire.ReceiveChunk(c, w.tick()); err != nil {
			t.Fatal(err)
		}
		m := new(tankv1.ServerMessage)
		if err := transport.DecodeDatagram(c, m); err != nil {
			t.Fatal(err)
		}
		s := m.GetSnapshot()
		out = append(out, s.GetPlayers()...)
		for range s.GetUnchanged() {
			out = append(out, &tankv1.PlayerState{PlayerId: 1 << 30}) // stands for a delta tank: no report
		}
		for i := 0; i+3 < len(s.GetMoved()); i += 4 {
			out = append(out, &tankv1.PlayerState{PlayerId: 1 << 30})
		}
	}
	return out
}
