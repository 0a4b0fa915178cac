// Package agonestest is a fake Agones SDK sidecar for tests: a real HTTP server on
// loopback answering the gateway's endpoints the way Agones documents them (POST /ready,
// /health, /shutdown; GET /gameserver and the newline-delimited /watch/gameserver stream;
// PUT /metadata/label; PATCH /v1beta1/counters/NAME), recording every call, and failing,
// hanging or pushing a new GameServer state when the test says so.
//
// It is for tests only; it keeps every call in memory.
package agonestest

import (
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"tanknet/agones"
)

// Sidecar is the fake. Its methods are safe from any goroutine.
type Sidecar struct {
	srv    *httptest.Server
	closed chan struct{} // ends hung requests and watch streams

	mu       sync.Mutex
	changed  chan struct{} // closed and replaced at every call or state change (see WaitFor)
	calls    []string      // "METHOD /path", in order
	gs       agones.GameServer
	counters map[string]agones.Counter
	labels   map[string]string
	fail     map[string]int // path -> status to answer instead
	hang     chan struct{}  // not nil: requests wait for it to close
	watchers map[chan agones.GameServer]struct{}
	onCall   func(call string)
}

// New starts a sidecar for a GameServer in state Scheduled with the given counters
// declared (as a fleet's spec declares them), and stops it when t ends.
func New(t testing.TB, counters ...agones.Counter) *Sidecar {
	s := &Sidecar{
		closed:   make(chan struct{}),
		changed:  make(chan struct{}),
		counters: map[string]agones.Counter{},
		labels:   map[string]string{},
		fail:     map[string]int{},
		watchers: map[chan agones.GameServer]struct{}{},
		gs: agones.GameServer{
			ObjectMeta: agones.ObjectMeta{Name: "tankserver-test", Namespace: "default"},
			Status:     agones.Status{State: "Scheduled", Address: "127.0.0.1", Ports: []agones.Port{{Name: "default", Port: 7777}}},
		},
	}
	for _, c := range counters {
		s.counters[c.Name] = c
	}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

// URL is the sidecar's base URL, as agones.New takes it.
func (s *Sidecar) URL() string { return s.srv.URL }

// Close ends every hung request and watch stream and stops the server. The sidecar is
// then down: connections are refused. Close may be called more than once.
func (s *Sidecar) Close() {
	s.mu.Lock()
	select {
	case <-s.closed:
		s.mu.Unlock()
		return
	default:
		close(s.closed)
	}
	s.mu.Unlock()
	s.srv.Close()
}

// OnCall has f called with each request ("METHOD /path") as it arrives, before it is
// answered, on the request's goroutine: a test's look at the world at that moment.
func (s *Sidecar) OnCall(f func(call string)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.onCall = f
}

// Calls returns every request received so far, "METHOD /path", in order.
func (s *Sidecar) Calls() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.calls...)
}

// Count returns how many requests "METHOD /path" received.
func (s *Sidecar) Count(call string) int {
	n := 0
	for _, c := range s.Calls() {
		if c == call {
			n++
		}
	}
	return n
}

// Counter returns the counter name as the sidecar has it.
func (s *Sidecar) Counter(name string) agones.Counter {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.counters[name]
}

// State returns the GameServer's state.
func (s *Sidecar) State() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.gs.Status.State
}

// SetState moves the GameServer to state, as Agones would (e.g. "Allocated" when a match
// is assigned, "Shutdown" when it ends the server), and tells every watcher.
func (s *Sidecar) SetState(state string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.setStateLocked(state)
}

func (s *Sidecar) setStateLocked(state string) {
	s.gs.Status.State = state
	s.publishLocked()
}

// publishLocked sends the GameServer, its counters as they are now, to every watcher.
func (s *Sidecar) publishLocked() {
	s.gs.Status.Counters = map[string]agones.CounterStatus{}
	for name, c := range s.counters {
		s.gs.Status.Counters[name] = agones.NewCounterStatus(c.Count, c.Capacity)
	}
	for w := range s.watchers {
		select {
		case w <- s.gs:
		default: // that watcher is behind; it reads the newest state when it catches up
			select {
			case <-w:
			default:
			}
			w <- s.gs
		}
	}
	s.notifyLocked()
}

// Allocate does what a GameServerAllocation that picked this GameServer does: it moves
// it to Allocated and adds amount to each counter named (the allocation's counter
// actions), then tells every watcher. It changes nothing and returns false when a counter
// is not declared or would pass its capacity, as Agones refuses such an allocation.
func (s *Sidecar) Allocate(amounts map[string]int64) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for name, n := range amounts {
		c, ok := s.counters[name]
		if !ok || c.Count+n > c.Capacity || c.Count+n < 0 {
			return false
		}
	}
	for name, n := range amounts {
		c := s.counters[name]
		c.Count += n
		s.counters[name] = c
	}
	s.setStateLocked(agones.StateAllocated)
	return true
}

// Fail makes requests to path (e.g. "/health") answer status with a gateway error body;
// status 0 makes them succeed again.
func (s *Sidecar) Fail(path string, status int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if status == 0 {
		delete(s.fail, path)
	} else {
		s.fail[path] = status
	}
}

// Hang makes every request wait, unanswered, until Hang(false) or Close: a sidecar that
// is alive but stuck. Requests are still recorded as they arrive.
func (s *Sidecar) Hang(on bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case on && s.hang == nil:
		s.hang = make(chan struct{})
	case !on && s.hang != nil:
		close(s.hang)
		s.hang = nil
	}
}

// WaitFor fails t unless cond becomes true within 10 s; cond is checked at every call the
// sidecar receives and every state change (and every 50 ms besides).
func (s *Sidecar) WaitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		s.mu.Lock()
		changed := s.changed
		s.mu.Unlock()
		if cond() {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the fake Agones sidecar never saw %s; calls: %q", what, s.Calls())
		}
		select {
		case <-changed:
		case <-time.After(50 * time.Millisecond):
		}
	}
}

func (s *Sidecar) notifyLocked() {
	close(s.changed)
	s.changed = make(chan struct{})
}

// Label returns the GameServer's label key (with Agones' "agones.dev/sdk-" prefix).
func (s *Sidecar) Label(key string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.labels[key]
}
