package main

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"tanknet/agones"
	"tanknet/internal/pause"
	"tanknet/server"
)

// AgonesConfig is how tankserver talks to the Agones SDK sidecar when it runs in an
// Agones fleet.
type AgonesConfig struct {
	// SDK is the sidecar's base URL, from AGONES_SDK_HTTP_PORT (agones.URLFromEnv); empty
	// means tankserver is not running under Agones and talks to no sidecar.
	SDK string
	// Health is the health check period Agones applies (the fleet's health.periodSeconds):
	// tankserver pings twice in each period, so one slow or lost ping costs nothing.
	Health time.Duration
	// Timeout bounds each request to the sidecar (the watch stream only while connecting).
	Timeout time.Duration
	// Retry is the pause before trying again a Ready, counter update or watch that failed.
	Retry time.Duration
	// CountEvery is how often the player count is read for the players counter.
	CountEvery time.Duration
	// RoomHold is how long a room an allocation added to the rooms counter is held for
	// the match it was allocated for before a room opens to use it (roomLedger).
	RoomHold time.Duration
}

// DefaultAgonesConfig returns the settings that match deploy/agones/fleet.yaml, with no
// sidecar (SDK empty).
func DefaultAgonesConfig() AgonesConfig {
	return AgonesConfig{
		Health:     5 * time.Second,        // Agones' default health.periodSeconds, as in fleet.yaml
		Timeout:    2 * time.Second,        // a sidecar on the same pod answers in milliseconds
		Retry:      time.Second,            // the sidecar may start after us: try again soon
		CountEvery: 500 * time.Millisecond, // an allocator sees a join within a second
		RoomHold:   time.Minute,            // a matchmaker's players join within seconds
	}
}

// Validate reports the first setting that cannot work.
func (c AgonesConfig) Validate() error {
	if c.Health <= 0 || c.Timeout <= 0 || c.Retry <= 0 || c.CountEvery <= 0 {
		return fmt.Errorf("-agones-health %v: the Agones periods must be positive", c.Health)
	}
	if c.RoomHold <= 0 {
		return fmt.Errorf("-agones-room-hold %v: must be positive", c.RoomHold)
	}
	return nil
}

// The Agones counters tankserver keeps current, as fleet.yaml declares them.
const (
	roomsCounter   = "rooms"   // rooms (matches) open, out of -max-rooms
	playersCounter = "players" // players in them, out of -max-rooms times -max-players
)

// fleetMember is tankserver's side of Agones while the game runs: it marks the server
// Ready, pings Health, keeps the counters current and watches the GameServer, on its own
// goroutines, so a slow or absent sidecar never holds up the game.
type fleetMember struct {
	cfg        AgonesConfig
	sdk        *agones.Client
	log        *slog.Logger
	maxPlayers int        // in every room together
	players    func() int // the server's player count now
	maxRooms   int
	rooms      func() int // the server's open rooms now
	draining   func() bool
	drain      func() // starts the same drain as SIGTERM

	mu     sync.Mutex // guards ledger, which the watch and the counters both use
	ledger roomLedger
}

// joinFleet returns tankserver's fleet member for cfg and srv, which calls drain when Agones
// shuts the server down, or nil when tankserver is not running under Agones (cfg.Agones.SDK
// empty).
func joinFleet(cfg Config, srv *server.Server, drain func()) *fleetMember {
	if cfg.Agones.SDK == "" {
		return nil
	}
	cfg.Server.Logger.Info("running under Agones: talking to its SDK sidecar", "sdk", cfg.Agones.SDK)
	return &fleetMember{
		cfg: cfg.Agones, sdk: agones.New(cfg.Agones.SDK, cfg.Agones.Timeout), log: cfg.Server.Logger,
		maxPlayers: cfg.Server.MaxPlayers * cfg.Server.MaxRooms, players: srv.Players, drain: drain,
		maxRooms: cfg.Server.MaxRooms, rooms: srv.Rooms, draining: srv.Draining,
		ledger: roomLedger{hold: cfg.Agones.RoomHold},
	}
}

// start runs the member's goroutines until ctx ends; wait waits for them.
func (m *fleetMember) start(ctx context.Context) (wait func()) {
	var wg sync.WaitGroup
	for _, f := range []func(context.Context){m.markReady, m.keepHealthy, m.keepCounters, m.watch} {
		wg.Add(1)
		go func() { defer wg.Done(); f(ctx) }()
	}
	return wg.Wait
}

// markReady tells Agones the server takes players, trying until the sidecar accepts it.
func (m *fleetMember) markReady(ctx context.Context) {
	for attempt := 1; ; attempt++ {
		err := m.sdk.Ready(ctx)
		if err == nil {
			m.log.Info("agones: marked ready: the fleet may send players here")
			return
		}
		if ctx.Err() != nil {
			return
		}
		if worthLogging(attempt) {
			m.log.Warn("agones: could not mark the server ready; trying again", "attempt", attempt, "err", err)
		}
		if !pause.For(ctx, m.cfg.Retry) {
			return
		}
	}
}

// keepHealthy pings Health twice per health period, logging when pings start failing and
// when they work again (not every failure).
func (m *fleetMember) keepHealthy(ctx context.Context) {
	failing := false
	m.sdk.KeepHealthy(ctx, m.cfg.Health/2, func(err error) {
		switch {
		case err != nil && !failing:
			m.log.Warn("agones: health pings are failing; the game goes on, Agones may mark it unhealthy", "err", err)
		case err == nil && failing:
			m.log.Info("agones: health pings work again")
		}
		failing = err != nil
	})
}

// setCounters asks for the counters' values now: the rooms the ledger counts and the
// players in play, each out of its capacity, except while the server drains, when each
// capacity is its count, so no allocation finds room here.
func (m *fleetMember) setCounters(counters *agones.CounterSync) {
	m.mu.Lock()
	rooms := m.ledger.count(time.Now(), m.rooms(), m.maxRooms)
	m.mu.Unlock()
	players := int64(m.players())
	roomCap, playerCap := int64(m.maxRooms), int64(m.maxPlayers)
	if m.draining() {
		roomCap, playerCap = rooms, players
	}
	counters.Set(roomsCounter, rooms, roomCap)
	counters.Set(playersCounter, players, playerCap)
}

// keepCounters follows the open rooms and the player count, sending only changes.
func (m *fleetMember) keepCounters(ctx context.Context) {
	counters := m.sdk.NewCounterSync()
	m.setCounters(counters)
	done := make(chan struct{})
	go func() {
		defer close(done)
		failing := false
		counters.Run(ctx, m.cfg.Retry, func(c agones.Counter, err error) {
			switch {
			case err != nil && !failing:
				m.log.Warn("agones: could not update a counter; will try again", "counter", c.Name, "count", c.Count, "err", err)
			case err == nil:
				m.log.Debug("agones: counter updated", "counter", c.Name, "count", c.Count, "capacity", c.Capacity)
				if failing {
					m.log.Info("agones: counters update again")
				}
			}
			failing = err != nil
		})
	}()
	defer func() { <-done }()
	tick := time.NewTicker(m.cfg.CountEvery)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			m.setCounters(counters)
		}
	}
}

// watch follows the GameServer: it logs each change of state and starts the drain when
// Agones says Shutdown. A broken stream is opened again after a pause.
func (m *fleetMember) watch(ctx context.Context) {
	state := ""
	onChange := func(gs agones.GameServer) {
		if c, ok := gs.Status.Counter(roomsCounter); ok {
			m.mu.Lock()
			m.ledger.seen(time.Now(), c.Count)
			m.mu.Unlock()
		}
		if gs.Status.State == state {
			return
		}
		state = gs.Status.State
		if len(state) > 64 { // the sidecar's answer is untrusted: no state is this long
			state = state[:64] + "..."
		}
		switch state {
		case agones.StateAllocated:
			m.log.Info("agones: allocated: a match has been given this server", "gameserver", gs.ObjectMeta.Name)
		case agones.StateShutdown:
			m.log.Info("agones: the game server is shutting down; draining as on SIGTERM", "gameserver", gs.ObjectMeta.Name)
			m.drain()
		default:
			m.log.Info("agones: the game server's state changed", "state", state, "gameserver", gs.ObjectMeta.Name)
		}
	}
	for attempt := 1; ; attempt++ {
		heard := false
		err := m.sdk.Watch(ctx, func(gs agones.GameServer) { heard = true; onChange(gs) })
		if ctx.Err() != nil {
			return
		}
		if heard { // the stream worked for a while: this is a new run of failures
			attempt = 1
		}
		if worthLogging(attempt) {
			m.log.Warn("agones: lost the game server's watch stream (or never had it); watching again", "attempt", attempt, "err", err)
		}
		if !pause.For(ctx, m.cfg.Retry) {
			return
		}
	}
}

// shutdown tells Agones this server is done, after the game has stopped.
func (m *fleetMember) shutdown() {
	if err := m.sdk.Shutdown(context.Background()); err != nil {
		m.log.Error("agones: could not tell Agones the server is done; exiting anyway", "err", err)
		return
	}
	m.log.Info("agones: told Agones the server is done")
}

// worthLogging says whether the attempt-th failure in a row gets a log line: the first
// few, then one in ten, so a sidecar that never comes fills no disk.
func worthLogging(attempt int) bool { return attempt <= 3 || attempt%10 == 0 }
