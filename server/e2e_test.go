package server_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"testing"
	"time"

	"tanknet/client"
	"tanknet/internal/servertest"
	"tanknet/server"
	"tanknet/wire"
)

// startServer runs a server without tank contact on a free loopback port for the rest of
// the test.
func startServer(t testing.TB, mutate func(*server.Config)) (string, *server.Server) {
	t.Helper()
	s := servertest.Start(t, mutate)
	return s.Addr, s.Server
}

// ackWatch records, from a bot's frames, the longest run of server ticks over which its
// acknowledged move tick did not advance, and whether it ever went backwards.
type ackWatch struct {
	lastAck, sinceTick uint32
	maxStall           uint32
	backwards          bool
}

func (w *ackWatch) frame(_ time.Time, g *client.Game) {
	s := g.Stats()
	if s.LastAck == 0 {
		return
	}
	switch {
	case s.LastAck < w.lastAck:
		w.backwards = true
	case s.LastAck > w.lastAck:
		w.lastAck, w.sinceTick = s.LastAck, s.ServerTick
	}
	w.maxStall = max(w.maxStall, s.ServerTick-w.sinceTick)
}

// TestEndToEnd_ThreeBotsExactReplay plays a server and three bots over real KCP on loopback
// for two seconds with contact off: every bot sees every player, acks advance with the ticks,
// and every reconciliation's replay lands exactly where the prediction already was.
func TestEndToEnd_ThreeBotsExactReplay(t *testing.T) {
	addr, srv := startServer(t, nil)
	const bots = 3
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	watches := make([]ackWatch, bots)
	reports := playBots(t, ctx, bots, func(i int) client.BotConfig {
		return client.BotConfig{
			Addr: addr, Name: fmt.Sprintf("bot-%d", i), Seed: uint64(i), Duration: 2 * time.Second,
			Options: client.DefaultOptions(), OnFrame: watches[i].frame,
		}
	})

	for i, r := range reports {
		if r.PlayersSeen != bots {
			t.Errorf("bot %d saw %d players, want %d", i, r.PlayersSeen, bots)
		}
		if r.Reconciliations < 10 {
			t.Errorf("bot %d reconciled %d times in 2s, want many", i, r.Reconciliations)
		}
		if r.ResidualNonZero != 0 || r.ResidualMax != 0 {
			t.Errorf("bot %d: %d reconciliations with a residual (max %g), want exactly 0 with contact off", i, r.ResidualNonZero, r.ResidualMax)
		}
		if r.Snaps != 0 || r.Corrections != 0 {
			t.Errorf("bot %d: %d corrections, %d snaps, want none with contact off", i, r.Corrections, r.Snaps)
		}
		// Loose bounds: the machine may be loaded, but acks must keep up with inputs.
		if w := watches[i]; w.backwards || w.maxStall > 20 {
			t.Errorf("bot %d: ack went backwards (%v) or stalled for %d ticks", i, w.backwards, w.maxStall)
		}
		if lag := uint32(r.InputsSent) - r.LastAck; r.LastAck == 0 || lag > 20 {
			t.Errorf("bot %d: sent %d inputs, last ack %d", i, r.InputsSent, r.LastAck)
		}
	}
	// Each bot said goodbye; the server hears it (KCP has no close, so this is the only way
	// it learns before the idle timeout).
	st := srv.Stats()
	for deadline := time.Now().Add(5 * time.Second); st.Leaves < bots && time.Now().Before(deadline); st = srv.Stats() {
		time.Sleep(10 * time.Millisecond)
	}
	if st.Joins != bots || st.Leaves != bots || st.Drops != 0 || st.BadFrames != 0 {
		t.Errorf("server stats %+v, want %d joins, %d goodbyes, no drops or bad frames", st, bots, bots)
	}
}

// TestShutdown_TellsClientsWhy stops a server under a connected client, which must hear the
// reason instead of waiting out the idle timeout.
func TestShutdown_TellsClientsWhy(t *testing.T) {
	srv := servertest.Start(t, nil)
	sess, err := client.Dial(context.Background(), srv.Addr, "ada", nil, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	runErr := make(chan error, 1)
	go func() { runErr <- sess.Run() }()
	if err := srv.Stop(); err != nil {
		t.Errorf("Serve: %v", err)
	}
	var d *client.DisconnectedError
	if err := <-runErr; !errors.As(err, &d) || d.Reason != "server shutting down" || d.Code != wire.DisconnectShuttingDown {
		t.Errorf("client ended with %#v, want a disconnect with code %v saying the server is shutting down", err, wire.DisconnectShuttingDown)
	}
	// A send that comes after (a frame's input racing the Disconnect) says the same, not
	// that the connection it wrote to is closed.
	if err := sess.Send(wire.Ping{ClientTimeUs: 1}); !errors.As(err, &d) || d.Code != wire.DisconnectShuttingDown {
		t.Errorf("a send after the Disconnect failed with %v, want the Disconnect's reason", err)
	}
	// Serve has closed its socket by the time it returns: the port is free again.
	pc, err := net.ListenPacket("udp", srv.Addr)
	if err != nil {
		t.Fatalf("rebinding %s after Serve returned: %v", srv.Addr, err)
	}
	pc.Close()
}

// TestRestart_AClientStartedAgainOnItsPortReplacesItsOldSelf: a client that vanished without
// a goodbye and starts again on the same address and port (its new conversation passes the
// connect handshake there, PROTOCOL.md §1.5) replaces its old session, whose player leaves at
// once with its connection closed: a leave, not a drop, and the new one plays.
func TestRestart_AClientStartedAgainOnItsPortReplacesItsOldSelf(t *testing.T) {
	addr, srv := startServer(t, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	first, err := net.ListenPacket("udp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	old, err := client.Dial(ctx, addr, "before", first, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	oldRun := make(chan error, 1)
	go func() { oldRun <- old.Run() }()
	first.Close() // vanishes: no goodbye
	<-oldRun
	again, err := net.ListenPacket("udp4", first.LocalAddr().String())
	if err != nil {
		t.Fatalf("the same port again: %v", err)
	}
	sess, err := client.Dial(ctx, addr, "after", again, 5*time.Second)
	if err != nil {
		t.Fatalf("the client started again could not join: %v", err)
	}
	defer sess.Close("done")
	for st := srv.Stats(); st.Leaves < 1; st = srv.Stats() {
		if ctx.Err() != nil {
			t.Fatalf("the old session never left: %+v", st)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if st := srv.Stats(); st.Leaves != 1 || st.Drops != 0 || st.Gate.Replaced != 1 || st.Players != 1 {
		t.Errorf("after the restart: %d leaves, %d drops (%v), %d conversations replaced, %d players; want the old one left, none dropped, one replaced, the new one in",
			st.Leaves, st.Drops, st.DropsByReason, st.Gate.Replaced, st.Players)
	}
}
