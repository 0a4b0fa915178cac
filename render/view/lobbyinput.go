package view

import (
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"tanknet/wire"
)

// LobbyInput is what the player did in the lobby in one tick: the keys pressed (not held),
// the characters typed and what a click landed on.
type LobbyInput struct {
	Up, Down    bool // move the focus one item
	Tab, Back   bool // Tab (Back: Shift+Tab) moves to the next (previous) group: name, servers, address
	Enter       bool // join what has the focus
	Backspace   bool // delete the focused field's last character
	Escape, F10 bool // Escape cancels a join under way, else quits; F10 quits
	Chars       []rune
	Click       LobbyTarget // where a click landed; LobbyTarget{} for none
}

// LobbyTarget is what a click in the lobby can land on.
type LobbyTarget struct {
	Kind TargetKind
	Item int // the item, for TargetItem
}

// TargetKind is a kind of LobbyTarget.
type TargetKind int

const (
	TargetNone TargetKind = iota
	TargetItem            // a field or a room row: it takes the focus
	TargetJoin            // the Join button: Enter
	TargetQuit            // the Quit button: F10
)

// LobbyAction is what the window must do after a tick of the lobby.
type LobbyAction int

const (
	LobbyStay   LobbyAction = iota // nothing beyond drawing the lobby
	LobbyJoin                      // dial Lobby.Join in the background; then call JoinDone
	LobbyCancel                    // give up the join under way
	LobbyQuit                      // close the window
)

// Join is a room to join: the server's game address, the room ("": its default room), the
// player's name and how the lobby names it to the player.
type Join struct {
	Addr, Room, Name, Label string
}

// DefaultGamePort is the port an address typed without one gets: tankserver's default.
const DefaultGamePort = 7777

// Limits of the fields, in bytes: the server shortens longer names (32 bytes) and refuses
// longer room names, and no host and port is longer than a DNS name and a port.
const (
	maxPlayerName = 32
	maxRoomName   = wire.MaxRoomName
	maxAddress    = 253 + 6
)

// Update applies one tick's input and returns what the window must do; with LobbyJoin, join
// is what to dial, and the lobby shows that it is joining until JoinDone.
func (l *Lobby) Update(in LobbyInput) (act LobbyAction, join Join) {
	if in.F10 || in.Click.Kind == TargetQuit {
		return LobbyQuit, Join{}
	}
	if l.joining {
		if in.Escape {
			l.joining = false
			l.status, l.failed = "join cancelled", false
			return LobbyCancel, Join{}
		}
		return LobbyStay, Join{}
	}
	if in.Escape {
		return LobbyQuit, Join{}
	}
	l.move(in)
	l.edit(in)
	if in.Enter || in.Click.Kind == TargetJoin {
		return l.enter()
	}
	return LobbyStay, Join{}
}

// move moves the focus for the arrows, Tab and a click.
func (l *Lobby) move(in LobbyInput) {
	at := l.focus
	switch {
	case in.Click.Kind == TargetItem && in.Click.Item >= 0 && in.Click.Item < len(l.items):
		l.focus = in.Click.Item
	case in.Up:
		l.focus = max(l.focus-1, 0)
	case in.Down:
		l.focus = min(l.focus+1, len(l.items)-1)
	case in.Tab:
		l.focus = l.nextGroup(1)
	case in.Back:
		l.focus = l.nextGroup(-1)
	}
	l.touched = l.touched || l.focus != at
}

// nextGroup returns the item Tab (dir 1) or Shift+Tab (dir -1) moves to: the name field, the
// first item of the servers' list, the address field, round again. A list with no servers
// is skipped.
func (l *Lobby) nextGroup(dir int) int {
	last := len(l.items) - 1
	starts := []int{0}
	if last > 1 {
		starts = append(starts, 1)
	}
	starts = append(starts, last)
	g := 0
	for i, s := range starts {
		if l.focus >= s {
			g = i
		}
	}
	return starts[(g+dir+len(starts))%len(starts)]
}

// edit types the characters into the focused field, or deletes its last one.
func (l *Lobby) edit(in LobbyInput) {
	it := l.items[l.focus]
	var field *string
	var keep func(rune) bool
	limit := 0
	switch it.Kind {
	case ItemName:
		field, keep, limit = &l.Name, unicode.IsPrint, maxPlayerName
	case ItemAddress:
		field, keep, limit = &l.Address, addressRune, maxAddress
	case ItemNewRoom:
		typed := l.newRooms[it.Server]
		defer func() { l.newRooms[it.Server] = typed }()
		field, keep, limit = &typed, RoomRune, maxRoomName
	default:
		return
	}
	if in.Backspace && *field != "" {
		_, size := utf8.DecodeLastRuneInString(*field)
		*field = (*field)[:len(*field)-size]
		l.touched = true
	}
	for _, r := range in.Chars {
		if keep(r) && len(*field)+utf8.RuneLen(r) <= limit {
			*field += string(r)
			l.touched = true
		}
	}
}

// RoomRune reports whether r may be in a room name: ASCII letters, digits, '-' and '_'
// (PROTOCOL.md §4.2).
func RoomRune(r rune) bool {
	return r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_')
}

// addressRune reports whether r may be in a host:port: a DNS name's or an IP address's.
func addressRune(r rune) bool {
	return RoomRune(r) || strings.ContainsRune(".:[]", r)
}

// enter returns the join for the focused item, or moves on from the name field; a join that
// cannot be made says why in the status.
func (l *Lobby) enter() (LobbyAction, Join) {
	it := l.items[l.focus]
	if it.Kind == ItemName {
		l.focus = min(1, len(l.items)-1)
		l.touched = true
		return LobbyStay, Join{}
	}
	j, err := l.joinFor(it)
	if err != nil {
		l.status, l.failed = err.Error(), true
		return LobbyStay, Join{}
	}
	l.joining = true
	l.status, l.failed = "joining "+j.Label+" …", false
	return LobbyJoin, j
}

// joinFor returns the join for item it, or why there is none.
func (l *Lobby) joinFor(it LobbyItem) (Join, error) {
	name := strings.TrimSpace(l.Name)
	if name == "" {
		return Join{}, errors.New("type your name first: it goes above your tank")
	}
	if it.Kind == ItemAddress {
		addr, err := GameAddress(l.Address)
		return Join{Addr: addr, Name: name, Label: addr}, err
	}
	s, ok := l.server(it.Server)
	switch {
	case !ok:
		return Join{}, errors.New("that server has gone")
	case s.Draining:
		return Join{}, fmt.Errorf("%s is draining: it takes no new players", s.Name)
	}
	j := Join{Addr: s.Game.String(), Room: it.Room, Name: name, Label: s.Name + " / " + it.Room}
	if it.Kind == ItemNewRoom {
		j.Room = l.newRooms[it.Server]
		j.Label = s.Name + " / " + j.Room + " (new)"
		if j.Room == "" {
			return Join{}, errors.New("type the new room's name first: letters, digits, - and _")
		}
	}
	return j, nil
}

// GameAddress checks an address typed by hand, host:port, and gives one typed without a port
// DefaultGamePort.
func GameAddress(typed string) (string, error) {
	typed = strings.TrimSpace(typed)
	if typed == "" {
		return "", errors.New("type a server's address first: host:port, e.g. 192.168.1.20:7777")
	}
	host, port, err := net.SplitHostPort(typed)
	if err != nil && !strings.Contains(typed, ":") {
		host, port, err = typed, strconv.Itoa(DefaultGamePort), nil
	}
	if err != nil {
		return "", fmt.Errorf("%q is not an address: want host:port, e.g. 192.168.1.20:7777", typed)
	}
	if p, perr := strconv.Atoi(port); perr != nil || p < 1 || p > 65535 || host == "" {
		return "", fmt.Errorf("%q is not an address: want host:port with a port from 1 to 65535", typed)
	}
	return net.JoinHostPort(host, port), nil
}
