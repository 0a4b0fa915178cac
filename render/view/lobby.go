package view

import (
	"fmt"
	"slices"

	"tanknet/discovery"
)

// The lobby is what tankclient shows without -server: the servers LAN discovery finds, their
// rooms, a field for the player's name and one for an address typed by hand. Lobby holds
// what it shows and what has focus, and turns one tick's keys and clicks (LobbyInput) into
// what the window must do (LobbyAction); the window draws it (render/lobby.go) and dials.

// LobbyItemKind is what a lobby item is.
type LobbyItemKind int

const (
	ItemName    LobbyItemKind = iota // the player's name
	ItemRoom                         // an open room of a server: Enter joins it
	ItemNewRoom                      // a server's "new room" field: Enter opens the room typed there
	ItemAddress                      // a server's address typed by hand: Enter joins its default room
)

// LobbyItem is one thing the lobby can focus: a field or a room row.
type LobbyItem struct {
	Kind   LobbyItemKind
	Server string // the server's discovery ID, for a room or new-room row
	Room   string // the room's name, for a room row
}

// Lobby is the lobby's state. Its zero value is not usable: start from NewLobby. It is not
// safe for concurrent use; the window's goroutine owns it and hands refreshed lists to
// SetServers.
type Lobby struct {
	// Name is the player's name as typed; Address the address typed by hand.
	Name, Address string

	servers  []discovery.Server
	newRooms map[string]string // by server ID: the room name typed on its new-room row
	items    []LobbyItem
	focus    int  // index into items
	top      int  // the first list row shown (ListTop)
	rounds   int  // lists received so far
	joining  bool // a join is under way: only Esc (cancel) and F10 act
	status   string
	failed   bool // status is an error
	searchOf string
	touched  bool // the player has moved the focus or typed: refreshes no longer choose for them
}

// NewLobby returns a lobby with name in the name field and the focus on it, until a list
// with a room arrives before the player has chosen anything: then on its first room.
func NewLobby(name string) *Lobby {
	l := &Lobby{Name: name, newRooms: map[string]string{}}
	l.rebuild()
	return l
}

// Servers returns the servers of the latest list, in its order (by name, then ID).
func (l *Lobby) Servers() []discovery.Server { return l.servers }

// Items returns the focusable items in order: the name field, each server's rooms then its
// new-room field, and the address field.
func (l *Lobby) Items() []LobbyItem { return l.items }

// Focused returns the item with the focus; FocusIndex its index in Items.
func (l *Lobby) Focused() LobbyItem { return l.items[l.focus] }
func (l *Lobby) FocusIndex() int    { return l.focus }

// Rounds returns how many lists SetServers has taken: 0 until discovery's first round ends.
func (l *Lobby) Rounds() int { return l.rounds }

// Joining reports whether a join is under way.
func (l *Lobby) Joining() bool { return l.joining }

// Status returns the sentence under the list and whether it reports an error.
func (l *Lobby) Status() (string, bool) { return l.status, l.failed }

// SetServers takes a refreshed list from discovery: a server missing from it has stopped
// answering and leaves the lobby. The focus stays on the item it was on; when that item is
// gone (its server stopped, its room closed) it moves to the server's first remaining item,
// or to the item now at its place.
func (l *Lobby) SetServers(list []discovery.Server) {
	was, at := l.items[l.focus], l.focus
	l.servers = slices.Clone(list)
	l.rounds++
	for id := range l.newRooms {
		if !slices.ContainsFunc(list, func(s discovery.Server) bool { return s.ID == id }) {
			delete(l.newRooms, id) // a server that comes back starts with an empty field
		}
	}
	l.rebuild()
	switch i, j := slices.Index(l.items, was), l.firstOf(was.Server); {
	case !l.touched && len(l.items) > 2:
		l.focus = 1 // nobody has chosen yet: the first room, ready for Enter
	case i >= 0:
		l.focus = i
	case was.Server != "" && j >= 0:
		l.focus = j
	default:
		l.focus = min(at, len(l.items)-1)
	}
}

// SetBrowseError shows why the lobby cannot look for servers (the socket would not open): the
// address field still works.
func (l *Lobby) SetBrowseError(err error) {
	l.searchOf = fmt.Sprintf("cannot look for servers: %v", err)
}

// BrowseError returns the sentence SetBrowseError set, or "".
func (l *Lobby) BrowseError() string { return l.searchOf }

// rebuild lists the items for the current servers.
func (l *Lobby) rebuild() {
	l.items = append(l.items[:0], LobbyItem{Kind: ItemName})
	for _, s := range l.servers {
		for _, r := range s.Rooms {
			l.items = append(l.items, LobbyItem{Kind: ItemRoom, Server: s.ID, Room: r.Name})
		}
		l.items = append(l.items, LobbyItem{Kind: ItemNewRoom, Server: s.ID})
	}
	l.items = append(l.items, LobbyItem{Kind: ItemAddress})
	l.focus = min(l.focus, len(l.items)-1)
}

// firstOf returns the index of server id's first item, or -1.
func (l *Lobby) firstOf(id string) int {
	if id == "" {
		return -1
	}
	return slices.IndexFunc(l.items, func(it LobbyItem) bool { return it.Server == id })
}

// server returns the server with discovery ID id.
func (l *Lobby) server(id string) (discovery.Server, bool) {
	i := slices.IndexFunc(l.servers, func(s discovery.Server) bool { return s.ID == id })
	if i < 0 {
		return discovery.Server{}, false
	}
	return l.servers[i], true
}

// NewRoom returns the room name typed on server id's new-room row.
func (l *Lobby) NewRoom(id string) string { return l.newRooms[id] }

// JoinDone ends the join under way: with err nil the match starts (the window leaves the
// lobby), else err's sentence shows and the lobby stays.
func (l *Lobby) JoinDone(err error) {
	l.joining = false
	if err != nil {
		l.status, l.failed = err.Error(), true
		return
	}
	l.status, l.failed = "", false
}

// Back shows the lobby again after a match: why it ended when it failed (err), else that
// the player left it.
func (l *Lobby) Back(left string, err error) {
	l.joining = false
	if err != nil {
		l.status, l.failed = fmt.Sprintf("%s ended: %v", left, err), true
		return
	}
	l.status, l.failed = "left "+left, false
}
