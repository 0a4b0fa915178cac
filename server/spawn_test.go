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
		if !a.Inside(p.Pose()) || netcode.ToGrid(p.Pose()).Pose() != p.Pose() {
			t.Fatalf("player %d spawned at %v: off the grid or outside the walls", p.ID(), p.Pose())
		}
		if x, y := a.Contain(p.Pose().X, p.Pose().Y); x != p.Pose().X || y != p.Pose().Y {
			t.Fatalf("player %d spawned at %v, inside an obstacle", p.ID(), p.Pose())
		}
	}
	for i, p := range w.players {
		for _, q := range w.players[i+1:] {
			if d := p.Pose().Distance(q.Pose()); d < 2*a.TankRadius {
				t.Fatalf("players %d and %d spawned %v apart, overlapping", p.ID(), q.ID(), d)
			}
		}
	}
}
