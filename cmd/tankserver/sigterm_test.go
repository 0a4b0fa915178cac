package main

import (
	"bytes"
	"context"
	"errors"
	"net"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"tanknet/client"
	"tanknet/internal/testbuild"
	"tanknet/wire"
)

// TestSIGTERM_DrainsThenDisconnectsWithTheReason runs the real binary with -drain 2s and
// eight players, then sends it SIGTERM: a newcomer is refused at once, the eight keep
// getting snapshots through the drain, then all eight are disconnected with the reason and
// the process exits 0.
func TestSIGTERM_DrainsThenDisconnectsWithTheReason(t *testing.T) {
	if testing.Short() {
		t.Skip("builds tankserver and plays eight bots for a few seconds")
	}
	bin := buildServer(t)
	addr := freeUDPAddr(t)
	const drain = 2 * time.Second
	cmd, logs := startServer(t, bin, "-addr", addr, "-drain", drain.String())
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	ps := playBots(t, ctx, addr, 8)
	termAt := time.Now()
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	logs.waitFor(t, "draining: new players are refused") // the signal is handled a moment after it is sent

	_, err := client.Dial(ctx, addr, "late", nil, 5*time.Second)
	var rej *client.RejectedError
	if !errors.As(err, &rej) || rej.Code != wire.RejectShuttingDown {
		t.Errorf("a join after SIGTERM: %v, want the shutting-down Reject", err)
	}

	for i, err := range ps.wait() {
		var dis *client.DisconnectedError
		if !errors.As(err, &dis) || !strings.Contains(dis.Reason, "shutting down") || dis.Code != wire.DisconnectShuttingDown {
			t.Errorf("player %d ended with %#v, want a Disconnect with code %v saying the server is shutting down", i+1, err, wire.DisconnectShuttingDown)
		}
		// Not a timing bound on the server: a player still hearing snapshots well into the
		// drain shows it was not dropped at the signal.
		if d := ps.heardAfter(i, termAt); d < drain/2 {
			t.Errorf("player %d's last snapshot came %v after SIGTERM, want it playing on into the %v drain", i+1, d, drain)
		}
	}
	select {
	case err := <-exited:
		if err != nil {
			t.Errorf("tankserver exited with %v, want 0", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("tankserver still running 20 s after its players were disconnected")
	}
}

// freeUDPAddr returns a loopback UDP address that was free a moment ago.
func freeUDPAddr(t *testing.T) string {
	t.Helper()
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer pc.Close()
	return pc.LocalAddr().String()
}

// builtServer is tankserver, built once for the tests that run it as a user would.
var builtServer testbuild.Once

// buildServer returns the tankserver binary, building it on the first call.
func buildServer(t *testing.T) string {
	t.Helper()
	return builtServer.Program(t, "tanknet/cmd/tankserver")
}

// startServer starts bin with args; the test kills it at the end and shows its log if it
// failed.
func startServer(t *testing.T, bin string, args ...string) (*exec.Cmd, *serverLog) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	logs := new(serverLog)
	cmd.Stderr = logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGCONT)
		cmd.Process.Kill()
		if t.Failed() {
			t.Logf("tankserver's log:\n%s", logs.String())
		}
	})
	return cmd, logs
}

// serverLog is a server's stderr, safe to read while the process writes it.
type serverLog struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *serverLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *serverLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// waitFor fails t unless the log says what within 10 s.
func (l *serverLog) waitFor(t *testing.T, what string) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !strings.Contains(l.String(), what); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the server never logged %q", what)
		}
	}
}
