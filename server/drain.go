package server

import "sync"

// A drain ends a game gently, as a fleet's orchestrator asks before it stops a server: no
// new player is admitted (a ConnectRequest's Hello gets the shutting-down Reject at once),
// and the players already in play go on until they leave by themselves; each room closes
// as its last player leaves. Drained reports
// when the last one has gone; whoever called Drain decides how long to wait for that before
// cancelling Serve's context, which kicks the rest with "server shutting down".

// drain is the server's drain state. The rooms read started; the last to close closes done.
type drain struct {
	once     sync.Once
	started  chan struct{} // closed by Drain
	done     chan struct{} // closed by finish: draining, the last room has closed
	doneOnce sync.Once
}

func newDrain() drain {
	return drain{started: make(chan struct{}), done: make(chan struct{})}
}

// finish marks the drain done, calling say first, once.
func (d *drain) finish(say func()) {
	d.doneOnce.Do(func() {
		say()
		close(d.done)
	})
}

// Drain stops admitting new players; those in play go on. It may be called at any time,
// before or during Serve, from any goroutine, any number of times.
func (s *Server) Drain() {
	s.drain.once.Do(func() {
		close(s.drain.started) // before the log line, so a reader of the log sees it in force
		s.log.Info("draining: new players are refused; the game goes on until the last one leaves")
	})
}

// Draining reports whether Drain was called.
func (s *Server) Draining() bool {
	select {
	case <-s.drain.started:
		return true
	default:
		return false
	}
}

// Drained is closed once Drain was called and no player is left in the game.
func (s *Server) Drained() <-chan struct{} { return s.drain.done }

// drainedReason is the Reject's reason for a Hello that arrives during a drain.
const drainedReason = "server shutting down: draining, not admitting new players"
