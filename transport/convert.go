package transport

import (
	"fmt"
	"time"

	"tanknet/netcode"
	tankv1 "tanknet/proto/tank/v1"
)

// Conversions between wire messages and netcode values. Poses travel on netcode's wire grid
// (netcode.GridPose); every pose the server stores is on that grid, so what it stores is
// exactly what clients decode. Arena values travel as doubles, bit for bit.

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
		return netcode.Arena{}, fmt.Errorf("transport: arena missing")
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
		return netcode.Arena{}, fmt.Errorf("transport: bad arena: %w", err)
	}
	return a, nil
}

// StateToProto returns the wire form of player id's state s; see FillState.
func StateToProto(id uint32, s netcode.State) *tankv1.PlayerState {
	m := new(tankv1.PlayerState)
	FillState(m, id, s)
	return m
}

// FillState overwrites m with the wire form of player id's state s, without allocating. A
// pose off the wire grid is rounded to it (the server never stores one).
func FillState(m *tankv1.PlayerState, id uint32, s netcode.State) {
	g := netcode.ToGrid(s.Pose)
	m.PlayerId, m.Tick, m.AcknowledgedMoveTick = id, s.Tick, s.Ack
	m.GridX, m.GridY, m.GridHeading = g.X, g.Y, g.Heading
}

// StateFromProto returns the netcode view of a wire player state. Missing fields read as 0.
// A heading outside [-32768, 32768] steps is wrapped into [-pi, pi].
func StateFromProto(m *tankv1.PlayerState) netcode.State {
	g := netcode.GridPose{X: m.GetGridX(), Y: m.GetGridY(), Heading: m.GetGridHeading()}
	p := g.Pose()
	p.Heading = netcode.WrapAngle(p.Heading)
	return netcode.State{Tick: m.GetTick(), Pose: p, Ack: m.GetAcknowledgedMoveTick()}
}

// MoveToProto returns the wire form of a pending input.
func MoveToProto(p netcode.PendingInput) *tankv1.MoveInput {
	m := new(tankv1.MoveInput)
	FillMove(m, p)
	return m
}

// FillMove sets m to the wire form of p, reusing m.
func FillMove(m *tankv1.MoveInput, p netcode.PendingInput) {
	m.Tick, m.Turn, m.Throttle = p.Tick, p.Input.Turn, p.Input.Throttle
	m.DurationMs = uint32(max(0, p.Duration/time.Millisecond))
}

// MoveFromProto returns the netcode view of a wire input, unvalidated: the server checks
// finiteness, ranges and duration itself.
func MoveFromProto(m *tankv1.MoveInput) netcode.PendingInput {
	return netcode.PendingInput{
		Tick:     m.GetTick(),
		Input:    netcode.Input{Turn: m.GetTurn(), Throttle: m.GetThrottle()},
		Duration: time.Duration(m.GetDurationMs()) * time.Millisecond,
	}
}
