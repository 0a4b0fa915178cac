package main

import (
	"context"
	"syscall"
	"testing"
	"time"
)

// TestPause_FrozenServerDropsNoOne stops the real server process (SIGSTOP), as a suspended
// laptop or a migrating VM would, for longer than the idle timeout, then lets it go on
// (SIGCONT): the packets its players sent meanwhile wait in its socket, so none of them is
// to blame, and none may be dropped. Each player plays on after the pause.
func TestPause_FrozenServerDropsNoOne(t *testing.T) {
	if testing.Short() {
		t.Skip("builds tankserver and freezes it for 7 s")
	}
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
