package world

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"time"

	"tanknet/netcode"
)

// ErrFull is Join's answer when the world holds Config.MaxPlayers tanks.
var ErrFull = errors.New("world: full")

// World is the authoritative match. Exactly one goroutine calls its methods.
type World struct {
	cfg    Config
	tick   uint32
	nextID uint32  // the lowest id a new tank may have: above every id the world has held; where spawn searches start
	tanks  []*Tank // in increasing id order
	lead   leadGrace
	hist   *history // what every snapshot showed, for lag compensation

	out     Outcome
	counts  Counts
	events  []Event // since the last outcome (journal.go)
	targets []netcode.Target
	sighted []uint32 // every JudgedShot.Sighted of the tick, in one buffer
	// rejudge is the recorded shot Replay is judging again; nil in a live tick (replay.go).
	rejudge *JudgedShot
	// pushScratch and depths are overlaps' buffers, reused every call (push.go).
	pushScratch []tankDepth
	depths      []float64
}

// New returns an empty world at tick 0.
func New(cfg Config) *World {
	return &World{cfg: cfg, nextID: 1, hist: newHistory(cfg.HistoryTicks())}
}

// Config is the world's configuration.
func (w *World) Config() Config { return w.cfg }

// SetContact has the ticks from the next one on resolve contact by mode m (Config.Rules.
// Contact): a server switching a room's contact mode during a match. Inputs already
// queued keep their pushes and are judged under m when they are applied.
func (w *World) SetContact(m netcode.ContactMode) { w.cfg.Rules.Contact = m }

// ObserveBuffer has b told each player-tick's input buffer figures from now on.
func (w *World) ObserveBuffer(b BufferObserver) { w.cfg.Buffer = b }

// LastTick is the number of the last tick run, 0 before the first.
func (w *World) LastTick() uint32 { return w.tick }

// Tanks are the tanks in the world, in increasing id order; the slice is the world's, valid
// until the next call that changes who is in it.
func (w *World) Tanks() []*Tank { return w.tanks }

// Find returns the tank of player id, nil if there is none.
func (w *World) Find(id uint32) *Tank {
	if i, ok := w.index(id); ok {
		return w.tanks[i]
	}
	return nil
}

func (w *World) index(id uint32) (int, bool) {
	return slices.BinarySearchFunc(w.tanks, id, func(t *Tank, id uint32) int { return cmp.Compare(t.id, id) })
}

// Join places a new tank for player id, which must be higher than every id before it, at a
// free spawn point at server time now, and returns it; c answers for its client, and the
// tank's Client returns it. The world owns the tank: the pointer stays the tank's while it
// is in the world (until Leave, or Part and the tick that applies its last inputs). It
// returns ErrFull when the world holds MaxPlayers tanks. The placement is in the next
// outcome's Events.
func (w *World) Join(id uint32, c Client, now time.Duration) (*Tank, error) {
	if len(w.tanks) >= w.cfg.MaxPlayers {
		return nil, ErrFull
	}
	if id < w.nextID {
		return nil, fmt.Errorf("world: player id %d is not above every id before it (the next is %d at least)", id, w.nextID)
	}
	t := &Tank{id: id, client: c, joinedAt: now, firstTick: w.tick + 1}
	w.nextID = id + 1
	w.spawn(t)
	w.tanks = append(w.tanks, t)
	return t, nil
}

// Leave removes player id at once, with whatever it had queued, and reports whether it was
// there. Its departure is in the next outcome's Events.
func (w *World) Leave(id uint32) bool {
	i, ok := w.index(id)
	if ok {
		w.remove(i)
	}
	return ok
}

// remove takes tanks[i] out of the world and notes its departure.
func (w *World) remove(i int) {
	w.events = append(w.events, Event{Player: w.tanks[i].id, Left: true})
	w.tanks = slices.Delete(w.tanks, i, i+1)
}

// Queue checks the MoveInputs t's client sent on its reliable stream, in the order they
// came, and puts the good ones in t's input buffer (turn and throttle clamped; a tick already
// there is counted and skipped). When one breaks a rule it returns why, and the driver must
// drop t's client (Leave); the inputs after it are not looked at.
func (w *World) Queue(t *Tank, ins ...netcode.PendingInput) InputDrop {
	for _, in := range ins {
		raw := in.Input
		in, v, rule, reason := admit(in, t.last, t.ack, w.inputLead(), &w.cfg)
		switch v {
		case refused:
			return InputDrop{Player: t.id, Rule: rule, Reason: reason}
		case stale:
			if in.Tick > t.streamed { // the stream's copy of a tick a datagram brought first
				w.counts.Redundant++
				t.streamed = in.Tick
			} else {
				w.counts.Stale++
			}
			continue
		}
		if in.Input != raw {
			w.counts.Clamped++
		}
		t.queue = append(t.queue, in)
		t.last, t.streamed, t.away = in.Tick, in.Tick, false
	}
	return InputDrop{}
}

// Tick runs one tick at server time now: players that left go once their inputs are applied,
// wrecks respawn, each player's queued inputs are simulated as far as are due and its time
// budget allows, contact is resolved and shots are judged. The outcome is valid until the
// next call to Tick.
func (w *World) Tick(now time.Duration) *Outcome {
	w.tick++
	o := &w.out
	o.Tick, o.Contact = w.tick, w.cfg.Rules.Contact
	o.Applied, o.Starved, o.Doubled = o.Applied[:0], o.Starved[:0], o.Doubled[:0]
	o.Parted, o.Shots, w.sighted = o.Parted[:0], o.Shots[:0], w.sighted[:0]
	w.finishParting()
	w.respawn()
	for _, t := range w.tanks {
		w.simulate(t, now)
	}
	w.contact()
	w.judgeFires()
	o.Combat, o.Acks = o.Combat[:0], o.Acks[:0]
	for _, t := range w.tanks {
		o.Combat, o.Acks = append(o.Combat, t.Combat()), append(o.Acks, t.ack)
	}
	w.hist.record(w.tick, w.tanks)
	o.Events = w.takeEvents()
	o.Counts, w.counts = w.counts, Counts{}
	return o
}

// contact gathers the tanks' poses into the outcome and pushes apart the tanks that overlap:
// all of them when the server resolves contact (netcode.ContactServer); with contact
// predicted, only those that overlap deeper than netcode.MaxPredictedOverlap.
func (w *World) contact() {
	o := &w.out
	o.Poses, o.IDs = o.Poses[:0], o.IDs[:0]
	for _, t := range w.tanks {
		o.Poses, o.IDs = append(o.Poses, t.pose), append(o.IDs, t.id)
	}
	allowed := 0.0
	switch w.cfg.Rules.Contact {
	case netcode.ContactServer:
	case netcode.ContactPredicted:
		allowed = netcode.MaxPredictedOverlap(&w.cfg.Arena)
	default:
		return
	}
	if n := netcode.ResolveOverlaps(&w.cfg.Arena, o.Poses, allowed); n > 0 {
		w.counts.Contacts += uint64(n)
		for i, t := range w.tanks {
			t.pose = o.Poses[i]
		}
	}
}

// simulate applies as many of t's queued inputs as are due and its time budget allows,
// and notes the tick's input buffer figures.
func (w *World) simulate(t *Tank, now time.Duration) {
	playing := t.ack > 0 && !t.parting && !t.standing() // a player-tick of the input buffer's figures
	if t.standing() {
		w.counts.AwayTicks++
	}
	starved := playing && len(t.queue) == 0
	if starved {
		w.out.Starved = append(w.out.Starved, t.id)
	}
	n := w.apply(t, now)
	if n > 1 {
		w.out.Doubled = append(w.out.Doubled, t.id)
	}
	if playing && w.cfg.Buffer != nil {
		w.cfg.Buffer.PlayerTick(starved, n, len(t.queue))
	}
}

// apply simulates as many of t's queued inputs as are due this tick and its time budget
// allows, notes the tick's input report, and returns how many it applied.
func (w *World) apply(t *Tank, now time.Duration) int {
	// (A tick whose one input is held back by the time budget below stands the tank still
	// too, but that is the movement rules at work, not a late input.)
	budget := min(now-t.joinedAt+w.cfg.TimeSlack, t.granted+w.cfg.MaxSimPerTick,
		t.granted+t.pace.left(now, w.cfg.MaxSimPerSecond))
	due, queued := w.dueInputs(t), len(t.queue)
	before, n := t.granted, 0
	t.report = netcode.InputReport{}
	for _, in := range t.queue[:due] {
		if t.granted+in.Duration > budget || n >= w.cfg.MaxInputsPerTick() {
			w.counts.Deferred++
			break
		}
		wait := time.Duration(-1)
		if at, ok := t.arrival(in.Tick); ok {
			wait = max(now-at, 0)
			t.report.Wait = wait
			if w.cfg.Buffer != nil && !t.parting {
				w.cfg.Buffer.InputWait(wait)
			}
		}
		in = w.move(t, in, true)
		w.out.Applied = append(w.out.Applied, AppliedInput{Player: t.id, MoveTick: in.Tick, Input: in.Input, Duration: in.Duration, Push: in.Push, Wait: wait})
		n++
	}
	t.pace.grant(now, t.granted-before)
	w.counts.Applied += uint64(n)
	t.queue = t.queue[:copy(t.queue, t.queue[n:])]
	t.report.Waiting = len(t.queue)
	t.report.Starved = queued == 0 && t.ack > 0 && !t.away // none had come (a tick the budget held is not late; an away player sends none)
	if w.onArrival(t) {
		t.report = netcode.InputReport{} // no buffer, nothing to report: a client's clock keeps its rate
	}
	return n
}

// move simulates one MoveInput of t's and returns it as simulated: a wreck does not move,
// but its clock runs on. With check, its contact push is applied only when the rules allow it
// (pushAllowed), else as zero; a recording's replay moves tanks with it too, unchecked, as
// recorded.
func (w *World) move(t *Tank, in netcode.PendingInput, check bool) netcode.PendingInput {
	if t.destroyed {
		in.Input, in.Push = netcode.Input{}, netcode.Push{}
	}
	moved := netcode.Simulate(&w.cfg.Arena, t.pose, in.Input, in.Duration)
	if check && !in.Push.IsZero() {
		if why, refused := w.pushRefusal(t, moved, in); refused {
			w.counts.PushesRefused[why]++
			in.Push = netcode.Push{}
		} else {
			w.counts.Pushes++
		}
	}
	t.pose = netcode.ApplyPush(&w.cfg.Arena, moved, in.Push)
	t.granted += in.Duration
	t.ack = in.Tick
	t.recordMove(in.Tick)
	return in
}
