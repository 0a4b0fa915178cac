package agones

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"sync"
	"time"
)

// Counter is an Agones counter (the CountsAndLists feature): a count and the most it may
// reach. A fleet declares its counters; the game server keeps them current.
type Counter struct {
	Name     string
	Count    int64
	Capacity int64
}

// counterJSON is a Counter as the gateway writes it: 64-bit numbers as JSON strings
// (numbers are accepted too).
type counterJSON struct {
	Name     string  `json:"name"`
	Count    flexInt `json:"count"`
	Capacity flexInt `json:"capacity"`
}

// flexInt is an int64 written as a JSON string or a JSON number.
type flexInt int64

// MarshalJSON writes n as the gateway does: a JSON string.
func (n flexInt) MarshalJSON() ([]byte, error) {
	return []byte(`"` + strconv.FormatInt(int64(n), 10) + `"`), nil
}

func (n *flexInt) UnmarshalJSON(b []byte) error {
	if len(b) >= 2 && b[0] == '"' && b[len(b)-1] == '"' {
		b = b[1 : len(b)-1]
	}
	v, err := strconv.ParseInt(string(b), 10, 64)
	if err != nil {
		return fmt.Errorf("not a 64-bit integer: %q", b)
	}
	*n = flexInt(v)
	return nil
}

// UpdateCounter sets the counter name to count out of capacity (capacity first, so a
// count above the old capacity is accepted) and returns the counter as the sidecar then
// has it. The counter must be declared in the GameServer's spec.
func (c *Client) UpdateCounter(ctx context.Context, name string, count, capacity int64) (Counter, error) {
	body := struct {
		Count    string `json:"count"`
		Capacity string `json:"capacity"`
	}{strconv.FormatInt(count, 10), strconv.FormatInt(capacity, 10)}
	var got counterJSON
	err := c.do(ctx, http.MethodPatch, "/v1beta1/counters/"+url.PathEscape(name), body, &got)
	if err != nil {
		return Counter{}, err
	}
	return Counter{Name: got.Name, Count: int64(got.Count), Capacity: int64(got.Capacity)}, nil
}

// CounterSync keeps counters at the newest values given to Set, sending them from Run's
// goroutine: Set never waits for the sidecar, and a value replaced before it was sent is
// never sent (only the newest matters). A failed update is tried again after a pause.
type CounterSync struct {
	c    *Client
	wake chan struct{} // one pending wake-up for Run

	mu   sync.Mutex
	want map[string]Counter // newest value given to Set, by name
	sent map[string]Counter // last value the sidecar accepted, by name
}

// NewCounterSync returns a CounterSync sending through c.
func (c *Client) NewCounterSync() *CounterSync {
	return &CounterSync{c: c, wake: make(chan struct{}, 1), want: map[string]Counter{}, sent: map[string]Counter{}}
}

// Set asks for counter name to be count out of capacity. It never blocks; safe from any
// goroutine.
func (s *CounterSync) Set(name string, count, capacity int64) {
	s.mu.Lock()
	s.want[name] = Counter{Name: name, Count: count, Capacity: capacity}
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default: // Run is already due to look
	}
}

// pending returns the counters whose newest value the sidecar has not accepted, by name.
func (s *CounterSync) pending() []Counter {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Counter
	for name, w := range s.want {
		if s.sent[name] != w {
			out = append(out, w)
		}
	}
	slices.SortFunc(out, func(a, b Counter) int {
		if a.Name < b.Name {
			return -1
		}
		if a.Name > b.Name {
			return 1
		}
		return 0
	})
	return out
}

// Run sends what Set asked for until ctx ends, calling report (if not nil) with each
// update's outcome (err nil: accepted). After a failure it tries again retry later (or at
// the next Set). Run it on its own goroutine. When ctx ends it returns once the update in
// flight, if any, is answered or has timed out: an update abandoned on its way could reach
// the sidecar after the caller's next call (a Shutdown).
func (s *CounterSync) Run(ctx context.Context, retry time.Duration, report func(Counter, error)) {
	var again <-chan time.Time
	for {
		select {
		case <-ctx.Done():
			return
		case <-s.wake:
		case <-again:
		}
		again = nil
		for _, want := range s.pending() {
			_, err := s.c.UpdateCounter(context.WithoutCancel(ctx), want.Name, want.Count, want.Capacity) // ends within the client's timeout
			if ctx.Err() != nil {
				return
			}
			if err == nil {
				s.mu.Lock()
				s.sent[want.Name] = want
				s.mu.Unlock()
			} else if again == nil {
				again = time.After(retry)
			}
			if report != nil {
				report(want, err)
			}
		}
	}
}
