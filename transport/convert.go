package transport

import (
	"fmt"
	"time"

	"tanknet/netcode"
	tankv1 "tanknet/proto/tank/v1"
)

// Conversions between wire messages and netcode values. They copy floats bit for bit: the
// wire carries doubles, so what the server stores is exactly what clients receive.

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

// StateToProto returns the wire form of player id's state s.
func StateToProto(id uint32, s netcode.State) *tankv1.PlayerState {
	return &tankv1.PlayerState{
		PlayerId:             id,
		Tick:                 s.Tick,
		Position:             &tankv1.Vec2{X: s.Pose.X, Y: s.Pose.Y},
		Rotation:             s.Pose.Heading,
		AcknowledgedMoveTick: s.Ack,
	}
}

// StateFromProto returns the netcode view of a wire player state. Missing fields read as 0.
func StateFromProto(m *tankv1.PlayerState) netcode.State {
	return netcode.State{
		Tick: m.GetTick(),
		Pose: netcode.Pose{X: m.GetPosition().GetX(), Y: m.GetPosition().GetY(), Heading: m.GetRotation()},
		Ack:  m.GetAcknowledgedMoveTick(),
	}
}

// MoveToProto returns the wire form of a pending input.
func MoveToProto(p netcode.PendingInput) *tankv1.MoveInput {
	return &tankv1.MoveInput{
		Tick:       p.Tick,
		Turn:       p.Input.Turn,
		Throttle:   p.Input.Throttle,
		DurationMs: uint32(max(0, p.Duration/time.Millisecond)),
	}
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
