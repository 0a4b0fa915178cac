package client

import (
	"time"

	"tanknet/netcode"
	"tanknet/wire"
)

// pingEvery is how often a Game measures the round trip with Ping: often enough for a live
// graph, rare enough to be noise in the bandwidth.
const pingEvery = 500 * time.Millisecond

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

// Remote is another player's tank as this client sees it.
type Remote struct {
	ID     uint32
	Name   string
	Interp *netcode.Interpolator
	// Pose is where to draw the tank this frame, sampled by the last Update; Bracketed is
	// false when no pair of snapshots surrounded the render time (a hold).
	Pose      netcode.Pose
	Bracketed bool
	// Combat is the tank's health and score in the newest snapshot.
	Combat wire.Combat
	alive  aliveAt
	lastAt time.Duration // local time its newest state arrived
}

// Game is a playing client: the session plus the netcode state for every tank. One
// goroutine calls Update once per frame and reads the rest between Updates.
type Game struct {
	link    Link // where the server's messages come from and ours go (link.go)
	welcome wire.Welcome
	rules   netcode.Rules // the rules in force: the Welcome's, or the newest RulesChanged's
	opts    Options
	epoch   time.Time // local time zero for netcode's durations
	last    time.Time // previous Update
	started bool
	input   netcode.Input // given to the last Update
	recv    []Received    // scratch: the messages drained this Update
	rec     *recorder     // keeps every frame's inputs when recording (record.go)
	network string        // how the window describes the link (NoteNetwork), for recordings

	prediction
	others
	lanes
	combat
	statistics
}

// prediction is our own tank: its prediction, the inputs sent, and the clock that keeps
// them just in time for the server's input buffer.
type prediction struct {
	local  *netcode.Local         // nil until the first snapshot that contains us
	recent []netcode.PendingInput // the newest inputs sent, for InputBatch (datagram lane)
	batch  []netcode.PendingInput // scratch: the inputs of the next InputBatch
	// pushAgainst is scratch: the other tanks our contact pushes answer (contact.go).
	pushAgainst []netcode.Reach
	lastMove    uint32 // newest move tick sent
	// The server's input buffer (netcode.Dilation): the clock's rate, whether we asked for
	// our inputs on arrival instead, and whether the server has been told.
	dilation  *netcode.Dilation
	onArrival bool
	modeSent  bool
	report    netcode.InputReport // the newest report of our inputs in the buffer
}

// others are the other tanks, interpolated between the states the server sent of them.
type others struct {
	remotes map[uint32]*Remote
	// serverClock is the server timeline's clock of our link, shared by every remote's
	// interpolator; nil on the receive timeline.
	serverClock *netcode.ServerClock
	names       map[uint32]string
	seen        map[uint32]bool
}

// lanes is what arrives and how: snapshot chunks and their gaps (redundancy.go), and the
// recent snapshots delta chunks build on.
type lanes struct {
	arrivals arrivals
	bases    wire.Baselines
	lastPing time.Time
}

// combat is our tank's fight (combat.go): its health, our shots and their answers.
type combat struct {
	own         wire.Combat // our tank's health and score, from our newest state
	ownTick     uint32      // server tick of own
	lastShot    uint32      // move tick of our newest shot
	wantFire    bool        // Fire was called since the last Update
	wantLagComp bool
	targets     []netcode.Target
	shots       ShotStats
	pending     []Shot // fired, not yet answered, oldest first
	last1       Shot   // the newest shot, with its answer once it came
	tracers     []Tracer
	kills       []KillNote
	rewinds     []float64
}

// statistics are the counts Stats and Report give.
type statistics struct {
	stats    Stats
	departed []netcode.InterpCounters // counters of remotes that left, for reports
}

// Stats counts what a Game has sent and received.
type Stats struct {
	InputsSent   int
	Snapshots    int
	LastAck      uint32 // acknowledged_move_tick in our newest state
	ServerTick   uint32 // newest snapshot's tick
	PlayersSeen  int    // distinct players ever seen in a snapshot, us included
	RulesChanges int    // RulesChanged messages received: the room's rules changed during the match
	RTT          time.Duration
	RTTSamples   int

	Lane          wire.Lane // where the server sends snapshots (Welcome)
	Chunks        int       // snapshot chunks used (datagram lane; a whole snapshot counts one)
	SnapshotsLost int       // server ticks of which no chunk came (the last 0.5 s excepted)
	UnknownStates int       // states of players the roster has not announced, skipped
	HOLStalls     int       // head-of-line stalls detected (reliable lane only)
	// Interest management: remote tanks forgotten because the server said they left our
	// view (or said nothing of them for forgetAfter), and tanks that came back after a gap
	// of at least reenterGap ticks, drawn at once where they are.
	LeftView, Reentered int
	// DeltaUnusable counts snapshot chunks whose delta tanks could not all be rebuilt: their
	// baseline was lost or too old (the server only uses acknowledged ones, so this stays 0
	// unless the server misbehaves or a chunk is corrupt).
	DeltaUnusable int
}

// Interest management on the client. The server sends only the tanks near ours and names
// the ones that left (Snapshot.left_view); a tank it names, or stops sending, is forgotten,
// and one that comes back is new: its interpolation starts afresh, so it is drawn where it
// is at once instead of sliding from where it was last seen.
const (
	// reenterGap is the smallest gap in a remote's server ticks that counts as leaving and
	// coming back: leaving and re-entering the view takes 0.4 s (8 ticks) at the least,
	// while loss alone seldom swallows 8 ticks in a row.
	reenterGap = 8
	// forgetAfter drops a remote the server has said nothing of for this long, in case every
	// repeat of its left_view was lost: longer than any stall on the stream we see.
	forgetAfter = 2 * time.Second
)

// NewGame returns a Game on link (an established Session, or any other Link). now is the
// local time to count from.
func NewGame(link Link, opts Options, now time.Time) *Game {
	g := &Game{
		link:    link,
		welcome: link.Welcome(),
		rules:   link.Welcome().Rules,
		opts:    opts,
		epoch:   now,
		last:    now,
		others:  others{remotes: map[uint32]*Remote{}, names: map[uint32]string{}, seen: map[uint32]bool{}},
		prediction: prediction{
			dilation:  netcode.NewDilation(opts.Dilation),
			onArrival: opts.InputOnArrival,
			modeSent:  !opts.InputOnArrival, // the buffer is what a server does unasked
		},
	}
	if opts.Interp.Timeline == netcode.ServerTimeline {
		g.serverClock = netcode.NewServerClock(opts.Interp)
	}
	g.stats.Lane = g.welcome.Lane
	g.arrivals.detectHOL = g.welcome.Lane == wire.LaneReliable
	return g
}

// Update runs one frame at local time now: it applies what the server sent, runs the due
// prediction steps with input in and sends them. It returns the error that ended the session,
// if it has ended.
func (g *Game) Update(now time.Time, in netcode.Input) error {
	frame := now.Sub(g.last)
	g.last = now
	var err error
	g.recv, err = g.link.Drain(g.recv[:0])
	if g.rec != nil {
		g.rec.record(now, in, g.wantFire, g.wantLagComp, g.onArrival, g.recv, err, g.network)
	}
	for i := range g.recv {
		g.receive(g.recv[i])
		g.recv[i] = Received{}
	}
	if err != nil {
		return err
	}
	if g.own.Destroyed {
		in = netcode.Input{} // the server applies a wreck's inputs as zero: predict and draw that
	}
	if !g.modeSent {
		if err := g.link.Send(wire.InputMode{OnArrival: g.onArrival}); err != nil {
			return err
		}
		g.modeSent = true
	}
	if g.local != nil {
		sent := false
		others := g.contactOthers()
		dropped := g.local.Counters().DroppedSteps
		n := g.local.Advance(g.dilation.Stretch(frame))
		g.dilation.Dropped(g.local.Counters().DroppedSteps - dropped)
		for ; n > 0; n-- {
			p := g.local.PredictAmong(in, others)
			g.dilation.Sent(p.Tick)
			if err := g.link.Send(wire.Move(p)); err != nil {
				return err
			}
			g.lastMove = p.Tick
			g.stats.InputsSent++
			g.remember(p)
			sent = true
		}
		if sent && g.welcome.Lane == wire.LaneDatagram {
			if err := g.sendBatch(); err != nil {
				return err
			}
		}
		g.local.Present(in) // the partial step: drawn with the input held now, never sent
	}
	g.input = in
	for id, rm := range g.remotes {
		if g.Now()-rm.lastAt > forgetAfter {
			g.forget(id) // out of view, and every notice of it lost
			g.stats.LeftView++
			continue
		}
		rm.Pose, rm.Bracketed = rm.Interp.Sample(g.Now())
	}
	if g.wantFire {
		g.wantFire = false
		if _, err := g.fire(g.wantLagComp); err != nil {
			return err
		}
	}
	if now.Sub(g.lastPing) >= pingEvery {
		g.lastPing = now
		if err := g.link.Send(wire.Ping{ClientTimeUs: uint64(now.Sub(g.epoch) / time.Microsecond)}); err != nil {
			return err
		}
	}
	return nil
}

// receive applies one server message.
func (g *Game) receive(r Received) {
	at := r.At.Sub(g.epoch)
	switch m := r.Msg.(type) {
	case *wire.Snapshot:
		g.receiveSnapshot(at, m, r.Datagram)
	case wire.Roster:
		for _, j := range m.Joined { // joins first: one may also be in left
			g.names[j.ID] = j.Name
			if rm := g.remotes[j.ID]; rm != nil {
				rm.Name = j.Name
			}
		}
		for _, l := range m.Left {
			g.forget(l.ID)
			delete(g.names, l.ID)
		}
	case wire.ShotResult:
		g.receiveShotResult(netcode.ShotResult(m))
	case wire.Shot:
		g.receiveShot(at, netcode.Shot(m))
	case wire.Kill:
		g.receiveKill(at, netcode.Kill(m))
	case wire.RulesChanged:
		g.rules = m.Rules // our next prediction step plays by them (contactOthers)
		g.stats.RulesChanges++
	case wire.Pong:
		sent := time.Duration(m.ClientTimeUs) * time.Microsecond
		if rtt := at - sent; rtt >= 0 {
			g.stats.RTT = rtt
			g.stats.RTTSamples++
		}
	}
}

// receiveSnapshot applies a whole snapshot or one chunk of one, which arrived at local time
// at (on the datagram lane when datagram).
func (g *Game) receiveSnapshot(at time.Duration, snap *wire.Snapshot, datagram bool) {
	if !g.arrivals.chunk(at, snap.Tick, snap.Index, snap.Count) {
		return // a duplicate chunk, or one too old to draw
	}
	g.stats.Chunks++
	if snap.Index == 0 {
		g.stats.Snapshots++
	}
	g.stats.ServerTick = max(g.stats.ServerTick, snap.Tick)
	for _, id := range snap.Left {
		g.leftView(id, snap.Tick)
	}
	deltas := g.welcome.Lane == wire.LaneDatagram // only the datagram lane sends deltas to build on
	use := func(t wire.Tank) {
		if deltas {
			g.bases.Record(snap.Tick, t)
		}
		if datagram && g.names[t.ID] == "" && t.ID != g.welcome.PlayerID {
			// The roster comes on the stream and may trail a datagram: a tank the
			// roster has not announced (or has already removed) waits for it.
			g.stats.UnknownStates++
			return
		}
		g.receiveState(at, snap.Tick, t)
	}
	if !g.bases.Tanks(snap, use) {
		// Never acknowledge this tick: the server would build on states we lack.
		g.arrivals.spoil(snap.Tick)
		g.stats.DeltaUnusable++
	}
}

// receiveState applies what the snapshot of tick says of tank t.
func (g *Game) receiveState(at time.Duration, tick uint32, t wire.Tank) {
	id := t.ID
	if !g.seen[id] {
		g.seen[id] = true
		g.stats.PlayersSeen = len(g.seen)
	}
	st := t.State(tick)
	if id == g.welcome.PlayerID {
		if g.local == nil {
			lc := g.opts.Local // a server with a longer input lead than the default needs more kept
			lc.MaxPending = max(lc.MaxPending, int(g.welcome.MaxInputLead)+netcode.AckReturnSteps)
			g.local = netcode.NewLocal(&g.welcome.Arena, lc, st)
		} else {
			g.local.Reconcile(st)
		}
		g.stats.LastAck = max(g.stats.LastAck, st.Ack)
		if st.Tick > g.ownTick {
			g.own, g.ownTick = t.Combat, st.Tick
			g.report = t.Input
			if !g.onArrival {
				g.dilation.Observe(g.report, st.Tick, st.Ack)
			}
		}
		return
	}
	rm := g.remotes[id]
	if rm != nil {
		if newest, ok := rm.Interp.Newest(); ok && st.Tick >= newest.Tick+reenterGap {
			g.forget(id) // back after leaving our view: start afresh, no slide
			rm = nil
			g.stats.Reentered++
		}
	}
	if rm == nil {
		rm = &Remote{ID: id, Name: g.names[id], Interp: g.newInterpolator()}
		g.remotes[id] = rm
	}
	rm.alive.record(st.Tick, !t.Combat.Destroyed)
	if rm.Interp.Push(at, st) {
		rm.Combat = t.Combat
		rm.lastAt = at
	}
}

// newInterpolator returns the interpolator for a tank coming into view: on the server
// timeline one on the link's clock, so it starts at the delay the link has shown.
func (g *Game) newInterpolator() *netcode.Interpolator {
	if g.serverClock != nil {
		return g.serverClock.NewInterpolator()
	}
	return netcode.NewInterpolator(g.opts.Interp)
}

// leftView forgets remote id, which left our view at server tick tick, unless a newer state
// of it has come since (it is back).
func (g *Game) leftView(id, tick uint32) {
	rm := g.remotes[id]
	if rm == nil {
		return
	}
	if newest, ok := rm.Interp.Newest(); ok && newest.Tick >= tick {
		return
	}
	g.forget(id)
	g.stats.LeftView++
}

// forget stops drawing remote id, keeping its interpolation counters for the report.
func (g *Game) forget(id uint32) {
	if rm := g.remotes[id]; rm != nil {
		g.departed = append(g.departed, rm.Interp.Counters())
		delete(g.remotes, id)
	}
}

// Now returns the local time of the last Update on netcode's timeline.
func (g *Game) Now() time.Duration { return g.last.Sub(g.epoch) }

// Welcome returns what the server said when we joined.
func (g *Game) Welcome() wire.Welcome { return g.welcome }

// Rules returns the rules in force: the Welcome's until the server changes them during the
// match (a RulesChanged, which the Game applies from its next prediction step).
func (g *Game) Rules() netcode.Rules { return g.rules }

// Local returns our own tank's netcode, or nil before the first snapshot.
func (g *Game) Local() *netcode.Local { return g.local }

// Remotes returns the other players' tanks by id. The map belongs to the Game.
func (g *Game) Remotes() map[uint32]*Remote { return g.remotes }

// Name returns a player's name, or "" if we have not been told it.
func (g *Game) Name(id uint32) string { return g.names[id] }

// Stats returns the Game's counters.
func (g *Game) Stats() Stats {
	st := g.stats
	st.SnapshotsLost = g.arrivals.lost()
	st.HOLStalls = g.arrivals.stalls
	return st
}

// Link returns what the Game talks to.
func (g *Game) Link() Link { return g.link }

// SmoothedRTT returns the transport's own round-trip estimate, 0 when the link has no
// transport under it (a recording, a script).
func (g *Game) SmoothedRTT() time.Duration { return statsOf(g.link).SmoothedRTT() }

// DatagramStats returns how many datagrams the link dropped as bad and for want of room; 0
// when it has no transport under it.
func (g *Game) DatagramStats() (bad, dropped uint64) { return statsOf(g.link).DatagramStats() }

// SetInputOnArrival asks the server to apply our inputs as they arrive (true) or one per
// tick from its input buffer (false), from the next Update on. On arrival the prediction
// clock returns to its normal rate.
func (g *Game) SetInputOnArrival(on bool) {
	if on != g.onArrival {
		g.onArrival, g.modeSent = on, false
		g.dilation.Reset()
	}
}

// InputReport returns what our newest own state said of our inputs in the server's buffer.
func (g *Game) InputReport() netcode.InputReport { return g.report }

// InputWait returns the median wait of our inputs in the server's buffer over the last two
// seconds of reports; false before there are any.
func (g *Game) InputWait() (time.Duration, bool) { return g.dilation.MedianWait() }

// InputOnArrival reports whether we asked for our inputs on arrival.
func (g *Game) InputOnArrival() bool { return g.onArrival }

// Dilation returns the prediction clock's rate offset (0.05: 5% fast) and how many times it
// has jumped to catch up with the server's input buffer.
func (g *Game) Dilation() (rate float64, resyncs int) {
	return g.dilation.Rate(), g.dilation.Resyncs()
}
