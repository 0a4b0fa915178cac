package server

import (
	"fmt"
	"math"
	"testing"
	"time"

	"tanknet/netcode"
	tankv1 "tanknet/proto/tank/v1"
	"tanknet/wire"
)

// On the large arena no message the server sends a client carries a position beyond the
// distance its tank is sent others at (the view radius plus hysteresis): not the snapshots,
// not the Shots of players far away, not its own ShotResults. Every player drives in
// circles and fires every cooldown without lag compensation, so shots fly all over.
func TestReveal_NoPositionBeyondTheRadius(t *testing.T) {
	w := newTestWorld(t, func(c *Config) {
		c.Arena, c.MaxPlayers, c.Rules.SpawnProtection = netcode.LargeArena(), 48, 0
	})
	type client struct {
		p    *player
		fp   *fakePeer
		move uint32
	}
	var clients []*client
	for i := range 48 {
		p, fp := mustJoin(t, w, 0, fmt.Sprint("p", i))
		clients = append(clients, &client{p: p, fp: fp})
	}
	radius := w.interest.leave + 1e-9
	heard := 0 // Shots of others received
	check := func(c *client, what string, pos *tankv1.Vec2) {
		t.Helper()
		if d := math.Hypot(pos.GetX()-c.p.tank.Pose().X, pos.GetY()-c.p.tank.Pose().Y); d > radius {
			t.Fatalf("tick %d: player %d was sent %s at %v, %.1f units away, beyond %.1f", w.tick(), c.p.tank.ID(), what, pos, d, radius)
		}
	}
	cooldown := netcode.Ticks(w.cfg.Rules.Cooldown)
	for range 3 * cooldown {
		for i, c := range clients {
			c.move++
			in := netcode.Input{Turn: float64(i%3) - 1, Throttle: 1}
			c.fp.inputs = append(c.fp.inputs, netcode.PendingInput{Tick: c.move, Input: in, Duration: netcode.StepInterval})
			if c.move%cooldown == uint32(i)%cooldown {
				c.fp.fires = append(c.fp.fires, netcode.ShotRequest{MoveTick: c.move})
			}
			c.fp.control = nil
		}
		w.step(time.Duration(w.tick()+1) * netcode.StepInterval)
		for _, c := range clients {
			for _, ps := range decodeFrame(c.fp.snapshot).GetSnapshot().GetPlayers() {
				pose := wire.StateFromProto(ps).Pose
				check(c, fmt.Sprint("tank ", ps.GetPlayerId()), &tankv1.Vec2{X: pose.X, Y: pose.Y})
			}
			for _, m := range c.fp.control {
				if s := m.GetShot(); s != nil {
					check(c, "a shot's origin", s.GetOrigin())
					check(c, "a shot's end", s.GetEnd())
					if s.GetShooterId() != c.p.tank.ID() {
						heard++
					}
				}
				if r := m.GetShotResult(); r != nil && r.GetVerdict() != tankv1.ShotVerdict_SHOT_VERDICT_REFUSED {
					check(c, "its shot's end", r.GetEnd())
					if r.GetTargetPosition() != nil {
						check(c, "the tank it hit", r.GetTargetPosition())
					}
				}
			}
		}
	}
	shots := int(w.stats.shots.Load())
	if heard == 0 || heard >= shots*(len(clients)-1) {
		t.Fatalf("%d shots heard by others of %d shots among %d players: want some heard and many not", heard, shots, len(clients))
	}
	t.Logf("%d shots, heard %d times by others", shots, heard)
}
