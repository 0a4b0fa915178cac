package server

import "time"

// A player whose browser tab is hidden or frozen stops sending, and says so first with an
// Away on the stream (PROTOCOL.md §6b). The world then holds its tank still without
// counting its ticks as starved (world/away.go); the session waits for it Config.AwayTimeout
// of silence instead of IdleTimeout, and leaves our reliable data unacknowledged that long
// too (a frozen page runs no code at all, so it acknowledges nothing). Snapshots go on as
// usual: on the datagram lane nothing waits for them; on the stream only the newest waits
// (latest-wins), so an away client costs the server what a present one does, and the first
// snapshot it reads when it comes back is a current one. Its next MoveInput ends it. An Away
// the world finds out of date (a later input of the player's is already there) is ignored
// by the session too: its limits stay the usual ones.

// pushAway is called by the reader goroutine with an Away's last move tick.
func (s *session) pushAway(lastMoveTick uint32) {
	s.inMu.Lock()
	s.awayAt, s.awayNew = lastMoveTick, true
	s.awayFrom = max(s.streamNewest, lastMoveTick)
	s.inMu.Unlock()
	s.away.Store(true)
}

// takeAway returns the newest Away's last move tick since the last call; false if none came.
func (s *session) takeAway() (uint32, bool) {
	s.inMu.Lock()
	defer s.inMu.Unlock()
	last, ok := s.awayAt, s.awayNew
	s.awayNew = false
	return last, ok
}

// awayIgnored is called by the room when the world found the Away takeAway returned out of
// date: the session is not away, unless another Away has come since (the next tick takes
// that one).
func (s *session) awayIgnored() {
	s.inMu.Lock()
	defer s.inMu.Unlock()
	if !s.awayNew {
		s.away.Store(false)
	}
}

// limits returns how long the client may stay silent, and leave our data unacknowledged,
// before it is dropped: longer while it is away.
func (s *session) limits(cfg *Config) (idle, ack time.Duration) {
	if s.away.Load() {
		return cfg.AwayTimeout, max(cfg.AckTimeout, cfg.AwayTimeout)
	}
	return cfg.IdleTimeout, cfg.AckTimeout
}
