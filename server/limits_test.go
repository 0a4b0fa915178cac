package server

import (
	"errors"
	"net"
	"strings"
	"testing"
	"time"

	"tanknet/wire"
)

func TestConfigValidate(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(*Config)
		want   string // substring of the error; "" means valid
	}{
		{"defaults", func(*Config) {}, ""},
		{"no address", func(c *Config) { c.Addr = "" }, "empty listen address"},
		{"no players", func(c *Config) { c.MaxPlayers = 0 }, "max players"},
		{"too many players", func(c *Config) { c.MaxPlayers = 257 }, "max players"},
		{"lead shorter than the idle timeout", func(c *Config) { c.IdleTimeout = 10 * time.Second; c.MaxInputLead = 120 }, "must cover the idle timeout"},
		{"derived lead follows the idle timeout", func(c *Config) { c.IdleTimeout = 10 * time.Second }, ""},
		{"longer idle timeout with a longer lead", func(c *Config) { c.IdleTimeout = 10 * time.Second; c.MaxInputLead = 250 }, ""},
		{"per-tick cap below one input", func(c *Config) { c.MaxSimPerTick = 100 * time.Millisecond }, "max simulated time per tick"},
		{"no handshakes", func(c *Config) { c.MaxHandshakes = 0 }, "max handshakes"},
		{"bad arena", func(c *Config) { c.Arena.Width = -1 }, "arena width"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := DefaultConfig()
			tt.mutate(&c)
			err := c.Validate()
			if (err == nil) != (tt.want == "") || (err != nil && !strings.Contains(err.Error(), tt.want)) {
				t.Errorf("Validate() = %v, want %q", err, tt.want)
			}
		})
	}
}

func TestConfig_DerivedInputLead(t *testing.T) {
	for _, tt := range []struct {
		idle time.Duration
		set  uint32
		want uint32
	}{{5 * time.Second, 0, 120}, {10 * time.Second, 0, 220}, {5 * time.Second, 300, 300}} {
		c := DefaultConfig()
		c.IdleTimeout, c.MaxInputLead = tt.idle, tt.set
		if got := c.inputLead(); got != tt.want {
			t.Errorf("inputLead with idle %v, lead %d = %d, want %d", tt.idle, tt.set, got, tt.want)
		}
	}
}

func TestSession_ControlOverflowKicksWithReason(t *testing.T) {
	cfg := DefaultConfig()
	cfg.MaxPlayers = 2
	server, _ := kcpPair(t)
	s := newSession(server, &cfg, new(counters), newServerClock(time.Now())) // no writer: the frames wait
	for range maxControlFrames {
		s.send([]byte{1})
	}
	if got := s.kickReason(); got.dropping() || s.overflowed() {
		t.Fatalf("kicked at the limit: %q (overflowed %v)", got, s.overflowed())
	}
	s.send([]byte{1})
	if got := s.kickReason(); !strings.Contains(got.String(), "control queue full") || got.kind.code != wire.DisconnectCannotKeepUp || !s.overflowed() {
		t.Errorf("kick reason after overflow = %q (%v), overflowed %v; want a full control queue, cannot keep up", got, got.kind.code, s.overflowed())
	}
	select {
	case <-s.done:
	default:
		t.Error("the session is still open after its control queue overflowed")
	}
	s.send(nil) // encode failures yield nil frames, which are skipped
}

// TestSession_ControlOverflowEndsABlockedWriteAtOnce blocks an away player's stream (the
// player is gone and acknowledges nothing, so KCP's window fills and the write waits up to
// the away timeout) and queues control frames behind it until the queue overflows: the
// session closes then, and its writer returns at once, not when its write times out.
func TestSession_ControlOverflowEndsABlockedWriteAtOnce(t *testing.T) {
	cfg := DefaultConfig()
	cfg.AwayTimeout = 10 * time.Minute
	server, player := kcpPair(t)
	s := newSession(server, &cfg, new(counters), newServerClock(time.Now()))
	s.away.Store(true)
	player.Close()
	wrote := make(chan error, 1)
	go func() { wrote <- s.writeLoop() }()
	frame := make([]byte, 100)
	for i := 0; !s.kickReason().dropping(); i++ {
		if i == 100_000 {
			t.Fatal("100,000 frames queued behind an unacknowledged stream and the queue never overflowed")
		}
		s.send(frame)
		if i%64 == 0 {
			time.Sleep(time.Millisecond) // the writer takes what is queued until KCP's window is full
		}
	}
	select {
	case err := <-wrote:
		if err != nil {
			t.Errorf("the writer ended with %v; want nil: the server closed the session under it", err)
		}
	case <-time.After(time.Minute): // the write would wait ten
		t.Fatal("the writer is still blocked a minute after the control queue overflowed")
	}
	if got := s.kickReason(); !strings.Contains(got.String(), "control queue full") {
		t.Errorf("kick reason %q; want a full control queue", got)
	}
}

func TestSession_RosterFitsAtMaxPlayers(t *testing.T) {
	cfg := DefaultConfig()
	cfg.MaxPlayers = 256
	w := newGame(&cfg, discardLogger(), new(counters))
	var last *session
	for range cfg.MaxPlayers {
		last = newSession(nil, &cfg, new(counters), newServerClock(time.Now()))
		if _, reject := w.join(0, "p", last); reject != nil {
			t.Fatal(reject)
		}
	}
	if got := last.kickReason(); got.dropping() {
		t.Errorf("player %d was kicked on joining: %q (welcome plus roster must fit its queue)", cfg.MaxPlayers, got)
	}
}

func TestCleanText(t *testing.T) {
	long := strings.Repeat("x", 20000)
	if got := cleanText(long, maxReasonBytes); len(got) != maxReasonBytes {
		t.Errorf("cleanText of 20000 bytes has %d, want %d", len(got), maxReasonBytes)
	}
	if got := cleanText("  ok\xff ", 10); got != "ok" {
		t.Errorf("cleanText = %q, want %q", got, "ok")
	}
}

// brokenConn is a packet connection whose reads fail at once, like a socket that died.
type brokenConn struct{ closed chan struct{} }

var errSocketDied = errors.New("socket died")

func (c brokenConn) ReadFrom([]byte) (int, net.Addr, error)    { return 0, nil, errSocketDied }
func (c brokenConn) WriteTo(b []byte, _ net.Addr) (int, error) { return len(b), nil }
func (c brokenConn) Close() error                              { return nil }
func (c brokenConn) LocalAddr() net.Addr                       { return &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)} }
func (c brokenConn) SetDeadline(time.Time) error               { return nil }
func (c brokenConn) SetReadDeadline(time.Time) error           { return nil }
func (c brokenConn) SetWriteDeadline(time.Time) error          { return nil }

func TestServe_ReturnsWhenTheSocketFails(t *testing.T) {
	srv := quietServer(t)
	done := make(chan error, 1)
	go func() { done <- srv.Serve(t.Context(), brokenConn{}) }()
	select {
	case err := <-done:
		if !errors.Is(err, errSocketDied) {
			t.Errorf("Serve = %v, want the socket's error", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Serve kept running on a dead socket")
	}
}

func TestHandshakes_EvictOldestWaiting(t *testing.T) {
	h := handshakes{max: 2}
	t0 := time.Unix(0, 0)
	late := t0.Add(graceForHello)
	a, b, c, d := new(session), new(session), new(session), new(session)
	if h.admit(a, t0) != nil || h.admit(b, t0) != nil {
		t.Fatal("evicted below the cap")
	}
	h.done(a) // a finished its Hello: it no longer counts
	if got := h.admit(c, t0); got != nil {
		t.Fatalf("admit(c) evicted %p with room left", got)
	}
	if got := h.admit(d, late); got != b {
		t.Errorf("admit(d) evicted %p, want the oldest waiting one (b, %p)", got, b)
	}
	h.done(b) // already evicted: ignored
	if h.len() != 2 {
		t.Errorf("len = %d, want 2 (c and d)", h.len())
	}
}

func TestHandshakes_YoungConnectionsGetGraceUpToTwiceTheCap(t *testing.T) {
	h := handshakes{max: 2}
	t0 := time.Unix(0, 0)
	var s [5]*session
	for i := range s {
		s[i] = new(session)
	}
	for i := range 4 { // all within the grace period: nobody evicted up to twice the cap
		if got := h.admit(s[i], t0); got != nil {
			t.Fatalf("admit(%d) evicted %p within the grace period", i, got)
		}
	}
	if got := h.admit(s[4], t0); got != s[0] {
		t.Errorf("admit beyond twice the cap evicted %p, want the oldest (%p)", got, s[0])
	}
}
