package discovery

import (
	"encoding/binary"
	"fmt"
)

// The answer's flag bits (byte 23); the others are sent as zero and ignored.
const flagDraining = 0x01

// maxCount bounds every count and port an answer carries: each is two bytes.
const maxCount = 0xffff

// AppendAnswer appends a's bytes to dst, taking at most budget bytes (a Request's Budget):
// the open rooms that do not fit are left out of the list, in order from the last, and
// still counted in RoomsOpen. It fails when a holds a value the layout cannot carry or
// when budget is too small for the fixed fields and the name.
func AppendAnswer(dst []byte, a Answer, budget int) ([]byte, error) {
	if err := a.check(); err != nil {
		return dst, err
	}
	if need := answerFixed + len(a.Name); budget < need {
		return dst, fmt.Errorf("discovery: an answer takes at least %d bytes, the budget is %d", need, budget)
	}
	start := len(dst)
	dst = appendHeader(dst, kindAnswer, a.Nonce)
	dst = binary.LittleEndian.AppendUint64(dst, a.ServerID)
	var flags byte
	if a.Draining {
		flags |= flagDraining
	}
	dst = append(dst, a.GameProtocol, flags)
	for _, v := range []int{int(a.GamePort), int(a.WebPort), a.RoomCapacity, a.MaxRooms, a.RoomsOpen, a.Players} {
		dst = binary.LittleEndian.AppendUint16(dst, uint16(v))
	}
	dst = append(dst, byte(len(a.Name)))
	dst = append(dst, a.Name...)
	countAt := len(dst)
	dst = append(dst, 0)
	listed := 0
	for _, r := range a.Rooms {
		if len(dst)-start+1+len(r.Name)+2 > budget || listed == 0xff {
			break
		}
		dst = append(dst, byte(len(r.Name)))
		dst = append(dst, r.Name...)
		dst = binary.LittleEndian.AppendUint16(dst, uint16(r.Players))
		listed++
	}
	dst[countAt] = byte(listed)
	return dst, nil
}

// check reports the first value of a the layout cannot carry.
func (a Answer) check() error {
	if err := checkName("server name", a.Name); err != nil {
		return err
	}
	for _, c := range []struct {
		what string
		n    int
	}{{"room capacity", a.RoomCapacity}, {"max rooms", a.MaxRooms}, {"rooms open", a.RoomsOpen}, {"players", a.Players}} {
		if c.n < 0 || c.n > maxCount {
			return fmt.Errorf("discovery: %s %d out of 0 to %d", c.what, c.n, maxCount)
		}
	}
	if len(a.Rooms) > a.RoomsOpen {
		return fmt.Errorf("discovery: %d rooms listed but %d open", len(a.Rooms), a.RoomsOpen)
	}
	for _, r := range a.Rooms {
		if err := checkName("room name", r.Name); err != nil {
			return err
		}
		if r.Name == "" || r.Players < 0 || r.Players > maxCount {
			return fmt.Errorf("discovery: room %q: empty name or %d players out of 0 to %d", r.Name, r.Players, maxCount)
		}
	}
	return nil
}

// CheckName reports why s cannot be a server's name in an answer: longer than MaxName
// bytes, or not printable UTF-8.
func CheckName(s string) error { return checkName("server name", s) }

// checkName reports why s cannot be sent as a name.
func checkName(what, s string) error {
	if len(s) > MaxName {
		return fmt.Errorf("discovery: %s of %d bytes, at most %d", what, len(s), MaxName)
	}
	if !printable(s) {
		return fmt.Errorf("discovery: %s %q is not printable UTF-8", what, s)
	}
	return nil
}

// ParseAnswer reads an answer, checking every length, name and count; bytes after the
// listed rooms are ignored (a later version may add fields there).
func ParseAnswer(b []byte) (Answer, error) {
	nonce, err := parseHeader(b, kindAnswer)
	if err != nil {
		return Answer{}, err
	}
	r := reader{b: b, at: headerSize}
	a := Answer{Nonce: nonce, ServerID: r.u64(), GameProtocol: r.u8()}
	a.Draining = r.u8()&flagDraining != 0
	a.GamePort, a.WebPort = r.u16(), r.u16()
	a.RoomCapacity, a.MaxRooms = int(r.u16()), int(r.u16())
	a.RoomsOpen, a.Players = int(r.u16()), int(r.u16())
	a.Name = r.name()
	listed := int(r.u8())
	if r.err == nil && listed > a.RoomsOpen {
		r.fail("%d rooms listed but %d open", listed, a.RoomsOpen)
	}
	for i := 0; i < listed && r.err == nil; i++ {
		room := Room{Name: r.name(), Players: int(r.u16())}
		if r.err == nil && room.Name == "" {
			r.fail("room %d has an empty name", i)
		}
		a.Rooms = append(a.Rooms, room)
	}
	if r.err != nil {
		return Answer{}, r.err
	}
	return a, nil
}
