package server

import (
	"testing"
	"time"

	"tanknet/netcode"
)

func TestHeartbeat_NoticesAPause(t *testing.T) {
	var h heartbeat
	t0 := time.Unix(1000, 0)
	h.note(t0)
	h.note(t0.Add(heartbeatEvery))
	if h.pausedRecently(t0.Add(heartbeatEvery), 5*time.Second) {
		t.Fatal("paused after two notes on time")
	}
	late := t0.Add(8 * time.Second) // stopped for ~8 s
	if !h.pausedRecently(late, 5*time.Second) {
		t.Error("not paused with the heartbeat 8 s overdue (before it ran again)")
	}
	at := late
	for ; at.Before(late.Add(4 * time.Second)); at = at.Add(heartbeatEvery) {
		h.note(at)
	}
	if !h.pausedRecently(at, 5*time.Second) {
		t.Error("not paused 4 s after resuming, want the grace of 5 s")
	}
	for ; at.Before(late.Add(6 * time.Second)); at = at.Add(heartbeatEvery) {
		h.note(at)
	}
	if h.pausedRecently(at, 5*time.Second) {
		t.Error("still paused 6 s after resuming with a grace of 5 s")
	}
}

// TestWorld_PausedServerOwesTheLead: a server whose ticks stopped for 7 s accepts the 140
// inputs its honest client sent meanwhile (beyond the configured lead of 120), owes them
// for the idle timeout after it runs again, and stops owing them once it has run on time
// long enough.
func TestWorld_PausedServerOwesTheLead(t *testing.T) {
	w := newTestWorld(t, nil)
	p, fp := mustJoin(t, w, 0, "patient")
	now := time.Duration(0)
	tick := uint32(0)
	send := func(n int) {
		for range n {
			tick++
			fp.inputs = append(fp.inputs, netcode.PendingInput{Tick: tick, Input: netcode.Input{Throttle: 1}, Duration: netcode.StepInterval})
		}
	}
	for range 20 {
		send(1)
		now += netcode.StepInterval
		w.world.Owe(netcode.StepInterval, w.cfg.IdleTimeout)
		w.step(now)
	}
	send(140) // the pause's inputs, all at once
	now += 7 * time.Second
	w.world.Owe(7*time.Second, w.cfg.IdleTimeout)
	w.step(now)
	if fp.kicked != "" {
		t.Fatalf("kicked after the server's own pause: %q", fp.kicked)
	}
	// The grace holds for the idle timeout, the time a player silent across the pause has to
	// speak again (with its whole backlog, pause and all).
	for range int(w.cfg.IdleTimeout/netcode.StepInterval) - 1 {
		now += netcode.StepInterval
		w.world.Owe(netcode.StepInterval, w.cfg.IdleTimeout)
		send(1)
		w.step(now)
	}
	if w.world.LeadGrace() < 139 {
		t.Errorf("lead grace %d just before the idle timeout's grace ends, want the pause's 139 ticks still owed", w.world.LeadGrace())
	}
	for range 400 {
		now += netcode.StepInterval
		w.world.Owe(netcode.StepInterval, w.cfg.IdleTimeout)
		w.step(now)
	}
	if p.tank.Ack() != tick {
		t.Errorf("ack %d, want every input (%d) applied after the pause", p.tank.Ack(), tick)
	}
	if w.world.LeadGrace() != 0 {
		t.Errorf("lead grace %d after 20 s on time, want 0", w.world.LeadGrace())
	}
}
