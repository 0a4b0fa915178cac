package agones_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"tanknet/agones"
	"tanknet/agones/agonestest"
)

func TestURLFromEnv(t *testing.T) {
	tests := []struct {
		name    string
		env     map[string]string
		want    string
		wantOK  bool
		wantErr bool
	}{
		{"unset: not under Agones", map[string]string{}, "", false, false},
		{"a port", map[string]string{agones.EnvPort: "9400"}, "http://localhost:9400", true, false},
		{"empty: the default port", map[string]string{agones.EnvPort: ""}, "http://localhost:9358", true, false},
		{"not a number", map[string]string{agones.EnvPort: "http"}, "", true, true},
		{"out of range", map[string]string{agones.EnvPort: "70000"}, "", true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lookup := func(k string) (string, bool) { v, ok := tt.env[k]; return v, ok }
			got, ok, err := agones.URLFromEnv(lookup)
			if got != tt.want || ok != tt.wantOK || (err != nil) != tt.wantErr {
				t.Errorf("URLFromEnv(%v) = %q, %v, %v; want %q, %v, error %v", tt.env, got, ok, err, tt.want, tt.wantOK, tt.wantErr)
			}
		})
	}
}

func TestLifecycle(t *testing.T) {
	sc := agonestest.New(t)
	c := agones.New(sc.URL(), 5*time.Second)
	ctx := context.Background()
	if err := c.Ready(ctx); err != nil {
		t.Fatalf("Ready: %v", err)
	}
	if err := c.Health(ctx); err != nil {
		t.Fatalf("Health: %v", err)
	}
	gs, err := c.GameServer(ctx)
	if err != nil || gs.Status.State != agones.StateReady || gs.ObjectMeta.Name != "tankserver-test" || len(gs.Status.Ports) != 1 || gs.Status.Ports[0].Port != 7777 {
		t.Errorf("GameServer() = %+v, %v; want the fake's Ready GameServer on port 7777", gs, err)
	}
	if err := c.SetLabel(ctx, "match", "m1"); err != nil || sc.Label("agones.dev/sdk-match") != "m1" {
		t.Errorf("SetLabel: %v, label %q; want agones.dev/sdk-match=m1", err, sc.Label("agones.dev/sdk-match"))
	}
	if err := c.Shutdown(ctx); err != nil || sc.State() != agones.StateShutdown {
		t.Errorf("Shutdown: %v, state %q; want Shutdown", err, sc.State())
	}
	want := []string{"POST /ready", "POST /health", "GET /gameserver", "PUT /metadata/label", "POST /shutdown"}
	if got := sc.Calls(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("the sidecar saw %q, want %q", got, want)
	}
}

func TestErrors(t *testing.T) {
	ctx := context.Background()
	t.Run("the sidecar refuses", func(t *testing.T) {
		sc := agonestest.New(t)
		sc.Fail("/ready", http.StatusServiceUnavailable)
		err := agones.New(sc.URL(), 5*time.Second).Ready(ctx)
		var e *agones.Error
		if !errors.As(err, &e) || e.Status != http.StatusServiceUnavailable || !strings.Contains(e.Message, "on purpose") {
			t.Errorf("Ready to a failing sidecar = %v, want an *Error with status 503 and its message", err)
		}
	})
	t.Run("the sidecar is down", func(t *testing.T) {
		sc := agonestest.New(t)
		sc.Close()
		if err := agones.New(sc.URL(), 5*time.Second).Health(ctx); err == nil || !strings.Contains(err.Error(), "POST /health") {
			t.Errorf("Health to a closed sidecar = %v, want an error naming the call", err)
		}
	})
	t.Run("the sidecar hangs", func(t *testing.T) {
		sc := agonestest.New(t)
		sc.Hang(true)
		if err := agones.New(sc.URL(), 20*time.Millisecond).Health(ctx); err == nil || !strings.Contains(err.Error(), "no answer within") {
			t.Errorf("Health to a hung sidecar = %v, want a timeout", err)
		}
	})
	t.Run("an answer that is not JSON", func(t *testing.T) {
		bad := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "<html>") }))
		defer bad.Close()
		if _, err := agones.New(bad.URL, 5*time.Second).GameServer(ctx); err == nil || !strings.Contains(err.Error(), "not the JSON") {
			t.Errorf("GameServer from a server answering HTML = %v, want a JSON error", err)
		}
	})
	t.Run("an answer too large", func(t *testing.T) {
		big := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprint(w, `{"status":{"state":"`+strings.Repeat("x", 2<<20)+`"}}`)
		}))
		defer big.Close()
		if _, err := agones.New(big.URL, 5*time.Second).GameServer(ctx); err == nil || !strings.Contains(err.Error(), "larger than") {
			t.Errorf("GameServer from a server answering 2 MiB = %v, want a size error", err)
		}
	})
}

func TestUpdateCounter(t *testing.T) {
	sc := agonestest.New(t, agones.Counter{Name: "players", Capacity: 16})
	c := agones.New(sc.URL(), 5*time.Second)
	ctx := context.Background()
	got, err := c.UpdateCounter(ctx, "players", 20, 32)
	if want := (agones.Counter{Name: "players", Count: 20, Capacity: 32}); err != nil || got != want || sc.Counter("players") != want {
		t.Errorf("UpdateCounter(players, 20, 32) = %+v, %v (sidecar has %+v); want %+v", got, err, sc.Counter("players"), want)
	}
	if _, err := c.UpdateCounter(ctx, "players", 33, 32); err == nil {
		t.Error("UpdateCounter past capacity succeeded, want the sidecar's out-of-range error")
	}
	var e *agones.Error
	if _, err := c.UpdateCounter(ctx, "rooms", 1, 1); !errors.As(err, &e) || e.Status != http.StatusNotFound {
		t.Errorf("UpdateCounter of an undeclared counter = %v, want a 404 *Error", err)
	}
}

func TestWatch(t *testing.T) {
	sc := agonestest.New(t)
	c := agones.New(sc.URL(), 5*time.Second)
	ctx, cancel := context.WithCancel(context.Background())
	var mu sync.Mutex
	var states []string
	done := make(chan error, 1)
	go func() {
		done <- c.Watch(ctx, func(gs agones.GameServer) {
			mu.Lock()
			states = append(states, gs.Status.State)
			mu.Unlock()
		})
	}()
	seen := func(n int) func() bool {
		return func() bool { mu.Lock(); defer mu.Unlock(); return len(states) >= n }
	}
	sc.WaitFor(t, "the watcher get the first GameServer", seen(1))
	sc.SetState(agones.StateAllocated)
	sc.WaitFor(t, "the watcher get the Allocated GameServer", seen(2))
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("Watch after cancel = %v, want context.Canceled", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if fmt.Sprint(states) != "[Scheduled Allocated]" {
		t.Errorf("Watch saw states %v, want [Scheduled Allocated]", states)
	}
}

func TestWatch_BadStreams(t *testing.T) {
	tests := []struct {
		name, body, want string
	}{
		{"not JSON", "hello\n", "not JSON"},
		{"the gateway's error", `{"error":{"code":14,"message":"unavailable"}}` + "\n", "unavailable"},
		{"no GameServer", `{"result":null}` + "\n", "no GameServer"},
		{"a line too long", `{"result":{"status":{"state":"` + strings.Repeat("x", 2<<20) + `"}}}` + "\n", "too long"},
		{"the stream ends", `{"result":{"status":{"state":"Ready"}}}` + "\n", "ended the stream"},
		{"not found", "", "404"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if tt.body == "" {
					http.NotFound(w, r)
					return
				}
				fmt.Fprint(w, tt.body)
			}))
			defer srv.Close()
			err := agones.New(srv.URL, 5*time.Second).Watch(context.Background(), func(agones.GameServer) {})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Watch of a stream with %s = %v, want an error saying %q", tt.name, err, tt.want)
			}
		})
	}
	t.Run("a hung sidecar", func(t *testing.T) {
		sc := agonestest.New(t)
		sc.Hang(true)
		err := agones.New(sc.URL(), 20*time.Millisecond).Watch(context.Background(), func(agones.GameServer) {})
		if err == nil || !strings.Contains(err.Error(), "not connected within") {
			t.Errorf("Watch of a hung sidecar = %v, want a connect timeout", err)
		}
	})
}
