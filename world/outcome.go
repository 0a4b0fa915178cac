package world

import (
	"time"

	"tanknet/netcode"
)

// Outcome is what one tick did. Its slices are the world's and valid until the next Tick.
type Outcome struct {
	Tick uint32
	// Contact is the contact mode the tick ran under (SetContact changes it between ticks).
	Contact netcode.ContactMode
	// Every tank at the end of the tick, in increasing id order.
	IDs    []uint32
	Poses  []netcode.Pose
	Acks   []uint32     // each tank's last applied move tick
	Combat []TankCombat // each tank's health and respawn after this tick's shots
	// Applied lists every MoveInput simulated in this tick, by player, in order.
	Applied []AppliedInput
	// Starved lists the players that had applied inputs before but had none waiting in this
	// tick: their tank stood still for lack of input, not for lack of time budget.
	Starved []uint32
	// Doubled lists the players that had more than one MoveInput applied in this tick: their
	// tank moved two steps' worth or more at once (a backlog draining, or inputs on arrival).
	Doubled []uint32
	// Events lists who was placed (joined or respawned) and who left since the previous
	// tick's outcome, in order; they all happened before this tick's inputs were applied.
	Events []Event
	// Parted lists the players that left on their own earlier (Part), removed at the top of
	// this tick because an earlier tick applied their last inputs (or their time was up).
	Parted []uint32
	// Shots lists every shot judged in this tick, in order.
	Shots []JudgedShot
	// Counts are the tallies of inputs and contacts since the previous outcome.
	Counts Counts
}

// AppliedInput says that the world simulated player's MoveInput of tick MoveTick.
type AppliedInput struct {
	Player, MoveTick uint32
	// Input, Duration and Push are what was simulated (a wreck's input is zero, and so is a
	// push the rules refused).
	Input    netcode.Input
	Duration time.Duration
	Push     netcode.Push
	// Wait is how long the input waited at the server between its arrival and this tick;
	// -1 when its arrival time is unknown.
	Wait time.Duration
}

// Event is a change to who is in the world: a player placed at Pose (a join or a
// respawn) or, with Left, a player gone. A recording keeps them to rebuild the world.
type Event struct {
	Player uint32
	Left   bool
	Pose   netcode.Pose
}

// TankCombat is one tank's combat state at the end of a tick.
type TankCombat struct {
	Health      uint32 // health points left; 0 for a wreck
	Destroyed   bool   // a wreck waiting to respawn
	RespawnTick uint32 // the server tick a wreck comes back; 0 when not destroyed
}

// InputDrop is why a player's client must be dropped: a MoveInput that broke a rule. Rule
// names it as the server's counters do (e.g. "too_far_ahead"), Reason says it to the client.
type InputDrop struct {
	Player       uint32
	Rule, Reason string
}

// JudgedShot is one shot and its verdict. Kill is set when it destroyed its target; the
// shooter's client is told Result, nearby clients the tracer (Tracer), everyone the Kill.
// Request and Sighted are what judging it again needs (a server recording keeps them).
type JudgedShot struct {
	Shooter uint32
	Request netcode.ShotRequest // the Fire as the shooter sent it
	Result  netcode.ShotResult
	Kill    *netcode.Kill
	// Sighted lists, for a shot judged without lag compensation, the tanks it was judged
	// against: the other tanks, not wrecks, that the shooter had been sent, in id order. It is
	// valid until the next tick.
	Sighted []uint32
}

// Tracer is the shot as every nearby client is told of it; false for a refused shot, which
// fired nothing.
func (s *JudgedShot) Tracer() (netcode.Shot, bool) {
	r := &s.Result
	if r.Verdict == netcode.VerdictRefused {
		return netcode.Shot{}, false
	}
	return netcode.Shot{ShooterID: s.Shooter, ServerTick: r.ServerTick, OriginX: r.OriginX, OriginY: r.OriginY,
		EndX: r.EndX, EndY: r.EndY, TargetID: r.TargetID}, true
}

// Counts tallies what the world did with the inputs it was given, and the contacts it
// resolved, since its previous outcome.
type Counts struct {
	Applied   uint64 // MoveInputs simulated
	Deferred  uint64 // ticks a player's due input waited: its time budget, or MaxInputsPerTick, was spent
	Clamped   uint64 // inputs whose turn or throttle was clamped into [-1, 1]
	Stale     uint64 // stream inputs at or below a tick already queued
	Redundant uint64 // copies of a tick already queued (either lane)
	Gaps      uint64 // datagram copies past a gap, left for the stream
	Early     uint64 // inputs a datagram copy brought before the stream
	BadCopies uint64 // datagram copies that broke a rule (the stream's copy decides)
	Contacts  uint64 // tank contacts resolved
	// Pushes counts the clients' contact pushes applied, PushesRefused those applied as
	// zero, by PushRefusal.
	Pushes        uint64
	PushesRefused [pushRefusals]uint64
	Respawns      uint64 // wrecks brought back
	Aways         uint64 // players that said they are away (Away), each counted once until back
	AwayTicks     uint64 // player-ticks an away player stood still with nothing to apply
}
