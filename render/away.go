package render

import (
	"sync"
	"sync/atomic"
)

// AwaySwitch is how a browser page tells its live window that the tab is hidden or about
// to be frozen, and when it is back: the pane's Game then goes away (client.Game.GoAway:
// the server holds its tank still and waits for it, PROTOCOL.md §6b) and comes back. A
// hidden tab draws no frames and runs its timers about once a second, so Set does not wait
// for either: it applies the change at once when the pane's runner is not in the middle of
// an Update, and otherwise wakes the runner, whose next Update applies it. Safe from any
// goroutine; the zero value is ready to use.
type AwaySwitch struct {
	on    atomic.Bool
	mu    sync.Mutex
	apply func() // set by the live window once its pane runs; nil before
}

// Set says whether the page is away now.
func (s *AwaySwitch) Set(away bool) {
	s.on.Store(away)
	s.mu.Lock()
	apply := s.apply
	s.mu.Unlock()
	if apply != nil {
		apply()
	}
}

// Away reports what Set said last.
func (s *AwaySwitch) Away() bool { return s != nil && s.on.Load() }

// follow makes Set call apply from now on.
func (s *AwaySwitch) follow(apply func()) {
	s.mu.Lock()
	s.apply = apply
	s.mu.Unlock()
}

// syncAway brings p's Game in line with its switch: away when the page is, back when it is
// not. The caller holds the Game (the runner's lock, or the frame loop without a runner).
func (p *clientPane) syncAway() error {
	if p.away == nil {
		return nil
	}
	switch want := p.away.Away(); {
	case want && !p.game.Away():
		return p.game.GoAway()
	case !want && p.game.Away():
		p.game.Back()
	}
	return nil
}

// followAway has p's switch apply itself to p's Game between Updates: under the runner's
// lock when it is free, or else at the runner's next Update, which a wake brings forward.
func (l *live) followAway(p *clientPane) {
	if p.away == nil || p.runner == nil {
		return
	}
	p.away.follow(func() {
		if !p.runner.TryLock() {
			p.runner.Wake()
			return
		}
		defer p.runner.Unlock()
		if err := p.syncAway(); err != nil {
			p.runner.Wake() // the send failed: the next Update meets the session's end
		}
	})
}
