package main

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"tanknet/client"
)

// botPool runs the demo's gunner bots against its server, each in its own goroutine on its
// own socket, and adds or removes one at a time (render.Bots). The window's goroutine calls
// Add, Remove and Count; stop ends them all and waits.
type botPool struct {
	ctx    context.Context
	addr   string
	skill  client.Skill
	opts   client.Options
	logger *slog.Logger
	// frame is each bot's update period (client.BotConfig.Frame); 0: 60 a second.
	frame time.Duration
	clock *client.Clock // the demo's game time, which slow motion slows
	hold  atomic.Bool   // the bots hold their fire (render.Bots.HoldFire)

	mu      sync.Mutex
	cancels []context.CancelFunc // one per running bot, oldest first
	started int                  // bots ever started: names and seeds
	wg      sync.WaitGroup
}

// maxDemoBots bounds the bots the demo runs: the server seats 16 players
// (server.DefaultConfig), and the near and far players take two seats.
const maxDemoBots = 14

// Add starts one more bot, unless maxDemoBots are playing.
func (b *botPool) Add() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.cancels) >= maxDemoBots || b.ctx.Err() != nil {
		return
	}
	ctx, cancel := context.WithCancel(b.ctx)
	b.cancels = append(b.cancels, cancel)
	b.started++
	cfg := client.BotConfig{Addr: b.addr, Name: fmt.Sprintf("bot%d", b.started), Seed: uint64(b.started),
		Options: b.opts, Fire: true, LagComp: true, Skill: b.skill, Frame: b.frame, Clock: b.clock, HoldFire: b.hold.Load}
	b.wg.Add(1)
	go func() {
		defer b.wg.Done()
		if _, err := client.RunBot(ctx, cfg); err != nil && ctx.Err() == nil {
			b.logger.Warn("demo bot stopped", "bot", cfg.Name, "err", err)
		}
	}()
}

// Remove stops the newest bot, if any.
func (b *botPool) Remove() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if n := len(b.cancels); n > 0 {
		b.cancels[n-1]()
		b.cancels = b.cancels[:n-1]
	}
}

// Count returns how many bots are playing (or joining).
func (b *botPool) Count() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.cancels)
}

// HoldFire stops (true) or lets (false) every bot fire and steer at other tanks.
func (b *botPool) HoldFire(hold bool) { b.hold.Store(hold) }

// stop stops every bot and waits for their goodbyes.
func (b *botPool) stop() {
	b.mu.Lock()
	for _, c := range b.cancels {
		c()
	}
	b.cancels = nil
	b.mu.Unlock()
	b.wg.Wait()
}
