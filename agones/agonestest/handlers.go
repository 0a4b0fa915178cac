package agonestest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"tanknet/agones"
)

// The handlers: each endpoint answered as the Agones SDK gateway does.

// gatewayError answers status with the JSON error body the gateway writes.
func gatewayError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]any{"code": status, "message": msg})
}

// serve answers one request to the sidecar, after taking the call (takeCall).
func (s *Sidecar) serve(w http.ResponseWriter, r *http.Request) {
	if !s.takeCall(w, r) {
		return
	}
	switch {
	case r.Method == http.MethodPost && (r.URL.Path == "/ready" || r.URL.Path == "/health" || r.URL.Path == "/shutdown"):
		s.lifecycle(w, r)
	case r.Method == http.MethodGet && r.URL.Path == "/gameserver":
		s.mu.Lock()
		gs := s.gs
		s.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(gs)
	case r.Method == http.MethodGet && r.URL.Path == "/watch/gameserver":
		s.watch(w, r)
	case r.Method == http.MethodPut && r.URL.Path == "/metadata/label":
		s.setLabel(w, r)
	case r.Method == http.MethodPatch && strings.HasPrefix(r.URL.Path, "/v1beta1/counters/"):
		s.updateCounter(w, r, strings.TrimPrefix(r.URL.Path, "/v1beta1/counters/"))
	default:
		gatewayError(w, http.StatusNotFound, "Not Found")
	}
}

// takeCall records a call (waking whoever waits for one, and the test's OnCall), then holds
// it while the test hangs the sidecar, and fails it if the test asked for that. It reports
// whether the call is still to be answered.
func (s *Sidecar) takeCall(w http.ResponseWriter, r *http.Request) bool {
	s.mu.Lock()
	s.calls = append(s.calls, r.Method+" "+r.URL.Path)
	s.notifyLocked()
	hang, status, onCall := s.hang, s.fail[r.URL.Path], s.onCall
	s.mu.Unlock()
	if onCall != nil {
		onCall(r.Method + " " + r.URL.Path)
	}
	if hang != nil {
		select {
		case <-hang:
		case <-s.closed:
			return false
		case <-r.Context().Done():
			return false
		}
	}
	if status != 0 {
		gatewayError(w, status, "failing on purpose: the test asked for it")
		return false
	}
	return true
}

// lifecycle answers POST /ready, /health and /shutdown, moving the GameServer's state on
// the first and the last.
func (s *Sidecar) lifecycle(w http.ResponseWriter, r *http.Request) {
	var body map[string]any
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
		gatewayError(w, http.StatusBadRequest, "the body must be a JSON object: "+err.Error())
		return
	}
	switch r.URL.Path {
	case "/ready":
		s.SetState(agones.StateReady)
	case "/shutdown":
		s.SetState(agones.StateShutdown)
	}
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprint(w, "{}")
}

// setLabel answers PUT /metadata/label: the label is kept with the SDK's prefix.
func (s *Sidecar) setLabel(w http.ResponseWriter, r *http.Request) {
	var kv struct{ Key, Value string }
	if err := json.NewDecoder(r.Body).Decode(&kv); err != nil || kv.Key == "" {
		gatewayError(w, http.StatusBadRequest, "want {\"key\": ..., \"value\": ...}")
		return
	}
	s.mu.Lock()
	s.labels["agones.dev/sdk-"+kv.Key] = kv.Value
	s.mu.Unlock()
	fmt.Fprint(w, "{}")
}

// watch streams the GameServer: the current one at once, then each change, one JSON
// object {"result": GameServer} a line.
func (s *Sidecar) watch(w http.ResponseWriter, r *http.Request) {
	flusher, _ := w.(http.Flusher)
	updates := make(chan agones.GameServer, 1)
	s.mu.Lock()
	s.watchers[updates] = struct{}{}
	updates <- s.gs
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.watchers, updates)
		s.mu.Unlock()
	}()
	w.Header().Set("Content-Type", "application/json")
	enc := json.NewEncoder(w)
	for {
		select {
		case <-r.Context().Done():
			return
		case <-s.closed:
			return
		case gs := <-updates:
			if err := enc.Encode(map[string]agones.GameServer{"result": gs}); err != nil {
				return
			}
			if flusher != nil {
				flusher.Flush()
			}
		}
	}
}

// updateCounter applies a CounterUpdateRequest: capacity first, then count, which must
// lie in [0, capacity]. 64-bit numbers may be JSON strings or numbers.
func (s *Sidecar) updateCounter(w http.ResponseWriter, r *http.Request, name string) {
	var req struct {
		Count, Capacity, CountDiff *json.RawMessage
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		gatewayError(w, http.StatusBadRequest, "the body must be a CounterUpdateRequest: "+err.Error())
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.counters[name]
	if !ok {
		gatewayError(w, http.StatusNotFound, "counter not found: "+name)
		return
	}
	if req.Capacity != nil {
		v, err := int64Of(*req.Capacity)
		if err != nil || v < 0 {
			gatewayError(w, http.StatusBadRequest, "out of range: capacity")
			return
		}
		c.Capacity = v
	}
	if req.Count != nil {
		v, err := int64Of(*req.Count)
		if err != nil || v < 0 || v > c.Capacity {
			gatewayError(w, http.StatusBadRequest, fmt.Sprintf("out of range: count must be within [0, %d]", c.Capacity))
			return
		}
		c.Count = v
	}
	s.counters[name] = c
	s.publishLocked()
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]string{
		"name": name, "count": strconv.FormatInt(c.Count, 10), "capacity": strconv.FormatInt(c.Capacity, 10),
	})
}

// int64Of reads a 64-bit integer written as a JSON string or number.
func int64Of(raw json.RawMessage) (int64, error) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return strconv.ParseInt(s, 10, 64)
	}
	var n int64
	err := json.Unmarshal(raw, &n)
	return n, err
}
