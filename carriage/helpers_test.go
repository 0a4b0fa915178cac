//go:build !js

package carriage

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/http/httptest"
	"testing"
	"time"
)

// testHub is a Hub on 127.0.0.1 with its offer endpoint served over HTTP on loopback.
type testHub struct {
	*Hub
	url string // the offer endpoint
}

// startHub returns a Hub with cfg (its candidates kept to loopback) and its HTTP server,
// both closed when t ends.
func startHub(t *testing.T, cfg HubConfig) *testHub {
	t.Helper()
	udp, err := net.ListenPacket("udp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return startHubOn(t, cfg, udp)
}

// startHubOn is startHub with the ICE socket udp.
func startHubOn(t *testing.T, cfg HubConfig, udp net.PacketConn) *testHub {
	t.Helper()
	cfg.AllowCandidate = IsLoopback
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	h, err := NewHub(cfg, udp)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h) // httptest listens on 127.0.0.1
	t.Cleanup(func() { srv.Close(); h.Close() })
	return &testHub{Hub: h, url: srv.URL + OfferPath}
}

// dial opens a loopback Conn to th, failing t if it cannot.
func dial(t *testing.T, th *testHub) *Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c, err := Dialer{API: LoopbackAPI()}.Dial(ctx, th.url)
	if err != nil {
		t.Fatalf("Dial: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// waitFor polls cond every 10 ms for up to 20 s (a bound for a loaded machine, not a
// measurement), failing t with what when it never holds.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); !cond(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("still waiting for %s after 20 s", what)
		}
	}
}

// blockedUDP is a socket on a path that blocks UDP: nothing sent to it ever arrives.
type blockedUDP struct{ net.PacketConn }

func (b blockedUDP) ReadFrom(p []byte) (int, net.Addr, error) {
	for {
		if _, _, err := b.PacketConn.ReadFrom(p); err != nil {
			return 0, nil, err
		}
	}
}
