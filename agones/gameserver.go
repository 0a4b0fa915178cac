package agones

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"
)

// The GameServer states a game server acts on (Agones has more: Scheduled, Reserved,
// Unhealthy, ...).
const (
	StateReady     = "Ready"     // waiting to be allocated to a match
	StateAllocated = "Allocated" // a match has been given this server
	StateShutdown  = "Shutdown"  // Agones is ending this server: finish and exit
)

// GameServer is the part of the Agones GameServer resource the SDK shows that tanknet
// reads, in the gateway's JSON.
type GameServer struct {
	ObjectMeta ObjectMeta `json:"object_meta"`
	Status     Status     `json:"status"`
}

// ObjectMeta is the GameServer's Kubernetes metadata.
type ObjectMeta struct {
	Name        string            `json:"name"`
	Namespace   string            `json:"namespace"`
	Labels      map[string]string `json:"labels,omitempty"`
	Annotations map[string]string `json:"annotations,omitempty"`
}

// Status is where and in which state the GameServer is, and its counters as Agones has
// them (an allocation may have changed them since the game server last did).
type Status struct {
	State    string                   `json:"state"`
	Address  string                   `json:"address"`
	Ports    []Port                   `json:"ports,omitempty"`
	Counters map[string]CounterStatus `json:"counters,omitempty"`
}

// CounterStatus is one counter in a GameServer's status: 64-bit numbers the gateway
// writes as JSON strings (numbers are read too).
type CounterStatus struct {
	Count    flexInt `json:"count"`
	Capacity flexInt `json:"capacity"`
}

// NewCounterStatus returns a counter's status of count out of capacity.
func NewCounterStatus(count, capacity int64) CounterStatus {
	return CounterStatus{Count: flexInt(count), Capacity: flexInt(capacity)}
}

// Counter returns the counter name of the status, and whether the status has it.
func (s Status) Counter(name string) (Counter, bool) {
	c, ok := s.Counters[name]
	return Counter{Name: name, Count: int64(c.Count), Capacity: int64(c.Capacity)}, ok
}

// Port is one of the GameServer's published ports.
type Port struct {
	Name string `json:"name"`
	Port int32  `json:"port"`
}

// GameServer returns the GameServer as the sidecar has it now.
func (c *Client) GameServer(ctx context.Context) (GameServer, error) {
	var gs GameServer
	err := c.do(ctx, http.MethodGet, "/gameserver", nil, &gs)
	return gs, err
}

// watchLine is one line of the watch stream: a GameServer, or the gateway's error.
type watchLine struct {
	Result *GameServer   `json:"result"`
	Error  *gatewayError `json:"error"`
}

// Watch follows /watch/gameserver, calling f with each GameServer the sidecar sends (one
// JSON object a line), on Watch's goroutine, in order. It returns when ctx ends (with
// ctx.Err()) or when the stream breaks or carries something that is not a GameServer (with
// the reason); the caller decides whether to watch again. Connecting must finish within
// the client's timeout; once connected the stream has no time limit (a GameServer that
// does not change sends nothing).
func (c *Client) Watch(ctx context.Context, f func(GameServer)) error {
	const path = "/watch/gameserver"
	parent := ctx
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	connecting := time.AfterFunc(c.timeout, cancel)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+path, nil)
	if err != nil {
		connecting.Stop()
		return fmt.Errorf("agones: GET %s: %w", path, err)
	}
	resp, err := c.http.Do(req)
	timedOut := !connecting.Stop()
	switch {
	case parent.Err() != nil:
		if err == nil {
			resp.Body.Close()
		}
		return parent.Err()
	case timedOut:
		if err == nil {
			resp.Body.Close()
		}
		return fmt.Errorf("agones: GET %s: not connected within %v", path, c.timeout)
	case err != nil:
		return fmt.Errorf("agones: GET %s: %w", path, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return &Error{Method: http.MethodGet, Path: path, Status: resp.StatusCode}
	}
	lines := bufio.NewScanner(resp.Body)
	lines.Buffer(make([]byte, 0, 16<<10), maxResponse)
	for lines.Scan() {
		line := bytes.TrimSpace(lines.Bytes())
		if len(line) == 0 {
			continue
		}
		gs, err := parseWatchLine(line)
		if err != nil {
			return fmt.Errorf("agones: GET %s: %w", path, err)
		}
		f(gs)
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if err := lines.Err(); err != nil {
		return fmt.Errorf("agones: GET %s: %w", path, err)
	}
	return fmt.Errorf("agones: GET %s: the sidecar ended the stream", path)
}

// parseWatchLine reads one line of the watch stream: the GameServer it carries, or why it
// carries none (not JSON, the gateway's error, no result).
func parseWatchLine(line []byte) (GameServer, error) {
	var l watchLine
	if err := json.Unmarshal(line, &l); err != nil {
		return GameServer{}, fmt.Errorf("a line that is not JSON: %w", err)
	}
	if l.Error != nil {
		msg := l.Error.Message
		if len(msg) > 200 {
			msg = msg[:200] + "..."
		}
		return GameServer{}, fmt.Errorf("the sidecar says: %s (code %d)", msg, l.Error.Code)
	}
	if l.Result == nil {
		return GameServer{}, errors.New("a line with no GameServer")
	}
	return *l.Result, nil
}
