package server

import (
	"testing"
	"time"

	"tanknet/transport"
)

// While away, a session's limits are the away timeout's: how long it may be silent, leave
// our data unacknowledged, and hold one stream write blocked (a frozen page acknowledges
// nothing, so its window fills) before it is dropped. Back, they are the usual ones again.
func TestSession_AwayLimits(t *testing.T) {
	cfg := DefaultConfig()
	cfg.AwayTimeout = 90 * time.Second
	s := newSession(nil, &cfg, new(counters), newServerClock(time.Now()))
	idle, ack := s.limits(&cfg)
	if idle != cfg.IdleTimeout || ack != cfg.AckTimeout || s.writeTimeout() != transport.WriteTimeout {
		t.Errorf("present: idle %v, ack %v, write %v; want %v, %v, %v", idle, ack, s.writeTimeout(), cfg.IdleTimeout, cfg.AckTimeout, transport.WriteTimeout)
	}
	s.pushAway(7)
	idle, ack = s.limits(&cfg)
	if idle != cfg.AwayTimeout || ack != cfg.AwayTimeout || s.writeTimeout() != cfg.AwayTimeout {
		t.Errorf("away: idle %v, ack %v, write %v; want the away timeout %v for each", idle, ack, s.writeTimeout(), cfg.AwayTimeout)
	}
	cfg.AwayTimeout = time.Second // shorter than the usual limits: those still hold
	s = newSession(nil, &cfg, new(counters), newServerClock(time.Now()))
	s.pushAway(7)
	if idle, ack = s.limits(&cfg); idle != time.Second || ack != cfg.AckTimeout || s.writeTimeout() != transport.WriteTimeout {
		t.Errorf("away with a 1 s away timeout: idle %v, ack %v, write %v; want 1s, %v, %v", idle, ack, s.writeTimeout(), cfg.AckTimeout, transport.WriteTimeout)
	}
}
