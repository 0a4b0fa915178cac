package main

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"tanknet/carriage"
)

// TestJoinWords: each way a page fails to reach its server is said in its own sentence,
// never as the raw error of a fetch or a status line alone.
func TestJoinWords(t *testing.T) {
	const origin = "http://192.0.2.1:8080"
	refused := func(status int, body string) error {
		return fmt.Errorf("dial: %w", &carriage.RefusedError{Status: status, StatusText: fmt.Sprint(status), Body: body})
	}
	tests := []struct {
		err  error
		want []string
	}{
		{fmt.Errorf("%w (TypeError: Failed to fetch)", carriage.ErrNoServer), []string{"No tanknet server answered", "tankserver -web", "make web-demo"}},
		{refused(501, "Unsupported method ('POST')"), []string{"is not tankserver", "HTTP 501", "static web host"}},
		{refused(404, "404 page not found"), []string{"is not tankserver", "HTTP 404"}},
		{refused(503, "draining"), []string{"busy or shutting down", "HTTP 503", "try again", "draining"}},
		{refused(429, "too many"), []string{"HTTP 429", "close another tanknet tab"}},
		{refused(400, "bad offer"), []string{"refused this page's connection (HTTP 400)", "bad offer"}},
		{refused(500, ""), []string{"failed to take the connection (HTTP 500)"}},
		{carriage.ErrNoPath, []string{"over UDP", "blocks UDP"}},
		{errors.New("odd"), []string{"could not connect to " + origin, "odd"}},
	}
	for _, tt := range tests {
		got := joinWords(origin, tt.err)
		for _, w := range tt.want {
			if !strings.Contains(got, w) {
				t.Errorf("joinWords(%v) = %q, want it to contain %q", tt.err, got, w)
			}
		}
		if strings.Contains(got, "TypeError") {
			t.Errorf("joinWords(%v) = %q: the raw fetch error reaches the visitor", tt.err, got)
		}
	}
}
