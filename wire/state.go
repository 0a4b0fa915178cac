package wire

import (
	"time"

	"google.golang.org/protobuf/proto"

	"tanknet/netcode"
	tankv1 "tanknet/proto/tank/v1"
)

// One tank in a snapshot. Poses travel on netcode's wire grid (netcode.GridPose); every pose
// the server stores is on that grid, so what it stores is exactly what clients decode.

// Tank is what a snapshot says of one tank, apart from the snapshot's tick.
type Tank struct {
	ID     uint32
	Grid   netcode.GridPose
	Ack    uint32 // the newest move tick of this tank's player the server applied
	Combat Combat
	Input  netcode.InputReport // how this player's inputs arrive; whole states only
}

// Combat is a tank's health and score: the part of its state a delta does not carry (a tank
// whose combat state changed since the baseline travels whole), and what a client shows.
type Combat struct {
	Health, Kills, Deaths     uint32
	Destroyed, SpawnProtected bool
}

// TankOf returns player id's tank in state s with combat state c; a pose off the wire grid
// is rounded to it (the server never stores one).
func TankOf(id uint32, s netcode.State, c Combat) Tank {
	return Tank{ID: id, Grid: netcode.ToGrid(s.Pose), Ack: s.Ack, Combat: c}
}

// TankFromProto is what a whole PlayerState says of its tank. Missing fields read as 0.
func TankFromProto(ps *tankv1.PlayerState) Tank {
	return Tank{ID: ps.GetPlayerId(), Ack: ps.GetAcknowledgedMoveTick(),
		Grid: netcode.GridPose{X: ps.GetGridX(), Y: ps.GetGridY(), Heading: ps.GetGridHeading()},
		Combat: Combat{Health: ps.GetHealth(), Kills: ps.GetKills(), Deaths: ps.GetDeaths(),
			Destroyed: ps.GetDestroyed(), SpawnProtected: ps.GetSpawnProtected()},
		Input: InputReportFromProto(ps)}
}

// InputReportFromProto is what a whole PlayerState says of its player's input buffer.
func InputReportFromProto(ps *tankv1.PlayerState) netcode.InputReport {
	return netcode.InputReport{Wait: time.Duration(ps.GetInputWaitMs()) * time.Millisecond,
		Waiting: int(min(ps.GetInputWaiting(), maxReportedWaiting)), Starved: ps.GetInputStarved()}
}

// maxReportedWaiting bounds the buffer depth a PlayerState can claim: the server queues at
// most this many inputs a tick anyway.
const maxReportedWaiting = 1024

// maxReportedWaitMs bounds input_wait_ms as the protocol states it.
const maxReportedWaitMs = 65535

// Fill overwrites ps with t as the state of tick, without allocating.
func (t Tank) Fill(ps *tankv1.PlayerState, tick uint32) {
	*ps = tankv1.PlayerState{
		PlayerId: t.ID, Tick: tick, AcknowledgedMoveTick: t.Ack,
		GridX: t.Grid.X, GridY: t.Grid.Y, GridHeading: t.Grid.Heading,
		Health: t.Combat.Health, Destroyed: t.Combat.Destroyed, Kills: t.Combat.Kills,
		Deaths: t.Combat.Deaths, SpawnProtected: t.Combat.SpawnProtected,
		InputWaitMs:  uint32(min(max(t.Input.Wait, 0)/time.Millisecond, maxReportedWaitMs)),
		InputWaiting: uint32(min(max(t.Input.Waiting, 0), maxReportedWaiting)),
		InputStarved: t.Input.Starved,
	}
}

// EntryEncoder encodes tanks as snapshot entries: a PlayerState's bytes, without a field tag
// or length, ready to copy into every snapshot that carries the tank. The server encodes
// each tank once a tick with one. Its zero value is ready; it is not safe for concurrent use.
type EntryEncoder struct {
	ps tankv1.PlayerState
}

// Append returns dst[:0] with t as the state of tick encoded. A PlayerState has only scalar
// fields, so an error here would be a bug in the generated code.
func (e *EntryEncoder) Append(dst []byte, t Tank, tick uint32) ([]byte, error) {
	t.Fill(&e.ps, tick)
	return proto.MarshalOptions{}.MarshalAppend(dst[:0], &e.ps)
}

// StateToProto returns the wire form of player id's state s; see FillState.
func StateToProto(id uint32, s netcode.State) *tankv1.PlayerState {
	m := new(tankv1.PlayerState)
	FillState(m, id, s)
	return m
}

// FillState overwrites m's id, tick, acknowledged move tick and pose with the wire form of
// player id's state s, without allocating. A pose off the wire grid is rounded to it.
func FillState(m *tankv1.PlayerState, id uint32, s netcode.State) {
	g := netcode.ToGrid(s.Pose)
	m.PlayerId, m.Tick, m.AcknowledgedMoveTick = id, s.Tick, s.Ack
	m.GridX, m.GridY, m.GridHeading = g.X, g.Y, g.Heading
}

// StateFromProto returns the netcode view of a wire player state (Tank.State at its tick).
// Missing fields read as 0.
func StateFromProto(m *tankv1.PlayerState) netcode.State {
	return Tank{ID: m.GetPlayerId(), Ack: m.GetAcknowledgedMoveTick(),
		Grid: netcode.GridPose{X: m.GetGridX(), Y: m.GetGridY(), Heading: m.GetGridHeading()}}.State(m.GetTick())
}

// State returns t as netcode's state of tick: its pose off the wire grid, a heading outside
// [-32768, 32768] steps wrapped into [-pi, pi], and its acknowledged move tick.
func (t Tank) State(tick uint32) netcode.State {
	p := t.Grid.Pose()
	p.Heading = netcode.WrapAngle(p.Heading)
	return netcode.State{Tick: tick, Pose: p, Ack: t.Ack}
}
