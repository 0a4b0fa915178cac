package server_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"tanknet/client"
	"tanknet/internal/servertest"
	"tanknet/wire"
)

// TestDrain_RefusesNewcomersWhilePlayersFinish: three bots are playing when the server
// begins to drain. A newcomer is refused at once with the shutting-down code; the three play
// on to the end of their runs, undisturbed; once the last one has left, Drained closes.
func TestDrain_RefusesNewcomersWhilePlayersFinish(t *testing.T) {
	if testing.Short() {
		t.Skip("plays three bots for 2 s over loopback")
	}
	srv := servertest.Start(t, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var bots []<-chan botResult
	for i := range 3 {
		bots = append(bots, goBot(ctx, client.BotConfig{
			Addr: srv.Addr, Name: "player", Seed: uint64(i + 1), Duration: 2 * time.Second, Options: client.DefaultOptions()}))
	}
	for deadline := time.Now().Add(10 * time.Second); srv.Stats().Players < 3; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("only %d of 3 bots joined within 10 s", srv.Stats().Players)
		}
	}
	select {
	case <-srv.Drained():
		t.Fatal("Drained closed before any drain began")
	default:
	}
	srv.Drain()
	srv.Drain() // twice is harmless

	sess, err := client.Dial(ctx, srv.Addr, "late", nil, 5*time.Second)
	var rej *client.RejectedError
	if !errors.As(err, &rej) || rej.Code != wire.RejectShuttingDown {
		if sess != nil {
			sess.Close("test over")
		}
		t.Fatalf("a join during the drain: %v, want the shutting-down Reject", err)
	}

	for i, done := range bots {
		res := <-done
		if res.err != nil {
			t.Fatalf("bot %d during the drain: %v, want it to play to the end", i+1, res.err)
		}
		if res.rep.Snapshots < 20 || res.rep.ResidualNonZero != 0 {
			t.Errorf("bot %d: %+v, want it playing undisturbed through the drain", i+1, res.rep)
		}
	}
	select {
	case <-srv.Drained():
	case <-time.After(10 * time.Second):
		t.Fatalf("Drained still open 10 s after the last bot left (%d players)", srv.Stats().Players)
	}
	if n := srv.Stats().RejectsByCode["shutting_down"]; n < 1 {
		t.Errorf("rejects by code = %v, want the newcomer's shutting_down counted", srv.Stats().RejectsByCode)
	}
}

// TestDrain_EmptyServerIsDrainedAtOnce: with nobody playing there is nothing to wait for.
func TestDrain_EmptyServerIsDrainedAtOnce(t *testing.T) {
	srv := servertest.Start(t, nil)
	srv.Drain()
	select {
	case <-srv.Drained():
	case <-time.After(10 * time.Second):
		t.Fatal("an empty server did not report drained")
	}
}
