package server

import (
	"fmt"
	"io"
	"net"
	"os"
	"testing"
	"time"
)

// TestSession_AConnectionClosedUnderAWriteIsNoSlowClient: a stream write fails when the
// connection was closed under it, by the server or by the transport (its address started a
// new conversation, PROTOCOL.md §1.5: the player leaves with its connection closed). Neither
// is the client failing to take its bytes, which only a write blocked past its timeout is.
func TestSession_AConnectionClosedUnderAWriteIsNoSlowClient(t *testing.T) {
	cfg := DefaultConfig()
	s := newSession(nil, &cfg, new(counters), newServerClock(time.Now()))
	timeout := fmt.Errorf("transport: write to 127.0.0.1:9: %w", os.ErrDeadlineExceeded)
	for _, c := range []struct {
		err  error
		slow bool
	}{
		{fmt.Errorf("transport: write to 127.0.0.1:9: %w", io.ErrClosedPipe), false}, // kcp-go closed the replaced session
		{fmt.Errorf("transport: write to 127.0.0.1:9: %w", net.ErrClosed), false},    // our own Conn closed
		{timeout, true},
	} {
		if got := s.writeFailure(c.err); (got != nil) != c.slow {
			t.Errorf("writeFailure(%v) = %v; want the client counted slow: %v", c.err, got, c.slow)
		}
	}
	s.close()
	if got := s.writeFailure(timeout); got != nil {
		t.Errorf("after the session closed, writeFailure(%v) = %v, want nil (the server ended it)", timeout, got)
	}
}
