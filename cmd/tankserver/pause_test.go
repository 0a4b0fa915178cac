package main

import (
	"context"
	"net"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"tanknet/client"
)

// TestPause_FrozenServerDropsNoOne stops the real server process (SIGSTOP), as a suspended
// laptop or a migrating VM would, for longer than the idle timeout, then lets it go on
// (SIGCONT): the packets its players sent meanwhile wait in its socket, so none of them is
// to blame, and none may be dropped. Each player plays on after the pause.
func TestPause_FrozenServerDropsNoOne(t *testing.T) {
	if testing.Short() {
		t.Skip("builds tankserver and freezes it for 7 s")
	}
	t.Parallel() // most of it waits: it runs beside the other pause test and the longest browser test
	bin := buildServer(t)
	addr := freeUDPAddr(t)
	srv, _ := startServer(t, bin, "-addr", addr)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ps := playBots(t, ctx, addr, 4)
	time.Sleep(time.Second) // play a little first
	if err := srv.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	time.Sleep(7 * time.Second)
	resumed := time.Now()
	if err := srv.Process.Signal(syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	time.Sleep(3 * time.Second) // play on after the pause
	cancel()
	for i, err := range ps.wait() {
		if err != nil {
			t.Errorf("player %d: %v, want it still playing after the pause", i+1, err)
		}
		if d := ps.heardAfter(i, resumed); d < time.Second {
			t.Errorf("player %d heard its last snapshot %v after the resume, want it playing on", i+1, d)
		}
	}
}

// mutedConn drops every datagram its client writes while muted: a player whose uplink goes
// silent (a tunnel, a Wi-Fi handover) while it goes on playing and queueing inputs.
type mutedConn struct {
	net.PacketConn
	muted atomic.Bool
}

func (c *mutedConn) WriteTo(b []byte, addr net.Addr) (int, error) {
	if c.muted.Load() {
		return len(b), nil
	}
	return c.PacketConn.WriteTo(b, addr)
}

// TestPause_PlayerSilentAcrossThePauseStaysIn: a player silent from 2 s before a 7 s stop of
// the server until 2 s after it (11 s in all, past the connect gate's 10 s limit for an
// address without a session) is heard again when it sends: the gate keeps the address of a
// live session, and the server's pause grace decides. It plays on well past the grace's 5 s.
func TestPause_PlayerSilentAcrossThePauseStaysIn(t *testing.T) {
	if testing.Short() {
		t.Skip("builds tankserver and freezes it for 7 s")
	}
	t.Parallel() // most of it waits: it runs beside the other pause test and the longest browser test
	bin := buildServer(t)
	addr := freeUDPAddr(t)
	srv, _ := startServer(t, bin, "-addr", addr)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	udp, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	conn := &mutedConn{PacketConn: udp}
	var joined atomic.Bool
	var lastSnapshot atomic.Int64
	ended := make(chan error, 1)
	go func() {
		seen := 0
		_, err := client.RunBot(ctx, client.BotConfig{Addr: addr, Name: "quiet", Seed: 1, Options: client.DefaultOptions(),
			DialTimeout: 20 * time.Second, PacketConn: conn,
			OnFrame: func(now time.Time, g *client.Game) {
				joined.Store(true)
				if s := g.Stats().Snapshots; s > seen {
					seen = s
					lastSnapshot.Store(now.UnixNano())
				}
			}})
		ended <- err
	}()
	for deadline := time.Now().Add(30 * time.Second); !joined.Load(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the player did not join within 30 s")
		}
	}
	time.Sleep(time.Second) // play a little first
	conn.muted.Store(true)
	time.Sleep(2 * time.Second)
	if err := srv.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	time.Sleep(7 * time.Second)
	if err := srv.Process.Signal(syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	time.Sleep(2 * time.Second)
	conn.muted.Store(false)
	spoke := time.Now()
	time.Sleep(6 * time.Second) // past the 5 s of grace from the resume
	select {
	case err := <-ended:
		t.Fatalf("the player's session ended %v after it spoke again: %v", time.Since(spoke).Round(time.Second), err)
	default:
	}
	if heard := time.Unix(0, lastSnapshot.Load()).Sub(spoke); heard < 5*time.Second {
		t.Errorf("the player heard its last snapshot %v after it spoke again, want it playing on", heard)
	}
	cancel()
	if err := <-ended; err != nil {
		t.Errorf("the player ended with %v, want a clean stop", err)
	}
}
