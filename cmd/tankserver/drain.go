package main

import (
	"context"
	"log/slog"
	"os"
	"time"
)

// drainer is what stopOnSignals needs of the server (server.Server has it).
type drainer interface {
	Drain()
	Drained() <-chan struct{}
}

// stopOnSignals returns a context for Serve that ends the game on signals. With drain 0 the
// first signal ends it at once, as before. With drain > 0 the first signal starts a drain:
// new players are refused while those in play go on, and the context ends when the last one
// has left, when drain has passed, or at a second signal, whichever comes first (Serve then
// disconnects whoever is left, with the reason). drainNow, if not nil, starts the same drain
// without a signal (an orchestrator's shutdown); the SIGTERM that usually follows it (the
// orchestrator deleting the pod) is then the first signal, not the second, and the drain
// goes on. Cancel the returned func to stop watching.
func stopOnSignals(parent context.Context, srv drainer, drain time.Duration, signals <-chan os.Signal, drainNow <-chan struct{}, log *slog.Logger) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(parent)
	go func() {
		defer cancel()
		signalled := false // a signal has started the drain: the next one stops at once
		select {
		case <-ctx.Done():
			return
		case sig := <-signals:
			if drain <= 0 {
				log.Info("stopping", "signal", sig.String())
				return
			}
			signalled = true
			log.Info("draining before stopping", "signal", sig.String(), "drain", drain.String())
		case <-drainNow:
			if drain <= 0 {
				log.Info("stopping: asked to drain, and -drain is 0")
				return
			}
			log.Info("draining before stopping", "drain", drain.String())
		}
		srv.Drain()
		timer := time.NewTimer(drain)
		defer timer.Stop()
		for {
			select {
			case <-ctx.Done():
			case <-srv.Drained():
				log.Info("stopping: every player has left")
			case <-timer.C:
				log.Info("stopping: the drain is over; disconnecting the players left", "drain", drain.String())
			case sig := <-signals:
				if !signalled {
					signalled = true
					log.Info("already draining; a second signal stops at once", "signal", sig.String())
					continue
				}
				log.Info("stopping at once", "signal", sig.String())
			}
			return
		}
	}()
	return ctx, cancel
}
