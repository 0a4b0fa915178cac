package transport

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"hash"
	"net/netip"
	"time"
)

// The connect handshake: before kcp-go sees a single datagram from an address, the client
// proves it receives at that address by echoing a cookie the server sent there.
//
//	client                                      server
//	  | -- ConnectRequest (32 bytes) ---------->  |  no state kept
//	  | <------------ Challenge (30 bytes) -----  |  cookie = issued time + MAC(address, time)
//	  | -- ConnectResponse(cookie, KCP datagram) |  cookie checked: the address is admitted
//	  | <------------ KCP datagrams ------------  |  and the KCP datagram inside goes to kcp-go
//
// Every handshake datagram starts with the 4-byte magic "TNK!", a kind byte and the protocol
// version byte. KCP datagrams never look like this: byte 4 of a KCP segment is its command
// (81-84) and bytes 4-5 of a kcp-go FEC packet are its type (f1 00, f2 00 or f3 00).
// docs/PROTOCOL.md §1 describes the layout for other implementations.
const (
	connectMagic = "TNK!"

	kindConnectRequest  = 0xe1 // client -> server: "send me a cookie"
	kindChallenge       = 0xe2 // server -> client: the cookie
	kindConnectResponse = 0xe3 // client -> server: the cookie, then one KCP datagram

	connectHeaderSize = 6  // magic, kind, version
	cookieSize        = 24 // issued time (8) and MAC (16)
	cookieMACSize     = 16 // HMAC-SHA256 truncated: 128 bits no attacker can guess

	// ConnectRequestSize is the size every ConnectRequest is padded to. It is larger than
	// the Challenge it draws, so answering a spoofed request sends its victim fewer bytes
	// than the attacker spent (QUIC pads its first packet for the same reason).
	ConnectRequestSize = 32
	challengeSize      = connectHeaderSize + cookieSize
	responseHeaderSize = connectHeaderSize + cookieSize

	// CookieLifetime is how long a cookie admits its address after the server made it: long
	// enough for a slow link's round trip and a few KCP retransmissions, short enough that
	// an address that changed hands cannot reuse an old one for long.
	CookieLifetime = 5 * time.Second
)

// Errors from parsing handshake datagrams.
var (
	errNotConnect   = errors.New("transport: not a connect handshake datagram")
	errShortConnect = errors.New("transport: connect datagram too short")
)

// connectKind returns the kind and version of a handshake datagram, or errNotConnect when b
// is not one (a KCP datagram, say).
func connectKind(b []byte) (kind, version byte, err error) {
	if len(b) < connectHeaderSize || string(b[:4]) != connectMagic {
		return 0, 0, errNotConnect
	}
	switch b[4] {
	case kindConnectRequest, kindChallenge, kindConnectResponse:
		return b[4], b[5], nil
	}
	return 0, 0, errNotConnect
}

// appendConnectHeader appends the magic, kind and our protocol version.
func appendConnectHeader(dst []byte, kind byte) []byte {
	return append(append(dst, connectMagic...), kind, ProtocolVersion)
}

// appendConnectRequest appends a ConnectRequest, zero padded to ConnectRequestSize.
func appendConnectRequest(dst []byte) []byte {
	dst = appendConnectHeader(dst, kindConnectRequest)
	return append(dst, make([]byte, ConnectRequestSize-connectHeaderSize)...)
}

// cookie is the server's proof that it sent something to an address at a time.
type cookie [cookieSize]byte

// cookieMinter makes and checks cookies with a key that never leaves the process. It is
// not safe for concurrent use: the gate calls it from its one reading goroutine.
type cookieMinter struct {
	key [32]byte
	h   hash.Hash // HMAC-SHA256 with key, made on first use and reset for each MAC
	// msg and sum are the MAC's input and output, kept here so that passing them to h
	// does not move them to the heap on every call.
	msg [16 + 2 + 8]byte
	sum [sha256.Size]byte
}

// mac computes the MAC of addr and issued.
func (m *cookieMinter) mac(addr netip.AddrPort, issued uint64) [cookieMACSize]byte {
	ip := addr.Addr().As16()
	copy(m.msg[:16], ip[:])
	binary.LittleEndian.PutUint16(m.msg[16:], addr.Port())
	binary.LittleEndian.PutUint64(m.msg[18:], issued)
	if m.h == nil {
		m.h = hmac.New(sha256.New, m.key[:])
	}
	m.h.Reset()
	m.h.Write(m.msg[:])
	var out [cookieMACSize]byte
	copy(out[:], m.h.Sum(m.sum[:0]))
	return out
}

// mint returns a cookie for addr issued at now (Unix milliseconds).
func (m *cookieMinter) mint(addr netip.AddrPort, nowMS uint64) cookie {
	var c cookie
	binary.LittleEndian.PutUint64(c[:8], nowMS)
	mac := m.mac(addr, nowMS)
	copy(c[8:], mac[:])
	return c
}

// valid reports whether c was minted by m for addr no longer than CookieLifetime before now.
func (m *cookieMinter) valid(c []byte, addr netip.AddrPort, nowMS uint64) bool {
	if len(c) < cookieSize {
		return false
	}
	issued := binary.LittleEndian.Uint64(c[:8])
	if issued > nowMS || nowMS-issued > uint64(CookieLifetime/time.Millisecond) {
		return false
	}
	mac := m.mac(addr, issued)
	return hmac.Equal(mac[:], c[8:cookieSize])
}

// appendChallenge appends a Challenge carrying c.
func appendChallenge(dst []byte, c cookie) []byte {
	return append(appendConnectHeader(dst, kindChallenge), c[:]...)
}

// parseChallenge returns the cookie and the server's protocol version in a Challenge.
func parseChallenge(b []byte) (c cookie, version byte, err error) {
	kind, version, err := connectKind(b)
	switch {
	case err != nil:
		return c, 0, err
	case kind != kindChallenge:
		return c, 0, errNotConnect
	case len(b) < challengeSize:
		return c, 0, errShortConnect
	}
	copy(c[:], b[connectHeaderSize:])
	return c, version, nil
}

// appendConnectResponse appends a ConnectResponse: c, then the KCP datagram inner.
func appendConnectResponse(dst []byte, c cookie, inner []byte) []byte {
	return append(append(appendConnectHeader(dst, kindConnectResponse), c[:]...), inner...)
}

// parseConnectResponse splits a ConnectResponse into its cookie bytes and KCP datagram.
func parseConnectResponse(b []byte) (c, inner []byte, err error) {
	kind, _, err := connectKind(b)
	switch {
	case err != nil:
		return nil, nil, err
	case kind != kindConnectResponse:
		return nil, nil, errNotConnect
	case len(b) < responseHeaderSize:
		return nil, nil, errShortConnect
	}
	return b[connectHeaderSize:responseHeaderSize], b[responseHeaderSize:], nil
}

// IsHandshake reports whether b is a connect handshake datagram (a ConnectRequest, Challenge
// or ConnectResponse) rather than a KCP datagram. A carriage below the gate uses it to see
// whether a peer got past the handshake.
func IsHandshake(b []byte) bool {
	_, _, err := connectKind(b)
	return err == nil
}
