package client

import (
	"time"

	"tanknet/netcode"
	"tanknet/wire"
)

// Options tune a Game's netcode.
type Options struct {
	Local  netcode.LocalConfig
	Interp netcode.InterpConfig
	// Dilation runs the prediction clock a little fast or slow to keep our inputs just in
	// time for the server's input buffer (netcode.Dilation).
	Dilation netcode.DilationConfig
	// InputOnArrival asks the server to apply our inputs as they arrive, not one per tick
	// from its input buffer (InputMode), and keeps the clock at its normal rate. For showing
	// the stutter the buffer cures; SetInputOnArrival switches it later.
	InputOnArrival bool
}

// DefaultOptions returns the netcode defaults.
func DefaultOptions() Options {
	return Options{Local: netcode.DefaultLocalConfig(), Interp: netcode.DefaultInterpConfig(), Dilation: netcode.DefaultDilationConfig()}
}

// Game is a playing client: the session's link and the parts of the player it orchestrates.
// One goroutine at a time calls Update, as often as it likes (once a frame, or a Runner's
// goroutine at each arrival and step), and reads the rest between Updates.
type Game struct {
	welcome wire.Welcome
	rules   netcode.Rules // the rules in force: the Welcome's, or the newest RulesChanged's
	opts    Options
	input   netcode.Input // given to the last Update
	recv    []Received    // scratch: the messages drained this Update
	rec     *recorder     // keeps every frame's inputs when recording (record.go)
	network string        // how the window describes the link (NoteNetwork), for recordings

	uplink uplink     // the Link, and what we send on it (uplink.go)
	lanes  lanes      // what arrives of the snapshots, and the baselines deltas build on (lanes.go)
	pace   pacing     // the clock, and the prediction clock's dilation (pace.go)
	pred   prediction // our own tank, predicted and reconciled (prediction.go)
	others timeline   // the other tanks, interpolated (remotes.go)
	combat combat     // our shots and their answers, tracers, kills (combat.go, feed.go)
	stats  statistics // the counters Stats and Report give (stats.go)
	away   away       // the player's page is hidden or frozen: no steps run (away.go)
}

// NewGame returns a Game on link (an established Session, or any other Link). now is the
// local time to count from.
func NewGame(link Link, opts Options, now time.Time) *Game {
	w := link.Welcome()
	return &Game{
		welcome: w,
		rules:   w.Rules,
		opts:    opts,
		uplink:  uplink{link: link, datagrams: w.Lane == wire.LaneDatagram},
		lanes:   newLanes(w.Lane),
		pace:    newPacing(now, opts.Dilation, opts.InputOnArrival),
		pred:    prediction{cfg: opts.Local},
		others:  newTimeline(opts.Interp),
		stats:   newStatistics(w.Lane),
	}
}

// Update runs one frame at local time now: it sends a Ping when one is due, applies what the
// server sent, runs the due prediction steps with input in and sends them. It returns the
// error that ended the session, if it has ended.
func (g *Game) Update(now time.Time, in netcode.Input) error {
	// A due Ping leaves before the frame's work, so the time it carries is when it left:
	// stamped at the frame's start and sent after it, it would count the frame's own work
	// (the replay after a snapshot, the prediction steps) into every round trip.
	pingErr := g.uplink.ping(now, g.pace.at(now))
	frame := g.pace.frame(now)
	if g.away.back {
		frame, g.away.back = 0, false // the clock starts again from this frame (away.go)
	}
	if err := g.drain(now, in); err != nil {
		return err // the link's own error says why it ended, which a failed Ping's may not
	}
	if pingErr != nil {
		return pingErr
	}
	if g.combat.own.Destroyed {
		in = netcode.Input{} // the server applies a wreck's inputs as zero: predict and draw that
	}
	if m, unsent := g.pace.mode(); unsent {
		if err := g.uplink.link.Send(m); err != nil {
			return err
		}
		g.pace.modeTold()
	}
	if err := g.predict(frame, in); err != nil {
		return err
	}
	g.input = in
	g.stats.st.LeftView += g.others.sample(g.Now())
	if fire, lagComp := g.combat.take(); fire && !g.away.on {
		if _, err := g.fire(lagComp); err != nil {
			return err
		}
	}
	return nil
}

// drain takes what the link received since the last frame, recording it with the frame's
// controls when recording, and applies it; it returns the error that ended the link.
func (g *Game) drain(now time.Time, in netcode.Input) error {
	var err error
	g.recv, err = g.uplink.link.Drain(g.recv[:0])
	if g.rec != nil {
		g.rec.record(now, in, g.combat.wantFire, g.combat.wantLagComp, g.pace.onArrival, g.away.on, g.recv, err, g.network)
	}
	for i := range g.recv {
		g.receive(g.recv[i])
		g.recv[i] = Received{}
	}
	return err
}

// predict runs the prediction steps due after a frame of length frame with input in, sends
// each (and on the datagram lane an InputBatch after them), and presents the partial step.
func (g *Game) predict(frame time.Duration, in netcode.Input) error {
	if g.pred.local == nil || g.away.on {
		return nil
	}
	sent := false
	others := g.contactOthers()
	for n := g.pace.steps(g.pred.local, frame); n > 0; n-- {
		p := g.pred.step(in, others)
		g.pace.sent(p.Tick)
		if err := g.uplink.move(p); err != nil {
			return err
		}
		g.pred.sent(p.Tick)
		g.stats.st.InputsSent++
		sent = true
	}
	if sent && g.uplink.datagrams {
		tick, mask := g.lanes.ack()
		if err := g.uplink.sendBatch(g.stats.lastAck(), g.pred.pending(), tick, mask); err != nil {
			return err
		}
	}
	g.pred.local.Present(in) // the partial step: drawn with the input held now, never sent
	return nil
}

// receive applies one server message.
func (g *Game) receive(r Received) {
	at := g.pace.at(r.At)
	switch m := r.Msg.(type) {
	case *wire.Snapshot:
		g.receiveSnapshot(at, m, r.Datagram)
	case wire.Roster:
		g.others.roster(m)
	case wire.ShotResult:
		g.combat.result(netcode.ShotResult(m))
	case wire.Shot:
		g.combat.shotSeen(at, netcode.Shot(m), g.welcome.PlayerID)
	case wire.Kill:
		g.combat.kill(at, netcode.Kill(m))
	case wire.RulesChanged:
		g.rules = m.Rules // our next prediction step plays by them (contactOthers)
		g.stats.st.RulesChanges++
	case wire.Pong:
		g.stats.pong(at, time.Duration(m.ClientTimeUs)*time.Microsecond)
	}
}

// receiveSnapshot applies a whole snapshot or one chunk of one, which arrived at local time
// at (on the datagram lane when datagram).
func (g *Game) receiveSnapshot(at time.Duration, snap *wire.Snapshot, datagram bool) {
	if !g.lanes.accept(at, snap) {
		return // a duplicate chunk, or one too old to draw
	}
	g.stats.chunk(snap.Tick, snap.Index)
	for _, id := range snap.Left {
		if g.others.leftView(id, snap.Tick) {
			g.stats.st.LeftView++
		}
	}
	use := func(t wire.Tank) {
		if datagram && !g.others.known(t.ID) && t.ID != g.welcome.PlayerID {
			// The roster comes on the stream and may trail a datagram: a tank the
			// roster has not announced (or has already removed) waits for it.
			g.stats.st.UnknownStates++
			return
		}
		g.receiveState(at, snap.Tick, t)
	}
	if !g.lanes.tanks(snap, use) {
		g.stats.st.DeltaUnusable++
	}
}

// receiveState applies what the snapshot of tick says of tank t.
func (g *Game) receiveState(at time.Duration, tick uint32, t wire.Tank) {
	g.stats.player(t.ID)
	st := t.State(tick)
	if t.ID != g.welcome.PlayerID {
		if g.others.push(at, t.ID, st, t.Combat) {
			g.stats.st.Reentered++
		}
		return
	}
	g.pred.take(&g.welcome.Arena, g.welcome.MaxInputLead, st, g.combat.respawned(t.Combat, st.Tick))
	g.stats.ack(st.Ack)
	if g.combat.ownState(t.Combat, st.Tick) {
		g.pace.observe(t.Input, st.Tick, st.Ack)
	}
}

// Now returns the local time of the last Update on netcode's timeline.
func (g *Game) Now() time.Duration { return g.pace.now() }

// Welcome returns what the server said when we joined.
func (g *Game) Welcome() wire.Welcome { return g.welcome }

// Rules returns the rules in force: the Welcome's until the server changes them during the
// match (a RulesChanged, which the Game applies from its next prediction step).
func (g *Game) Rules() netcode.Rules { return g.rules }

// Local returns our own tank's netcode, or nil before the first snapshot.
func (g *Game) Local() *netcode.Local { return g.pred.local }

// Remotes returns the other players' tanks by id. The map belongs to the Game.
func (g *Game) Remotes() map[uint32]*Remote { return g.others.tanks }

// Name returns a player's name, or "" if we have not been told it.
func (g *Game) Name(id uint32) string { return g.others.names[id] }

// Stats returns the Game's counters.
func (g *Game) Stats() Stats {
	st := g.stats.st
	st.SnapshotsLost = g.lanes.arrivals.lost()
	st.HOLStalls = g.lanes.arrivals.stalls
	return st
}

// Link returns what the Game talks to.
func (g *Game) Link() Link { return g.uplink.link }

// SmoothedRTT returns the transport's own round-trip estimate, 0 when the link has no
// transport under it (a recording, a script).
func (g *Game) SmoothedRTT() time.Duration { return statsOf(g.uplink.link).SmoothedRTT() }

// DatagramStats returns how many datagrams the link dropped as bad and for want of room; 0
// when it has no transport under it.
func (g *Game) DatagramStats() (bad, dropped uint64) { return statsOf(g.uplink.link).DatagramStats() }

// SetInputOnArrival asks the server to apply our inputs as they arrive (true) or one per
// tick from its input buffer (false), from the next Update on. On arrival the prediction
// clock returns to its normal rate.
func (g *Game) SetInputOnArrival(on bool) {
	g.pace.setOnArrival(on)
}

// InputReport returns what our newest own state said of our inputs in the server's buffer.
func (g *Game) InputReport() netcode.InputReport { return g.pace.report }

// InputWait returns the median wait of our inputs in the server's buffer over the last two
// seconds of reports; false before there are any.
func (g *Game) InputWait() (time.Duration, bool) { return g.pace.dilation.MedianWait() }

// InputOnArrival reports whether we asked for our inputs on arrival.
func (g *Game) InputOnArrival() bool { return g.pace.onArrival }

// Dilation returns the prediction clock's rate offset (0.05: 5% fast) and how many times it
// has jumped to catch up with the server's input buffer.
func (g *Game) Dilation() (rate float64, resyncs int) {
	return g.pace.dilation.Rate(), g.pace.dilation.Resyncs()
}

// Input returns the input given to the last Update.
func (g *Game) Input() netcode.Input { return g.input }
