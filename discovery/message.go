package discovery

import (
	"encoding/binary"
	"errors"
	"fmt"
	"unicode"
	"unicode/utf8"
)

// Handshake is the 64-bit number every discovery datagram starts with, drawn at random once
// for tanknet: a datagram of another game (or of tanknet's connect handshake) that reaches
// the port does not start with it and is dropped without an answer.
const Handshake uint64 = 0x0747e8b344d8dd9c

// Version is the discovery layout this package speaks (byte 9 of every datagram). It is
// not the game's protocol version, which an Answer carries.
const Version = 1

// The kind byte (byte 8) of each datagram.
const (
	kindRequest = 0x01
	kindAnswer  = 0x02
)

// Sizes, in bytes.
const (
	// headerSize is the handshake (8), kind (1), version (1) and nonce (4).
	headerSize = 14
	// MinRequest is the shortest request a server answers: long enough for an answer's
	// fixed fields and the longest server name, so every answer says at least who it is.
	MinRequest = 128
	// MaxDatagram is the longest datagram either side sends, and the most any answer may
	// take whatever the request's size: one datagram that needs no IP fragmentation on an
	// Ethernet or Wi-Fi LAN, as the game's own packets (PROTOCOL.md §1).
	MaxDatagram = 1200
	// MaxName is the longest server name and room name.
	MaxName = 32
	// answerFixed is the header, the fixed answer fields, the name's length byte and the
	// listed rooms' count byte.
	answerFixed = headerSize + 22 + 1 + 1
)

// MaxRatio is how many bytes an answer may have for each byte of the request it answers:
// none beyond the request's own size, so discovery amplifies nothing.
const MaxRatio = 1

// Request is what a client asks: its nonce, echoed by every answer, and the request's size
// on the wire, which bounds the answer's (Budget).
type Request struct {
	Nonce uint32
	Size  int
}

// Budget returns how many bytes an answer to r may take: its own size, at most MaxDatagram.
func (r Request) Budget() int { return min(r.Size*MaxRatio, MaxDatagram) }

// Room is one open room: its name and how many players are in it.
type Room struct {
	Name    string `json:"name"`
	Players int    `json:"players"`
}

// Answer is what a server says of itself. Rooms lists the open rooms that fit the
// request's budget, RoomsOpen counts them all.
type Answer struct {
	Nonce        uint32 // the request's
	ServerID     uint64 // drawn at random when the server starts: the same server seen twice
	Name         string // the server's name, printable UTF-8, at most MaxName bytes
	GameProtocol uint8  // the game protocol version its Hello must carry (PROTOCOL.md)
	Draining     bool   // it takes no new players (PROTOCOL.md §9)
	GamePort     uint16 // the game's UDP port, at the answer's source address
	WebPort      uint16 // the page's TCP port at the answer's source address; 0: no page
	RoomCapacity int    // players each room takes
	MaxRooms     int    // rooms that may be open at once
	RoomsOpen    int    // rooms open now (Agones' rooms counter)
	Players      int    // players in every room (Agones' players counter)
	Rooms        []Room // the open rooms, in the server's order, as many as fit
}

// Errors the decoders return; each is wrapped with the detail.
var (
	ErrForeign   = errors.New("discovery: not a tanknet discovery datagram")
	ErrVersion   = errors.New("discovery: another discovery version")
	ErrMalformed = errors.New("discovery: malformed datagram")
)

// AppendRequest appends a request with nonce, padded with zeros to size bytes (at least
// MinRequest, at most MaxDatagram), to dst.
func AppendRequest(dst []byte, nonce uint32, size int) ([]byte, error) {
	if size < MinRequest || size > MaxDatagram {
		return dst, fmt.Errorf("discovery: request size %d, want %d to %d bytes", size, MinRequest, MaxDatagram)
	}
	dst = appendHeader(dst, kindRequest, nonce)
	return append(dst, make([]byte, size-headerSize)...), nil
}

// ParseRequest reads a request. The padding's values are not read.
func ParseRequest(b []byte) (Request, error) {
	nonce, err := parseHeader(b, kindRequest)
	if err != nil {
		return Request{}, err
	}
	if len(b) < MinRequest {
		return Request{}, fmt.Errorf("%w: request of %d bytes, want at least %d", ErrMalformed, len(b), MinRequest)
	}
	return Request{Nonce: nonce, Size: len(b)}, nil
}

func appendHeader(dst []byte, kind byte, nonce uint32) []byte {
	dst = binary.LittleEndian.AppendUint64(dst, Handshake)
	dst = append(dst, kind, Version)
	return binary.LittleEndian.AppendUint32(dst, nonce)
}

// parseHeader checks b's header is a discovery datagram of kind and returns its nonce.
func parseHeader(b []byte, kind byte) (uint32, error) {
	if len(b) < headerSize || binary.LittleEndian.Uint64(b) != Handshake {
		return 0, ErrForeign
	}
	if b[9] != Version {
		return 0, fmt.Errorf("%w: version %d, this is %d", ErrVersion, b[9], Version)
	}
	if b[8] != kind {
		return 0, fmt.Errorf("%w: kind 0x%02x, want 0x%02x", ErrMalformed, b[8], kind)
	}
	return binary.LittleEndian.Uint32(b[10:]), nil
}

// printable reports whether s is valid UTF-8 with no control characters, so a name from a
// stranger can be drawn or printed as it is.
func printable(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if !unicode.IsPrint(r) {
			return false
		}
	}
	return true
}
