package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"tanknet/discovery"
)

// TestRooms_CachedAndLimited: GET /rooms answers the discovery summary as JSON, from a cache
// refreshed at most once a second, and refuses a source that asks past its allowance with
// 429 while another source is still answered; other methods get 405.
func TestRooms_CachedAndLimited(t *testing.T) {
	now := time.Unix(1000, 0)
	calls := 0
	h := newRoomsHandler(func() discovery.Answer {
		calls++
		return discovery.Answer{Name: "lan", RoomCapacity: 16, MaxRooms: 4, Players: calls,
			Rooms: []discovery.Room{{Name: "default", Players: calls}}}
	}, func() time.Time { return now })
	get := func(remote, method string) *httptest.ResponseRecorder {
		r := httptest.NewRequest(method, RoomsPath, nil)
		r.RemoteAddr = remote
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w
	}
	w := get("192.0.2.1:5000", http.MethodGet)
	var a roomsAnswer
	if err := json.Unmarshal(w.Body.Bytes(), &a); w.Code != 200 || err != nil {
		t.Fatalf("GET /rooms: %d %q (%v)", w.Code, w.Body, err)
	}
	if a.Name != "lan" || a.RoomCapacity != 16 || len(a.Rooms) != 1 || a.Rooms[0].Name != "default" || a.Players != 1 {
		t.Errorf("the rooms answer %+v, want the summary's", a)
	}
	for range roomsBurst - 1 {
		get("192.0.2.1:5001", http.MethodGet)
	}
	if calls != 1 {
		t.Errorf("%d summaries within a second, want 1 (cached)", calls)
	}
	if w := get("192.0.2.1:5002", http.MethodGet); w.Code != http.StatusTooManyRequests {
		t.Errorf("request %d from one source within a second: %d, want 429", roomsBurst+1, w.Code)
	}
	if w := get("192.0.2.2:5000", http.MethodGet); w.Code != 200 {
		t.Errorf("another source: %d, want 200", w.Code)
	}
	if w := get("[2001:db8::1]:5000", http.MethodPost); w.Code != http.StatusMethodNotAllowed {
		t.Errorf("POST /rooms: %d, want 405", w.Code)
	}
	now = now.Add(roomsFresh)
	if w := get("192.0.2.1:5003", http.MethodGet); w.Code != 200 || calls != 2 {
		t.Errorf("a second later: %d after %d summaries, want 200 and a fresh summary", w.Code, calls)
	}
}

// TestRooms_IPv6ByPrefix: one /64 is one source, as the carriage counts browsers.
func TestRooms_IPv6ByPrefix(t *testing.T) {
	h := newRoomsHandler(func() discovery.Answer { return discovery.Answer{} }, time.Now)
	code := 0
	for i := range roomsBurst + 1 {
		r := httptest.NewRequest(http.MethodGet, RoomsPath, nil)
		r.RemoteAddr = "[2001:db8::" + string(rune('a'+i)) + "]:443"
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		code = w.Code
	}
	if code != http.StatusTooManyRequests {
		t.Errorf("the %dth request from one /64: %d, want 429", roomsBurst+1, code)
	}
}
