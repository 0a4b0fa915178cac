package server

import (
	"testing"
	"time"

	"tanknet/netcode"
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

// An Away the world finds out of date (it names a move tick below one the world already
// has) is ignored whole: the tank is not held, and the session keeps its usual limits, so a
// client that then falls silent is dropped after the idle timeout, not the away timeout.
func TestGame_OutOfDateAwayIsIgnored(t *testing.T) {
	w := newTestWorld(t, nil)
	p, fp := mustJoin(t, w, 0, "ada")
	fp.inputs = append(fp.inputs, steps(1, 3, netcode.Input{Throttle: 1}, 50*time.Millisecond)...)
	fp.copies = append(fp.copies, steps(4, 1, netcode.Input{Throttle: 1}, 50*time.Millisecond)...) // overtook the stream
	w.step(time.Second)
	fp.away, fp.awaySent = 2, true
	w.step(time.Second + 50*time.Millisecond)
	if p.tank.Away() || fp.awaysIgnored != 1 {
		t.Errorf("an Away naming tick 2 after tick 4 arrived: tank away %v, Aways ignored %d; want not away, 1 ignored", p.tank.Away(), fp.awaysIgnored)
	}
	fp.away, fp.awaySent = 4, true // current: it takes
	w.step(time.Second + 100*time.Millisecond)
	if !p.tank.Away() || fp.awaysIgnored != 1 {
		t.Errorf("an Away naming the newest tick: tank away %v, Aways ignored %d; want away, still 1 ignored", p.tank.Away(), fp.awaysIgnored)
	}
}

// The session's side of an ignored Away: its limits go back to the usual ones, unless a
// newer Away came in the meantime (the next tick judges that one).
func TestSession_IgnoredAwayRestoresLimits(t *testing.T) {
	cfg := DefaultConfig()
	s := newSession(nil, &cfg, new(counters), newServerClock(time.Now()))
	s.pushAway(2)
	s.takeAway()
	s.awayIgnored()
	if idle, ack := s.limits(&cfg); idle != cfg.IdleTimeout || ack != cfg.AckTimeout {
		t.Errorf("after an ignored Away: idle %v, ack %v; want the usual %v, %v", idle, ack, cfg.IdleTimeout, cfg.AckTimeout)
	}
	s.pushAway(2)
	s.takeAway()
	s.pushAway(9) // arrives before the room judged the first
	s.awayIgnored()
	if idle, _ := s.limits(&cfg); idle != cfg.AwayTimeout {
		t.Errorf("a newer Away waiting: idle %v, want the away timeout %v", idle, cfg.AwayTimeout)
	}
}

// Back from an Away, the session's usual limits return with the first MoveInput on the
// stream above the Away's tick and every earlier one's (PROTOCOL.md §6b.4), even when its
// datagram copy came first; a stale one (a tick the server already had) changes nothing.
func TestSession_OnlyAFreshStreamInputEndsTheAway(t *testing.T) {
	cfg := DefaultConfig()
	s := newSession(nil, &cfg, new(counters), newServerClock(time.Now()))
	move := func(tick uint32) {
		t.Helper()
		if !s.pushInput(netcode.PendingInput{Tick: tick, Duration: netcode.StepInterval}) {
			t.Fatalf("input %d refused", tick)
		}
	}
	for tick := uint32(1); tick <= 9; tick++ {
		move(tick)
	}
	s.pushAway(7) // names a tick below the stream's newest: the game judges that, not this
	for _, stale := range []uint32{3, 7, 9} {
		move(stale)
		if idle, _ := s.limits(&cfg); idle != cfg.AwayTimeout {
			t.Fatalf("after a stale MoveInput %d: idle %v, want the away timeout %v still", stale, idle, cfg.AwayTimeout)
		}
	}
	move(10)
	if idle, ack := s.limits(&cfg); idle != cfg.IdleTimeout || ack != cfg.AckTimeout {
		t.Errorf("after MoveInput 10: idle %v, ack %v; want the usual %v, %v", idle, ack, cfg.IdleTimeout, cfg.AckTimeout)
	}
	s.pushAway(10)
	s.copies = append(s.copies, netcode.PendingInput{Tick: 11}) // the copy overtook the stream
	move(11)
	if idle, _ := s.limits(&cfg); idle != cfg.IdleTimeout {
		t.Errorf("after MoveInput 11, its copy first: idle %v, want the usual %v", idle, cfg.IdleTimeout)
	}
}
