package main

import (
	"encoding/json"
	"net/http"
	"net/netip"
	"sync"
	"time"

	"tanknet/carriage"
	"tanknet/discovery"
)

// RoomsPath is where the page's lobby reads the server's rooms (GET, JSON): the same summary
// LAN discovery answers with (PROTOCOL.md §12), for a browser, which cannot send UDP.
const RoomsPath = "/rooms"

// The rooms endpoint answers from a summary at most roomsFresh old, so a crowd of lobbies
// costs the server one Stats call a second; each source address may ask roomsBurst times at
// once and then once every roomsEvery (a lobby refreshes every few seconds).
const (
	roomsFresh = time.Second
	roomsBurst = 5
	roomsEvery = 500 * time.Millisecond
)

// roomsAnswer is the JSON the lobby reads.
type roomsAnswer struct {
	Name         string           `json:"name"`
	Draining     bool             `json:"draining"`
	RoomCapacity int              `json:"room_capacity"`
	MaxRooms     int              `json:"max_rooms"`
	Players      int              `json:"players"`
	Rooms        []discovery.Room `json:"rooms"`
}

// roomsHandler serves RoomsPath: the summary, cached and rate limited per source.
type roomsHandler struct {
	summary func() discovery.Answer
	now     func() time.Time

	mu      sync.Mutex // guards the cache and the limiter
	body    []byte
	at      time.Time
	sources *carriage.AddressLimiter // the offers' limiter, as the page's browsers count
}

func newRoomsHandler(summary func() discovery.Answer, now func() time.Time) *roomsHandler {
	return &roomsHandler{summary: summary, now: now, sources: carriage.NewAddressLimiter(roomsBurst, roomsEvery)}
}

func (h *roomsHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "tanknet: GET the rooms", http.StatusMethodNotAllowed)
		return
	}
	body, ok := h.answer(carriage.RequestHost(r))
	if !ok {
		w.Header().Set("Retry-After", "1")
		http.Error(w, "tanknet: too many requests for the rooms from your address: wait a second", http.StatusTooManyRequests)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store") // the counts change; the server caches for a second
	w.Write(body)
}

// answer returns the rooms' JSON for a request from src, or false when src asks too often.
func (h *roomsHandler) answer(src netip.Addr) ([]byte, bool) {
	now := h.now()
	h.mu.Lock()
	defer h.mu.Unlock()
	if ok, _ := h.sources.Allow(src, now); !ok {
		return nil, false
	}
	if h.body == nil || now.Sub(h.at) >= roomsFresh {
		a := h.summary()
		rooms := a.Rooms
		if rooms == nil {
			rooms = []discovery.Room{}
		}
		h.body, _ = json.Marshal(roomsAnswer{Name: a.Name, Draining: a.Draining, RoomCapacity: a.RoomCapacity,
			MaxRooms: a.MaxRooms, Players: a.Players, Rooms: rooms}) // plain strings and numbers: it encodes
		h.at = now
	}
	return h.body, true
}
