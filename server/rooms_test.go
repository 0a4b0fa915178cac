package server_test

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"tanknet/client"
	"tanknet/internal/servertest"
	tankv1 "tanknet/proto/tank/v1"
	"tanknet/server"
	"tanknet/wire"
)

// TestRooms_PlayApartOnOnePort: two bots in room "red", one in "blue" and one naming no room
// play at once on one server. Each is seated in its room, sees only that room's tanks and
// replays exactly; the tick records name the room, and no player id is in two rooms.
func TestRooms_PlayApartOnOnePort(t *testing.T) {
	if testing.Short() {
		t.Skip("plays four bots for 1.5 s over loopback")
	}
	var mu sync.Mutex
	seen := map[string]map[uint32]bool{}
	srv := servertest.StartObserved(t, nil, func(rec server.TickRecord) {
		mu.Lock()
		defer mu.Unlock()
		if seen[rec.Room] == nil {
			seen[rec.Room] = map[uint32]bool{}
		}
		for _, id := range rec.IDs {
			seen[rec.Room][id] = true
		}
	})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	rooms := []string{"red", "red", "blue", ""}
	var bots []<-chan botResult
	for i, room := range rooms {
		bots = append(bots, goBot(ctx, client.BotConfig{Addr: srv.Addr, Name: "p", Room: room, Seed: uint64(i + 1),
			Duration: 1500 * time.Millisecond, Options: client.DefaultOptions()}))
	}
	for deadline := time.Now().Add(10 * time.Second); srv.Stats().Players < len(rooms); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("only %d of %d bots joined within 10 s", srv.Stats().Players, len(rooms))
		}
	}
	var names []string
	for _, r := range srv.Stats().Rooms {
		names = append(names, r.Name)
	}
	if strings.Join(names, " ") != "blue default red" {
		t.Errorf("open rooms %v, want blue, default and red", names)
	}
	wantRoom := []string{"red", "red", "blue", server.DefaultRoom}
	wantSeen := []int{2, 2, 1, 1}
	for i, done := range bots {
		res := <-done
		if res.err != nil {
			t.Fatalf("bot %d (room %q): %v", i+1, rooms[i], res.err)
		}
		if res.rep.Room != wantRoom[i] || res.rep.PlayersSeen != wantSeen[i] || res.rep.ResidualNonZero != 0 || res.rep.Snapshots < 10 {
			t.Errorf("bot %d asked for room %q: seated in %q, saw %d players, %d snapshots, residual %d; want %q, %d, some, 0",
				i+1, rooms[i], res.rep.Room, res.rep.PlayersSeen, res.rep.Snapshots, res.rep.ResidualNonZero, wantRoom[i], wantSeen[i])
		}
	}
	mu.Lock()
	defer mu.Unlock()
	owner := map[uint32]string{}
	for room, ids := range seen {
		for id := range ids {
			if other, ok := owner[id]; ok {
				t.Errorf("player %d is in rooms %q and %q", id, other, room)
			}
			owner[id] = room
		}
	}
	if len(seen["red"]) != 2 || len(seen["blue"]) != 1 || len(seen[server.DefaultRoom]) != 1 {
		t.Errorf("tick records by room: %v, want 2 players in red, 1 in blue, 1 in default", seen)
	}
}

// TestRooms_RefusesWhatItCannotSeat: a malformed or overlong room name, a room past
// -max-rooms and a full room each get their own Reject and a reason that says what to do.
func TestRooms_RefusesWhatItCannotSeat(t *testing.T) {
	srv := servertest.Start(t, func(c *server.Config) { c.MaxRooms, c.MaxPlayers = 2, 1 })
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	in, err := client.DialRoom(ctx, srv.Addr, "first", "a", nil, 5*time.Second)
	if err != nil {
		t.Fatalf("joining room a on a server with one room open of two: %v", err)
	}
	defer in.Close("test over")
	if in.Welcome().Room != "a" {
		t.Errorf("Welcome.room = %q, want a", in.Welcome().Room)
	}
	for _, c := range []struct {
		room   string
		code   tankv1.RejectCode
		reason string
	}{
		{"b", tankv1.RejectCode_REJECT_CODE_NO_ROOM, "already runs its 2 rooms"},
		{"a", tankv1.RejectCode_REJECT_CODE_SERVER_FULL, "full"},
		{"a b", tankv1.RejectCode_REJECT_CODE_BAD_HELLO, "byte 0x20 at 1"},
		{"é", tankv1.RejectCode_REJECT_CODE_BAD_HELLO, "ASCII letters"},
		{strings.Repeat("x", 33), tankv1.RejectCode_REJECT_CODE_BAD_HELLO, "33 bytes"},
	} {
		sess, err := client.DialRoom(ctx, srv.Addr, "late", c.room, nil, 5*time.Second)
		var rej *client.RejectedError
		if !errors.As(err, &rej) || rej.Code != wire.RejectCode(c.code) || !strings.Contains(rej.Reason, c.reason) {
			if sess != nil {
				sess.Close("test over")
			}
			t.Errorf("room %q: %v, want %v with a reason saying %q", c.room, err, c.code, c.reason)
		}
	}
	if n := srv.Rooms(); n != 2 {
		t.Errorf("%d rooms open after the refusals, want 2", n)
	}
}

// TestRooms_AnEmptyRoomClosesAndOpensAgain: with no grace, room a closes once its player
// has gone; the default room stays. A later player opens it again.
func TestRooms_AnEmptyRoomClosesAndOpensAgain(t *testing.T) {
	srv := servertest.Start(t, func(c *server.Config) { c.RoomGrace = 0 })
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	first, err := client.DialRoom(ctx, srv.Addr, "first", "a", nil, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if n := srv.Rooms(); n != 2 {
		t.Errorf("%d rooms open with a player in room a, want 2", n)
	}
	first.Close("bye")
	waitRooms(t, srv, 1)
	if r := srv.Stats().Rooms; len(r) != 1 || r[0].Name != server.DefaultRoom {
		t.Errorf("rooms %+v, want the default room alone", r)
	}
	again, err := client.DialRoom(ctx, srv.Addr, "again", "a", nil, 5*time.Second)
	if err != nil {
		t.Fatalf("reopening room a: %v", err)
	}
	defer again.Close("test over")
	if again.Welcome().Room != "a" || again.Welcome().PlayerID == first.Welcome().PlayerID {
		t.Errorf("second Welcome: room %q, player %d; want room a and a new id (the first was %d)",
			again.Welcome().Room, again.Welcome().PlayerID, first.Welcome().PlayerID)
	}
}

// TestRooms_OpeningIsLimitedPerAddress: an address that has opened its burst of rooms is
// refused a new one until its interval passes, while rooms already open still take it.
func TestRooms_OpeningIsLimitedPerAddress(t *testing.T) {
	srv := servertest.Start(t, func(c *server.Config) { c.RoomOpenBurst, c.RoomOpenEvery = 1, time.Hour })
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	a, err := client.DialRoom(ctx, srv.Addr, "opener", "a", nil, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close("test over")
	var rej *client.RejectedError
	if sess, err := client.DialRoom(ctx, srv.Addr, "opener", "b", nil, 5*time.Second); !errors.As(err, &rej) ||
		rej.Code != wire.RejectNoRoom || !strings.Contains(rej.Reason, "too recently") {
		if sess != nil {
			sess.Close("test over")
		}
		t.Errorf("a second new room from the same address: %v, want NO_ROOM, too recently", err)
	}
	for _, room := range []string{"a", ""} {
		sess, err := client.DialRoom(ctx, srv.Addr, "joiner", room, nil, 5*time.Second)
		if err != nil {
			t.Errorf("joining open room %q: %v", room, err)
			continue
		}
		sess.Close("test over")
	}
}

// TestRooms_DrainWaitsForEveryRoom: a drain with players in two rooms closes each room as
// its last player leaves, and is done only when both have.
func TestRooms_DrainWaitsForEveryRoom(t *testing.T) {
	if testing.Short() {
		t.Skip("plays two bots for a few seconds over loopback")
	}
	srv := servertest.Start(t, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	short := goBot(ctx, client.BotConfig{Addr: srv.Addr, Name: "short", Seed: 1, Duration: 1500 * time.Millisecond, Options: client.DefaultOptions()})
	// The long bot plays until the checks below are done, however slow the machine.
	longCtx, stopLong := context.WithCancel(ctx)
	defer stopLong()
	long := goBot(longCtx, client.BotConfig{Addr: srv.Addr, Name: "long", Room: "late-night", Seed: 2, Options: client.DefaultOptions()})
	for deadline := time.Now().Add(10 * time.Second); srv.Stats().Players < 2; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("only %d of 2 bots joined within 10 s", srv.Stats().Players)
		}
	}
	srv.Drain()
	if res := <-short; res.err != nil {
		t.Fatalf("the default room's bot: %v", res.err)
	}
	waitRooms(t, srv, 1) // the default room closes with its last player
	select {
	case <-srv.Drained():
		t.Fatal("drained while a player still plays in room late-night")
	default:
	}
	if r := srv.Stats().Rooms; len(r) != 1 || r[0].Name != "late-night" || r[0].Players != 1 {
		t.Errorf("rooms %+v, want late-night alone with its player", r)
	}
	stopLong()
	if res := <-long; res.err != nil {
		t.Fatalf("room late-night's bot: %v", res.err)
	}
	select {
	case <-srv.Drained():
	case <-time.After(10 * time.Second):
		t.Fatalf("not drained 10 s after the last player left (rooms %+v)", srv.Stats().Rooms)
	}
	if n := srv.Rooms(); n != 0 {
		t.Errorf("%d rooms open after the drain, want none", n)
	}
}

// waitRooms waits up to 10 s for srv to have n rooms open.
func waitRooms(t *testing.T, srv *servertest.Server, n int) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); srv.Rooms() != n; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d rooms open after 10 s, want %d: %+v", srv.Rooms(), n, srv.Stats().Rooms)
		}
	}
}

// TestRooms_OneAddressHoldsAFewRoomsAtMost: an address that has opened its share of rooms
// still open is refused another, however slowly it asks, until one of its rooms closes.
func TestRooms_OneAddressHoldsAFewRoomsAtMost(t *testing.T) {
	srv := servertest.Start(t, func(c *server.Config) { c.MaxRoomsPerAddress, c.RoomGrace = 1, 0 })
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	a, err := client.DialRoom(ctx, srv.Addr, "opener", "a", nil, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	var rej *client.RejectedError
	if sess, err := client.DialRoom(ctx, srv.Addr, "opener", "b", nil, 5*time.Second); !errors.As(err, &rej) ||
		rej.Code != wire.RejectNoRoom || !strings.Contains(rej.Reason, "already opened 1 rooms") {
		if sess != nil {
			sess.Close("test over")
		}
		t.Errorf("a second room from an address holding one: %v, want NO_ROOM, already opened", err)
	}
	a.Close("bye")
	waitRooms(t, srv, 1)
	b, err := client.DialRoom(ctx, srv.Addr, "opener", "b", nil, 5*time.Second)
	if err != nil {
		t.Fatalf("once its room closed, the address may open another: %v", err)
	}
	b.Close("test over")
}

// listeningCheck is a log handler that, as the server says it is listening, notes whether
// its Stats have the default room open then, and closes said.
type listeningCheck struct {
	srv     *server.Server
	said    chan struct{}
	hadRoom bool // written before said closes
}

func (h *listeningCheck) Enabled(context.Context, slog.Level) bool { return true }
func (h *listeningCheck) WithAttrs([]slog.Attr) slog.Handler       { return h }
func (h *listeningCheck) WithGroup(string) slog.Handler            { return h }

func (h *listeningCheck) Handle(_ context.Context, r slog.Record) error {
	if r.Message == "server listening" {
		for _, room := range h.srv.Stats().Rooms {
			h.hadRoom = h.hadRoom || room.Name == server.DefaultRoom
		}
		close(h.said)
	}
	return nil
}

// TestRooms_TheDefaultRoomIsOpenWhenTheServerSaysItListens: a server that has said it is
// listening has its default room open (PROTOCOL.md §4.2), so its counts and metrics have
// the room from the first look (§11), not a moment later.
func TestRooms_TheDefaultRoomIsOpenWhenTheServerSaysItListens(t *testing.T) {
	check := &listeningCheck{said: make(chan struct{})}
	cfg := server.DefaultConfig()
	cfg.Logger = slog.New(check)
	srv, err := server.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	check.srv = srv
	pc, err := net.ListenPacket("udp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ctx, pc) }()
	select {
	case <-check.said:
	case err := <-served:
		t.Fatalf("the server stopped before it said it listens: %v", err)
	case <-time.After(30 * time.Second):
		cancel()
		t.Fatal("the server never said it listens")
	}
	cancel()
	if err := <-served; err != nil {
		t.Fatal(err)
	}
	if !check.hadRoom {
		t.Error("the server said it was listening before its default room was open")
	}
}
