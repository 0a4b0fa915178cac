package world

import (
	"fmt"
	"slices"
	"time"

	"tanknet/netcode"
)

// A recording keeps what each tick decided: who was placed where and who left, the inputs
// applied, the shots judged and the combat that resulted. Replay runs those decisions
// through the code Tick runs them with (placement, movement, contact, shot judging against
// the lag-compensation history), so the re-simulated world differs from the recorded one
// exactly when that code changed.

// Recorded is one tick as a recording keeps it.
type Recorded struct {
	Tick   uint32
	Events []Event        // placements and departures, before the inputs
	Moves  []AppliedInput // the inputs applied, in order (Wait is not used)
	// Shots are the shots the tick judged, in order, with the recorded verdicts (Request and
	// Sighted set; Kill is not used).
	Shots []JudgedShot
	// Judge has Replay judge Shots again, so the combat follows from them; otherwise Combat
	// is applied as recorded. Judging needs the world's history since the shots' views: a
	// replay from an empty world has it, one from a keyframe does not.
	Judge  bool
	Combat []CombatChange // the tanks whose combat state the tick's shots changed
	// Contact is the contact mode the tick ran under; ContactUnspecified: the world's own
	// (Config.Rules.Contact). A server may switch a room's mode during a match (SetContact).
	Contact netcode.ContactMode
}

// CombatChange is one tank's combat state at the end of a recorded tick.
type CombatChange struct {
	Player uint32
	TankCombat
}

// TankState is one tank at the end of a tick.
type TankState struct {
	ID   uint32
	Pose netcode.Pose
	Ack  uint32
	TankCombat
}

// Replay runs recorded tick r: its placements and departures, its inputs (a wreck's as
// zero, as Tick applies them), contact when the world has it, and then either its shots or
// the combat state it recorded (see Recorded.Judge).
//
// It returns the shots it judged, in r.Shots' order, valid until the next call. A shot
// recorded as refused is not judged again: it changed nothing. The checks of a shot that
// rest on what its client was sent and on its round trip are taken as passed (sight.go).
//
// It returns an error, having applied what came before it, for a placement beyond
// MaxPlayers, an input or a shot of a player not in the world, or an input out of range.
func (w *World) Replay(r *Recorded) ([]JudgedShot, error) {
	w.out.Shots, w.sighted = w.out.Shots[:0], w.sighted[:0]
	for _, e := range r.Events {
		if e.Left {
			w.Leave(e.Player)
			continue
		}
		// Spawn protection and the first tick sent count from the tick the placement had:
		// a join comes between ticks (the one before), a wreck's respawn is the tick's own.
		w.tick = r.Tick - 1
		if t := w.Find(e.Player); t != nil && t.destroyed {
			w.tick = r.Tick
		}
		if _, err := w.Place(e.Player, e.Pose); err != nil {
			return nil, fmt.Errorf("tick %d: %w", r.Tick, err)
		}
	}
	w.tick = r.Tick
	for _, mv := range r.Moves {
		t := w.Find(mv.Player)
		if t == nil {
			return nil, fmt.Errorf("tick %d: input for player %d, who is not in the world", r.Tick, mv.Player)
		}
		if mv.Input.Validate() != nil || mv.Duration < 0 || mv.Duration > time.Second {
			return nil, fmt.Errorf("tick %d: player %d: input out of range", r.Tick, mv.Player)
		}
		t.last = max(t.last, mv.MoveTick)
		if mv.Push.Length() > netcode.MaxPush(&w.cfg.Arena, mv.Duration) {
			return nil, fmt.Errorf("tick %d: player %d: push longer than a move allows", r.Tick, mv.Player)
		}
		w.move(t, netcode.PendingInput{Tick: mv.MoveTick, Input: mv.Input, Duration: mv.Duration, Push: mv.Push}, false)
	}
	if r.Contact != netcode.ContactUnspecified && r.Contact != w.cfg.Rules.Contact {
		own := w.cfg.Rules.Contact
		w.cfg.Rules.Contact = r.Contact
		w.contact()
		w.cfg.Rules.Contact = own
	} else {
		w.contact()
	}
	if r.Judge {
		if err := w.judgeAgain(r); err != nil {
			return nil, err
		}
	} else {
		for _, c := range r.Combat {
			if t := w.Find(c.Player); t != nil {
				t.setCombat(c.TankCombat)
			}
		}
	}
	w.hist.record(w.tick, w.tanks)
	w.events = w.events[:0] // the recording has them already
	w.counts = Counts{}
	return w.out.Shots, nil
}

// judgeAgain judges each of r's shots that was not refused, in order, as Tick did.
func (w *World) judgeAgain(r *Recorded) error {
	defer func() { w.rejudge = nil }()
	for i := range r.Shots {
		s := &r.Shots[i]
		if s.Result.Verdict == netcode.VerdictRefused {
			continue
		}
		t := w.Find(s.Shooter)
		if t == nil {
			return fmt.Errorf("tick %d: shot of player %d, who is not in the world", r.Tick, s.Shooter)
		}
		w.rejudge = s
		w.out.Shots = append(w.out.Shots, w.judge(t, s.Request))
	}
	return nil
}

// Place puts player id's tank at pose, whole and spawn protected, as a join or respawn
// places it (the placement is in the next outcome's Events): a recording's placements, and
// setups that choose where tanks stand. A player not in the world is added without a
// client, unless the world is full. The pose is taken as given: a recording's poses are
// grid poses already, and a setup that wants the grid every stored pose is on elsewhere
// (PROTOCOL.md §7) passes Arena.Snap's.
func (w *World) Place(id uint32, pose netcode.Pose) (*Tank, error) {
	t := w.Find(id)
	if t == nil {
		if len(w.tanks) >= w.cfg.MaxPlayers {
			return nil, fmt.Errorf("more than %d tanks", w.cfg.MaxPlayers)
		}
		t = w.insert(id)
	}
	w.place(t, pose)
	return t, nil
}

// Restore makes the world the one a keyframe of tick shows: exactly tanks, nothing queued.
func (w *World) Restore(tick uint32, tanks []TankState) error {
	if len(tanks) > w.cfg.MaxPlayers {
		return fmt.Errorf("tick %d: %d tanks, at most %d", tick, len(tanks), w.cfg.MaxPlayers)
	}
	w.tick, w.tanks, w.events = tick, w.tanks[:0], w.events[:0]
	for _, s := range tanks {
		t := w.insert(s.ID)
		t.firstTick = 0 // a keyframe does not say when the tank joined
		t.pose, t.ack = s.Pose, s.Ack
		t.setCombat(s.TankCombat)
	}
	return nil
}

// State appends every tank's state to dst, in id order, and returns it.
func (w *World) State(dst []TankState) []TankState {
	for _, t := range w.tanks {
		dst = append(dst, TankState{ID: t.id, Pose: t.pose, Ack: t.ack, TankCombat: t.Combat()})
	}
	return dst
}

// insert adds a tank for player id with no client, in id order, and returns it.
func (w *World) insert(id uint32) *Tank {
	i, found := w.index(id)
	if found {
		return w.tanks[i]
	}
	t := &Tank{id: id, firstTick: w.tick + 1} // as Join has it
	w.tanks = slices.Insert(w.tanks, i, t)
	w.nextID = max(w.nextID, id+1)
	return t
}

// setCombat sets t's health and wreck state.
func (t *Tank) setCombat(c TankCombat) {
	t.health, t.destroyed, t.respawnAt = c.Health, c.Destroyed, c.RespawnTick
}
