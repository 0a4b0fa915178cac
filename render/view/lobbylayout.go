package view

import (
	"fmt"
	"slices"
	"time"

	"tanknet/discovery"
)

// LobbyRow is one line of the lobby's list of servers: a server's heading (Item -1), one of
// its rooms, or its new-room field.
type LobbyRow struct {
	Text  string
	Style Style
	Item  int  // the item the row shows, or -1 for a heading or a note
	Field bool // the row ends in a text field: the cursor goes after Text when it has the focus
}

// ListRows returns the list's lines: for each server a heading (its name, address, players
// and rooms), its rooms with their players and capacity, and its new-room field; a note
// when there are none.
func (l *Lobby) ListRows() []LobbyRow {
	var rows []LobbyRow
	item := 1 // items[0] is the name field
	for _, s := range l.servers {
		rows = append(rows, serverHeading(s))
		for _, r := range s.Rooms {
			rows = append(rows, roomRow(r, s.RoomCapacity, item))
			item++
		}
		if unlisted := s.RoomsOpen - len(s.Rooms); unlisted > 0 {
			rows = append(rows, LobbyRow{Text: fmt.Sprintf("    (%d more rooms did not fit the answer)", unlisted), Style: Dim, Item: -1})
		}
		rows = append(rows, LobbyRow{Text: "    + new room: " + l.newRooms[s.ID], Style: Dim, Item: item, Field: true})
		item++
	}
	switch {
	case len(l.servers) > 0:
	case l.searchOf != "":
		rows = append(rows, LobbyRow{Text: l.searchOf, Style: Warn, Item: -1})
	case l.rounds == 0:
		rows = append(rows, LobbyRow{Text: "looking for servers on this network …", Style: Dim, Item: -1})
	default:
		rows = append(rows, LobbyRow{Text: "no server answered: start one (make server), or type its address below", Style: Dim, Item: -1})
	}
	return rows
}

// serverHeading is a server's line: its name, where it plays, how full it is, and whether
// it is draining.
func serverHeading(s discovery.Server) LobbyRow {
	text := fmt.Sprintf("%s   %s   %s in %d of %d rooms", s.Name, s.Game, count(s.Players, "player"), s.RoomsOpen, s.MaxRooms)
	if s.Draining {
		return LobbyRow{Text: text + "   draining: no new players", Style: Warn, Item: -1}
	}
	return LobbyRow{Text: text, Style: Heading, Item: -1}
}

// roomRow is a room's line: its name, players and capacity, and whether it is full.
func roomRow(r discovery.Room, capacity, item int) LobbyRow {
	row := LobbyRow{Text: fmt.Sprintf("    %-24s %3d / %d players", r.Name, r.Players, capacity), Style: Plain, Item: item}
	if capacity > 0 && r.Players >= capacity {
		row.Text, row.Style = row.Text+"   full", Warn
	}
	return row
}

// count is n things, in words: "1 player", "3 players".
func count(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// LobbyPlaces is where the lobby's parts go in a window.
type LobbyPlaces struct {
	Title        Rect // "tanknet lobby" and what discovery asks
	NameField    Rect // the player's name (its label to the left)
	List         Rect // the servers' rows, RowH apart
	RowH         float64
	Rows         int  // how many rows the list shows at once
	AddressField Rect // an address typed by hand (its label to the left)
	Join, Quit   Rect // the buttons
	Status       Rect // joining, or why a join failed
	Keys         Rect // the keys, one line
	LabelW       float64
}

// Lobby layout in pixels: a margin, the width of a field's label and the buttons' size.
const (
	lobbyMargin = 24
	lobbyLabelW = 150
	buttonW     = 96
	buttonH     = 28
)

// PlaceLobby lays the lobby out in a window of w x h pixels whose text lines are lineH
// pixels apart.
func PlaceLobby(w, h, lineH float64) LobbyPlaces {
	m := float64(lobbyMargin)
	inner := max(w-2*m, 1)
	labelW := min(lobbyLabelW, inner*0.3) // a narrow window keeps most of its width for the fields
	fieldW := max(min(inner-labelW, 420), 1)
	bw := max(min(buttonW, (inner-labelW-12)/2), 1)
	rowH := lineH + 7
	p := LobbyPlaces{RowH: rowH, LabelW: labelW}
	p.Title = Rect{X: m, Y: m, W: inner, H: 2 * lineH}
	p.NameField = Rect{X: m + labelW, Y: p.Title.Y + p.Title.H + 12, W: fieldW, H: rowH}
	listY := p.NameField.Y + rowH + 16 + lineH // a heading line above the list
	bottom := h - m - 3*lineH - buttonH - rowH - 36
	p.Rows = max(int((bottom-listY)/rowH), 1)
	p.List = Rect{X: m, Y: listY, W: inner, H: float64(p.Rows) * rowH}
	p.AddressField = Rect{X: m + labelW, Y: p.List.Y + p.List.H + 12, W: fieldW, H: rowH}
	by := p.AddressField.Y + rowH + 12
	p.Join = Rect{X: m + labelW, Y: by, W: bw, H: buttonH}
	p.Quit = Rect{X: p.Join.X + bw + 12, Y: by, W: bw, H: buttonH}
	p.Status = Rect{X: m, Y: by + buttonH + 12, W: inner, H: lineH}
	p.Keys = Rect{X: m, Y: p.Status.Y + lineH + 8, W: inner, H: lineH}
	return p
}

// Row returns where visible list row i (0: the first shown) goes.
func (p LobbyPlaces) Row(i int) Rect {
	return Rect{X: p.List.X, Y: p.List.Y + float64(i)*p.RowH, W: p.List.W, H: p.RowH}
}

// ListTop returns the first of rows to show in a list of capacity rows: where it was, moved
// just enough that the focused item's row shows. It remembers it for the next frame.
func (l *Lobby) ListTop(rows []LobbyRow, capacity int) int {
	at := slices.IndexFunc(rows, func(r LobbyRow) bool { return r.Item == l.focus })
	if at >= 0 {
		if at < l.top {
			l.top = at
			if at > 0 && rows[at-1].Item < 0 {
				l.top = at - 1 // with its server's heading
			}
		}
		if at >= l.top+capacity {
			l.top = at - capacity + 1
		}
	}
	l.top = max(min(l.top, len(rows)-capacity), 0)
	return l.top
}

// TargetAt returns what a click at (x, y) lands on, in a lobby laid out at p whose list
// shows rows from top.
func (l *Lobby) TargetAt(p LobbyPlaces, rows []LobbyRow, top int, x, y float64) LobbyTarget {
	switch {
	case p.NameField.Contains(x, y):
		return LobbyTarget{Kind: TargetItem, Item: 0}
	case p.AddressField.Contains(x, y):
		return LobbyTarget{Kind: TargetItem, Item: len(l.items) - 1}
	case p.Join.Contains(x, y):
		return LobbyTarget{Kind: TargetJoin}
	case p.Quit.Contains(x, y):
		return LobbyTarget{Kind: TargetQuit}
	case p.List.Contains(x, y):
		i := top + int((y-p.List.Y)/p.RowH)
		if i < len(rows) && rows[i].Item >= 0 {
			return LobbyTarget{Kind: TargetItem, Item: rows[i].Item}
		}
	}
	return LobbyTarget{}
}

// Asking says how many servers answered and how often discovery asks (refresh).
func (l *Lobby) Asking(refresh time.Duration) string {
	return fmt.Sprintf("%s found, asking every %v", count(len(l.servers), "server"), refresh)
}

// LobbyKeys is the lobby's line of keys.
const LobbyKeys = "↑ ↓ choose   Tab next field   type to edit   Enter join   click a row, Join   Esc / F10 quit"

// LobbyMatchHelp is the key help (F1) of a match started from the lobby: the single
// window's, Esc going back to the lobby and F10 quitting.
func LobbyMatchHelp() []Line {
	ls := slices.Clone(Help(false))
	i := slices.IndexFunc(ls, func(l Line) bool { return l.Text == escQuit })
	if i < 0 {
		return ls
	}
	ls[i].Text = "Esc          back to the lobby (Esc there quits)"
	return slices.Insert(ls, i+1, Line{"F10          quit", Plain})
}
