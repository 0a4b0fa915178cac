package client

import (
	"sync/atomic"
	"time"

	"tanknet/wire"
)

// A browser hides a tab's timers to once a second and freezes a tab it puts to sleep, so a
// page's Game stops stepping on time whatever it does. Rather than starve the server's input
// buffer (its tank standing by accident, its ticks counted as starved, its clock realigned)
// or fall silent until the server drops it, the Game says so first: Away sends the server an
// Away after our last input and runs no more prediction steps (it still takes what arrives);
// the server holds our tank still and waits longer for us (PROTOCOL.md §6b). Back starts
// the steps again. The server applied nothing while we were away, so the tank is where our
// prediction left it and no correction follows; the prediction clock starts again from the
// next Update's own time (no burst of the missed steps), and the dilation starts afresh, as
// at a join: the server's alignment moved by the ticks we were away, which no report from
// before could account for.

// Neither GoAway nor Back takes the time: what they change does not depend on it, so a
// recording (which keeps, frame by frame, whether the Game was away) replays them exactly.

// away is a Game's away state.
type away struct {
	on   bool // Away was called and Back not since: no prediction steps
	back bool // Back was called and no Update has run since: the next one starts the clock
}

// Away reports whether the Game is away: GoAway was called and Back not since.
func (g *Game) Away() bool { return g.away.on }

// GoAway tells the server we stop sending for a while (a hidden or frozen page), after the
// last input we sent, and stops the prediction steps until Back: Updates still take what
// arrives. Call it between Updates, on the goroutine that calls Update; it does nothing when
// already away, and nothing against a server whose Welcome did not say it takes Away (one
// older than the message, which would end the session for a kind it does not know): such a
// Game carries on, and a hidden page may be dropped for its silence. It returns the error
// of the send (which ends the session).
func (g *Game) GoAway() error {
	if g.away.on || g.welcome.AwayTimeout <= 0 {
		return nil
	}
	g.away.on, g.away.back = true, false
	return g.uplink.link.Send(wire.Away{LastMoveTick: g.pred.lastMove})
}

// Back ends an Away: the next Update starts the prediction clock again from its own time
// (the time away is not caught up) and sends its steps as usual; the server takes the first
// of them as the end of the Away. It does nothing when not away.
func (g *Game) Back() {
	if !g.away.on {
		return
	}
	g.away.on, g.away.back = false, true
	g.pace.dilation.Reset()
}

// replayAway sets the away state a recording's frame says, without sending anything (a
// recording's link takes no messages that matter).
func (g *Game) replayAway(on bool) {
	if on {
		g.away.on, g.away.back = true, false
		return
	}
	g.Back()
}

// sessionAway is what a Session notes of our Aways, so that it does not give the server up
// for a silence that was ours: a frozen page runs no code, and when it thaws its reader may
// wake to a minute of silence before it reads the packets waiting for it.
type sessionAway struct {
	on     atomic.Bool
	backAt atomic.Int64 // UnixNano of the first Move after the newest Away, 0 before one
}

// noteAway notes an Away going out at now, or the first Move after one.
func (s *Session) noteAway(m wire.GameMessage, now time.Time) {
	switch m.(type) {
	case wire.Away:
		s.away.on.Store(true)
	case wire.Move:
		if s.away.on.Swap(false) {
			s.away.backAt.Store(now.UnixNano())
		}
	}
}

// awayGrace reports whether, at now, a silence of the server's is ours to excuse: we are
// away, or came back less than ServerGone ago (the server's packets may still be on their
// way up to us).
func (s *Session) awayGrace(now time.Time) bool {
	if s.away.on.Load() {
		return true
	}
	since, ok := s.sinceBack(now)
	return ok && since < ServerGone
}

// sinceBack returns how long ago the player came back from away (see awayGrace), and false
// while it is away or never was.
func (s *Session) sinceBack(now time.Time) (time.Duration, bool) {
	back := s.away.backAt.Load()
	if s.away.on.Load() || back == 0 {
		return 0, false
	}
	return now.Sub(time.Unix(0, back)), true
}
