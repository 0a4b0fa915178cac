package server

import (
	"fmt"
	"testing"

	"tanknet/netcode"
)

// TestSpawn_LargeArenaFitsAFullServer joins 256 players into the large arena: every tank
// enters on the grid, inside the walls, outside every obstacle and clear of every other tank.
func TestSpawn_LargeArenaFitsAFullServer(t *testing.T) {
	w := newTestWorld(t, func(c *Config) { c.Arena, c.MaxPlayers = netcode.LargeArena(), 256 })
	a := &w.cfg.Arena
	for i := range 256 {
		p, _ := mustJoin(t, w, 0, fmt.Sprintf("t%d", i))
		if !a.Inside(p.tank.Pose()) || netcode.ToGrid(p.tank.Pose()).Pose() != p.tank.Pose() {
			t.Fatalf("player %d spawned at %v: off the grid or outside the walls", p.tank.ID(), p.tank.Pose())
		}
		if x, y := a.Contain(p.tank.Pose().X, p.tank.Pose().Y); x != p.tank.Pose().X || y != p.tank.Pose().Y {
			t.Fatalf("player %d spawned at %v, inside an obstacle", p.tank.ID(), p.tank.Pose())
		}
	}
	for i, p := range w.players() {
		for _, q := range w.players()[i+1:] {
			if d := p.tank.Pose().Distance(q.tank.Pose()); d < 2*a.TankRadius {
				t.Fatalf("players %d and %d spawned %v apart, overlapping", p.tank.ID(), q.tank.ID(), d)
			}
		}
	}
}
