package carriage

import (
	"encoding/binary"
	"hash/fnv"
	"net"
	"net/netip"
)

// PeerAddr is the address a browser's datagrams carry on the server: an IPv6 address in
// the unique local prefix fd74::/16 that no UDP client of this server uses (Merge drops UDP
// datagrams from it). Its /64 stands for the browser's own IP address as its HTTP request
// came from (an IPv4 address in bits 16-47, an IPv6 one's /64 by a 48-bit hash), so the
// server's per-address limits (the /64 of an IPv6 address) count a browser's peers as one
// address; the lower 64 bits number the peers, so each has its own address.
type PeerAddr struct{ AddrPort netip.AddrPort }

// peerPrefix is the first byte pair of every PeerAddr: fd (unique local) and 't'.
var peerPrefix = [2]byte{0xfd, 't'}

// peerPort is the port of every PeerAddr: the address alone tells peers apart.
const peerPort = 1

// Network returns "webrtc".
func (a PeerAddr) Network() string { return "webrtc" }

// String returns the address as "[fd74:...]:1", which netip.ParseAddrPort reads.
func (a PeerAddr) String() string { return a.AddrPort.String() }

// newPeerAddr returns the serial-th peer's address for a browser at ip.
func newPeerAddr(ip netip.Addr, serial uint64) PeerAddr {
	var b [16]byte
	copy(b[:2], peerPrefix[:])
	if ip = ip.Unmap(); ip.Is4() {
		v4 := ip.As4()
		copy(b[2:6], v4[:])
	} else {
		v6 := ip.As16()
		h := fnv.New64a()
		h.Write(v6[:8]) // the /64
		var sum [8]byte
		binary.BigEndian.PutUint64(sum[:], h.Sum64())
		copy(b[2:8], sum[:6])
		b[6] |= 0x80 // set apart from IPv4's zero bytes 6 and 7
	}
	binary.BigEndian.PutUint64(b[8:], serial)
	return PeerAddr{netip.AddrPortFrom(netip.AddrFrom16(b), peerPort)}
}

// isPeerIP reports whether ip lies in the prefix of PeerAddrs.
func isPeerIP(ip netip.Addr) bool {
	if !ip.Is6() || ip.Is4In6() {
		return false
	}
	b := ip.As16()
	return b[0] == peerPrefix[0] && b[1] == peerPrefix[1]
}

// isPeerAddr reports whether a, read from a UDP socket, claims a PeerAddr's prefix.
func isPeerAddr(a net.Addr) bool {
	switch a := a.(type) {
	case PeerAddr:
		return true
	case *net.UDPAddr:
		ip, _ := netip.AddrFromSlice(a.IP)
		return isPeerIP(ip)
	}
	ap, err := netip.ParseAddrPort(a.String())
	return err == nil && isPeerIP(ap.Addr())
}

// netipUnspecified is 0.0.0.0, for addresses that stand for no host.
var netipUnspecified = netip.IPv4Unspecified()
