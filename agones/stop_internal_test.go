package agones

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// heldSidecar is an http.RoundTripper standing in for a sidecar that has received a request
// and not yet handled it: the request waits until release is closed (then gets "{}") or its
// context ends. arrived receives each request.
type heldSidecar struct {
	arrived chan *http.Request
	release chan struct{}
}

func (h *heldSidecar) RoundTrip(r *http.Request) (*http.Response, error) {
	h.arrived <- r
	select {
	case <-h.release:
		return &http.Response{StatusCode: http.StatusOK, Body: io.NopCloser(strings.NewReader("{}")), Request: r}, nil
	case <-r.Context().Done():
		return nil, r.Context().Err()
	}
}

// TestStopping_ARequestInFlightIsLetFinish: when the context of KeepHealthy or
// CounterSync.Run ends while one of their requests is with the sidecar, the request goes on
// (within the client's timeout) and they return once it is answered. An abandoned request
// may still be handled by the sidecar, after whatever the caller sends next: tankserver
// stops these helpers, then sends Shutdown, which must be the sidecar's last call.
func TestStopping_ARequestInFlightIsLetFinish(t *testing.T) {
	for _, tt := range []struct {
		name string
		run  func(ctx context.Context, c *Client)
	}{
		{"KeepHealthy", func(ctx context.Context, c *Client) { c.KeepHealthy(ctx, time.Hour, nil) }},
		{"CounterSync.Run", func(ctx context.Context, c *Client) {
			s := c.NewCounterSync()
			s.Set("players", 1, 8)
			s.Run(ctx, time.Hour, nil)
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			held := &heldSidecar{arrived: make(chan *http.Request, 1), release: make(chan struct{})}
			c := &Client{base: "http://sidecar", timeout: time.Minute, http: &http.Client{Transport: held}}
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan struct{})
			go func() { defer close(done); tt.run(ctx, c) }()
			req := <-held.arrived
			cancel() // cancels every context derived from ctx before it returns
			if err := req.Context().Err(); err != nil {
				t.Errorf("%s abandoned %s %s when its context ended (%v): the sidecar may handle it after the caller's next call",
					tt.name, req.Method, req.URL.Path, err)
			}
			close(held.release)
			<-done
		})
	}
}
