package wire

import (
	"fmt"

	"tanknet/netcode"
	tankv1 "tanknet/proto/tank/v1"
)

// Conversions between the Welcome's wire messages and netcode values. Arena values travel as
// doubles, bit for bit. Tank states and inputs are package wire's.

// ArenaToProto returns the wire form of a.
func ArenaToProto(a *netcode.Arena) *tankv1.Arena {
	m := &tankv1.Arena{
		Width: a.Width, Height: a.Height,
		TankRadius: a.TankRadius, Speed: a.Speed, TurnRate: a.TurnRate,
	}
	for _, o := range a.Obstacles {
		m.Obstacles = append(m.Obstacles, &tankv1.Rect{
			Min: &tankv1.Vec2{X: o.MinX, Y: o.MinY},
			Max: &tankv1.Vec2{X: o.MaxX, Y: o.MaxY},
		})
	}
	return m
}

// ArenaFromProto converts and validates a wire arena.
func ArenaFromProto(m *tankv1.Arena) (netcode.Arena, error) {
	if m == nil {
		return netcode.Arena{}, fmt.Errorf("wire: arena missing")
	}
	a := netcode.Arena{
		Width: m.GetWidth(), Height: m.GetHeight(),
		TankRadius: m.GetTankRadius(), Speed: m.GetSpeed(), TurnRate: m.GetTurnRate(),
	}
	for _, o := range m.GetObstacles() {
		a.Obstacles = append(a.Obstacles, netcode.Rect{
			MinX: o.GetMin().GetX(), MinY: o.GetMin().GetY(),
			MaxX: o.GetMax().GetX(), MaxY: o.GetMax().GetY(),
		})
	}
	if err := a.Validate(); err != nil {
		return netcode.Arena{}, fmt.Errorf("wire: bad arena: %w", err)
	}
	return a, nil
}
