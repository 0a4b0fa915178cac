package view

import (
	"fmt"
	"net/netip"
	"slices"
	"strings"
	"testing"

	"tanknet/discovery"
)

// lanServer is a server as discovery reports it, on 127.0.0.1:port, with rooms named and
// filled as given ("red:3").
func lanServer(id, name string, port uint16, rooms ...string) discovery.Server {
	s := discovery.Server{ID: id, Name: name, Game: netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), port),
		RoomCapacity: 16, MaxRooms: 8, Rooms: []discovery.Room{}}
	for _, r := range rooms {
		n, p, _ := strings.Cut(r, ":")
		var players int
		fmt.Sscan(p, &players)
		s.Rooms = append(s.Rooms, discovery.Room{Name: n, Players: players})
		s.Players += players
	}
	s.RoomsOpen = len(s.Rooms)
	return s
}

func twoServers() []discovery.Server {
	return []discovery.Server{
		lanServer("a1", "alpha", 7001, "default:3", "red:2"),
		lanServer("b2", "bravo", 7002, "default:0"),
	}
}

// keys is a LobbyInput of the named keys pressed.
func keys(names ...string) LobbyInput {
	var in LobbyInput
	for _, n := range names {
		switch n {
		case "up":
			in.Up = true
		case "down":
			in.Down = true
		case "tab":
			in.Tab = true
		case "shift-tab":
			in.Back = true
		case "enter":
			in.Enter = true
		case "backspace":
			in.Backspace = true
		case "esc":
			in.Escape = true
		case "f10":
			in.F10 = true
		default:
			in.Chars = []rune(n)
		}
	}
	return in
}

// TestLobby_FirstListFocusesTheFirstRoom: before the player chooses anything, the first list
// puts the focus on its first room, so Enter alone joins it.
func TestLobby_FirstListFocusesTheFirstRoom(t *testing.T) {
	l := NewLobby("ada")
	if got := l.Focused().Kind; got != ItemName {
		t.Fatalf("focus before any list: %v, want the name field", got)
	}
	l.SetServers(twoServers())
	want := LobbyItem{Kind: ItemRoom, Server: "a1", Room: "default"}
	if l.Focused() != want {
		t.Fatalf("focus after the first list: %+v, want %+v", l.Focused(), want)
	}
	act, j := l.Update(keys("enter"))
	if act != LobbyJoin || j != (Join{Addr: "127.0.0.1:7001", Room: "default", Name: "ada", Label: "alpha / default"}) {
		t.Errorf("Enter: %v %+v, want to join alpha's default room as ada", act, j)
	}
	if !l.Joining() {
		t.Error("the lobby does not say it is joining")
	}
}

// TestLobby_Keys: a step table of keys and what has the focus after each, and what Enter
// then joins.
func TestLobby_Keys(t *testing.T) {
	l := NewLobby("ada")
	l.SetServers(twoServers())
	steps := []struct {
		key  string
		want LobbyItem
	}{
		{"down", LobbyItem{ItemRoom, "a1", "red"}},
		{"down", LobbyItem{ItemNewRoom, "a1", ""}},
		{"down", LobbyItem{ItemRoom, "b2", "default"}},
		{"down", LobbyItem{ItemNewRoom, "b2", ""}},
		{"down", LobbyItem{ItemAddress, "", ""}},
		{"down", LobbyItem{ItemAddress, "", ""}}, // the last item stays
		{"tab", LobbyItem{ItemName, "", ""}},     // Tab goes round: address, name
		{"tab", LobbyItem{ItemRoom, "a1", "default"}},
		{"tab", LobbyItem{ItemAddress, "", ""}},
		{"shift-tab", LobbyItem{ItemRoom, "a1", "default"}},
		{"up", LobbyItem{ItemName, "", ""}},
		{"up", LobbyItem{ItemName, "", ""}},
	}
	for i, s := range steps {
		if act, _ := l.Update(keys(s.key)); act != LobbyStay {
			t.Fatalf("step %d (%s): action %v, want none", i, s.key, act)
		}
		if l.Focused() != s.want {
			t.Fatalf("step %d (%s): focus %+v, want %+v", i, s.key, l.Focused(), s.want)
		}
	}
	l.Update(keys("enter")) // from the name field, on to the list
	l.Update(keys("down"))
	if act, j := l.Update(keys("enter")); act != LobbyJoin || j.Room != "red" || j.Addr != "127.0.0.1:7001" {
		t.Errorf("Enter on alpha's red: %v %+v", act, j)
	}
}

// TestLobby_Typing: characters go into the focused field, filtered to what it may hold;
// Backspace takes the last one away; a new room's name joins as a room of its own.
func TestLobby_Typing(t *testing.T) {
	l := NewLobby("ada")
	l.SetServers(twoServers())
	l.Update(keys("shift-tab")) // the name field
	l.Update(keys("backspace"))
	l.Update(keys("backspace"))
	l.Update(keys("é b"))
	if l.Name != "aé b" {
		t.Errorf("name %q, want %q", l.Name, "aé b")
	}
	l.Update(keys("tab"))
	l.Update(keys("down"))
	l.Update(keys("down")) // alpha's new-room row
	l.Update(keys("my room!_2"))
	if got := l.NewRoom("a1"); got != "myroom_2" {
		t.Errorf("new room %q, want the room-name characters alone, %q", got, "myroom_2")
	}
	act, j := l.Update(keys("enter"))
	if act != LobbyJoin || j.Room != "myroom_2" || j.Addr != "127.0.0.1:7001" || j.Name != "aé b" {
		t.Errorf("Enter on the new room: %v %+v", act, j)
	}
	l.JoinDone(fmt.Errorf("client: rejected: the server runs 8 rooms"))
	if msg, failed := l.Status(); !failed || !strings.Contains(msg, "rejected") || l.Joining() {
		t.Errorf("after a failed join: status %q (error %v), joining %v; want the reason shown", msg, failed, l.Joining())
	}
}

// TestLobby_Address: an address typed by hand joins its default room; one without a port gets
// tankserver's, and one that is no address says why without dialling.
func TestLobby_Address(t *testing.T) {
	l := NewLobby("ada")
	l.Update(keys("tab")) // no servers: name, address
	if l.Focused().Kind != ItemAddress {
		t.Fatalf("Tab with no servers: focus %+v, want the address field", l.Focused())
	}
	l.Update(keys("192.168.1.20"))
	if act, j := l.Update(keys("enter")); act != LobbyJoin || j.Addr != "192.168.1.20:7777" || j.Room != "" {
		t.Errorf("Enter on 192.168.1.20: %v %+v, want its port 7777 and default room", act, j)
	}
	l.JoinDone(nil)
	for _, typed := range []string{":7777", "host:0", "host:99999", "a:b:c"} {
		l.Address = typed
		if act, _ := l.Update(keys("enter")); act != LobbyStay {
			t.Errorf("Enter on %q: %v, want no dial", typed, act)
		}
		if msg, failed := l.Status(); !failed || !strings.Contains(msg, "not an address") {
			t.Errorf("Enter on %q: status %q, want why it is not an address", typed, msg)
		}
	}
}

// TestLobby_Refuses: no join without a name, on a draining server, or to a new room without
// a name.
func TestLobby_Refuses(t *testing.T) {
	list := twoServers()
	list[1].Draining = true
	cases := []struct {
		name  string
		moves []string
		say   string
	}{
		{"no name", []string{"shift-tab", "backspace", "backspace", "backspace", "tab"}, "type your name"},
		{"draining", []string{"down", "down", "down"}, "draining"},
		{"unnamed new room", []string{"down", "down"}, "new room's name"},
	}
	for _, c := range cases {
		l := NewLobby("ada")
		l.SetServers(list)
		for _, m := range c.moves {
			l.Update(keys(m))
		}
		act, _ := l.Update(keys("enter"))
		if msg, _ := l.Status(); act != LobbyStay || !strings.Contains(msg, c.say) {
			t.Errorf("%s: %v, status %q; want no dial and a sentence with %q", c.name, act, msg, c.say)
		}
	}
}

// TestLobby_EscAndF10: Esc cancels a join under way and otherwise quits; F10 quits always.
func TestLobby_EscAndF10(t *testing.T) {
	l := NewLobby("ada")
	l.SetServers(twoServers())
	l.Update(keys("enter"))
	if act, _ := l.Update(keys("down")); act != LobbyStay || l.Focused().Room != "default" {
		t.Errorf("keys while joining: %v, focus %+v; want them ignored", act, l.Focused())
	}
	if act, _ := l.Update(keys("esc")); act != LobbyCancel || l.Joining() {
		t.Errorf("Esc while joining: %v (joining %v), want the join cancelled", act, l.Joining())
	}
	if act, _ := l.Update(keys("esc")); act != LobbyQuit {
		t.Errorf("Esc in the lobby: %v, want quit", act)
	}
	l.Update(keys("enter"))
	if act, _ := l.Update(keys("f10")); act != LobbyQuit {
		t.Errorf("F10 while joining: %v, want quit", act)
	}
}

// TestLobby_Refresh: a refreshed list keeps the focus on its item and what was typed; a
// room that closed moves the focus to its server's first item; a server that stopped
// leaves the list, and the focus goes to the item now at its place.
func TestLobby_Refresh(t *testing.T) {
	l := NewLobby("ada")
	l.SetServers(twoServers())
	l.Update(keys("down")) // alpha's red
	list := twoServers()
	list = append([]discovery.Server{lanServer("0c", "aardvark", 7003, "default:1")}, list...)
	list[1].Rooms[0].Players = 9
	l.SetServers(list)
	if want := (LobbyItem{ItemRoom, "a1", "red"}); l.Focused() != want {
		t.Fatalf("after a server joined the list above: focus %+v, want %+v", l.Focused(), want)
	}
	if rows := l.ListRows(); !slices.ContainsFunc(rows, func(r LobbyRow) bool { return strings.Contains(r.Text, "  9 / 16") }) {
		t.Errorf("refreshed counts not shown: %+v", rows)
	}

	list[1].Rooms = list[1].Rooms[:1] // red closed
	l.SetServers(list)
	if want := (LobbyItem{ItemRoom, "a1", "default"}); l.Focused() != want {
		t.Errorf("after its room closed: focus %+v, want %+v", l.Focused(), want)
	}

	l.Update(keys("down")) // alpha's new room
	l.Update(keys("blue"))
	l.SetServers(list)
	if l.NewRoom("a1") != "blue" || l.Focused().Kind != ItemNewRoom {
		t.Errorf("a refresh lost the new room typed: %q, focus %+v", l.NewRoom("a1"), l.Focused())
	}
	at := l.FocusIndex()
	l.SetServers([]discovery.Server{list[0], list[2]}) // alpha stopped
	if slices.ContainsFunc(l.Items(), func(it LobbyItem) bool { return it.Server == "a1" }) || l.NewRoom("a1") != "" {
		t.Error("a server that stopped answering is still listed")
	}
	if l.FocusIndex() != min(at, len(l.Items())-1) {
		t.Errorf("focus %d after alpha left, want the item now at %d", l.FocusIndex(), at)
	}
	l.SetServers(nil)
	if got := l.ListRows(); len(got) != 1 || !strings.Contains(got[0].Text, "no server answered") {
		t.Errorf("rows with every server gone: %+v, want the note alone", got)
	}
}

// TestLobby_Clicks: a click on a row or a field focuses it; the buttons join and quit; the
// list scrolls to keep the focus in sight, and clicks land on the rows shown.
func TestLobby_Clicks(t *testing.T) {
	l := NewLobby("ada")
	var list []discovery.Server
	for i := range 10 {
		list = append(list, lanServer(fmt.Sprintf("%02d", i), fmt.Sprintf("lan-%02d", i), uint16(7000+i), "default:1", "red:0"))
	}
	l.SetServers(list)
	p := PlaceLobby(1200, 640, 17)
	rows := l.ListRows()
	if len(rows) <= p.Rows {
		t.Fatalf("%d rows fit in %d: the test wants a list that scrolls", len(rows), p.Rows)
	}
	centre := func(r Rect) (float64, float64) { return r.X + r.W/2, r.Y + r.H/2 }
	top := l.ListTop(rows, p.Rows)
	x, y := centre(p.Row(2)) // lan-00's red
	l.Update(LobbyInput{Click: l.TargetAt(p, rows, top, x, y)})
	if want := (LobbyItem{ItemRoom, "00", "red"}); l.Focused() != want {
		t.Errorf("click on the third row: focus %+v, want %+v", l.Focused(), want)
	}
	for range 20 {
		l.Update(keys("down"))
	}
	top = l.ListTop(rows, p.Rows)
	at := slices.IndexFunc(rows, func(r LobbyRow) bool { return r.Item == l.FocusIndex() })
	if at < top || at >= top+p.Rows || top == 0 {
		t.Errorf("focused row %d outside the rows shown, %d to %d", at, top, top+p.Rows-1)
	}
	x, y = centre(p.Row(at - top))
	if got := l.TargetAt(p, rows, top, x, y); got != (LobbyTarget{Kind: TargetItem, Item: l.FocusIndex()}) {
		t.Errorf("click on the focused row after scrolling: %+v, want its item %d", got, l.FocusIndex())
	}
	x, y = centre(p.NameField)
	l.Update(LobbyInput{Click: l.TargetAt(p, rows, top, x, y)})
	if l.Focused().Kind != ItemName {
		t.Errorf("click on the name field: focus %+v", l.Focused())
	}
	l.Update(keys("tab"))
	x, y = centre(p.Join)
	if act, j := l.Update(LobbyInput{Click: l.TargetAt(p, rows, top, x, y)}); act != LobbyJoin || j.Room != "default" {
		t.Errorf("click on Join: %v %+v, want the focused room joined", act, j)
	}
	x, y = centre(p.Quit)
	if act, _ := l.Update(LobbyInput{Click: l.TargetAt(p, rows, top, x, y)}); act != LobbyQuit {
		t.Errorf("click on Quit: %v", act)
	}
}

// TestPlaceLobby: every part lies inside the window and below the one before, at the
// default size and the smallest the window allows.
func TestPlaceLobby(t *testing.T) {
	for _, size := range [][2]float64{{1200, 640}, {800, 450}, {200, 150}} {
		w, h := size[0], size[1]
		p := PlaceLobby(w, h, 17)
		parts := []Rect{p.Title, p.NameField, p.List, p.AddressField, p.Join, p.Status, p.Keys}
		if p.Quit.X < p.Join.X+p.Join.W || p.Quit.X+p.Quit.W > w {
			t.Errorf("%vx%v: Quit at %+v, over Join or outside the window", w, h, p.Quit)
		}
		for i, r := range parts {
			if r.X < 0 || r.X+r.W > w || (i > 0 && r.Y < parts[i-1].Y+parts[i-1].H) {
				t.Errorf("%vx%v: part %d at %+v, outside the window or over the part above", w, h, i, r)
			}
		}
		if h >= 450 && p.Keys.Y+p.Keys.H > h {
			t.Errorf("%vx%v: the keys line at %v falls off the window", w, h, p.Keys.Y)
		}
	}
}

// TestLobbyMatchHelp: a match from the lobby lists Esc as the way back and F10 as quitting.
func TestLobbyMatchHelp(t *testing.T) {
	var text []string
	for _, l := range LobbyMatchHelp() {
		text = append(text, l.Text)
	}
	all := strings.Join(text, "\n")
	if !strings.Contains(all, "Esc          back to the lobby") || !strings.Contains(all, "F10          quit") || strings.Contains(all, escQuit+"\n") {
		t.Errorf("help:\n%s\nwant Esc back to the lobby and F10 quit", all)
	}
}

// BenchmarkLobbyRefresh10 is what a refresh of ten servers of three rooms costs the window's
// goroutine: taking the list, and the rows of the next frame.
func BenchmarkLobbyRefresh10(b *testing.B) {
	var list []discovery.Server
	for i := range 10 {
		list = append(list, lanServer(fmt.Sprintf("%02d", i), fmt.Sprintf("lan-%02d", i), uint16(7000+i), "default:3", "red:1", "blue:0"))
	}
	l := NewLobby("ada")
	b.ReportAllocs()
	for b.Loop() {
		l.SetServers(list)
		_ = l.ListTop(l.ListRows(), 20)
	}
}
