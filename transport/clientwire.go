package transport

import (
	"context"
	"encoding/binary"
	"fmt"
	"net"
	"net/netip"
	"time"

	"github.com/klauspost/reedsolomon"
	"github.com/xtaci/kcp-go/v5"
)

// ClientWire is a dialled session's datagram layer without kcp-go's session around it: the
// connect handshake's cookie, KCP tuned as Dial tunes it, kcp-go's FEC and out-of-band
// framing of what it sends, and the sorting of what the server sends. It is for a client
// that runs many sessions on goroutines of its own (package load's thin clients, which
// would otherwise pay for kcp-go's three goroutines and timer a session); a game client
// wants Dial. It does no I/O after NewClientWire and is not safe for concurrent use.
//
// What it writes is what a kcp-go session with Dial's settings writes, byte for byte but
// for the random conversation id, so a server cannot tell the two apart. What it reads it
// only sorts: FEC parity is dropped rather than used to recover a lost packet (KCP
// retransmits it instead), which changes nothing where nothing is lost.
type ClientWire struct {
	server   netip.AddrPort
	conv     uint32 // our KCP conversation
	cookie   cookie
	admitted bool // the server sent a packet of our conversation
	fec      fecSealer
	out      [][]byte // Seal's result, reused
}

// NewClientWire validates our address with the server over pc (ConnectRequest until a
// Challenge comes back or ctx ends) and returns the wire to speak KCP conversation conv
// over it.
func NewClientWire(ctx context.Context, pc net.PacketConn, server *net.UDPAddr, conv uint32) (*ClientWire, error) {
	ck, err := fetchCookie(ctx, pc, server)
	if err != nil {
		return nil, err
	}
	w := &ClientWire{server: addrPort(server), conv: conv, cookie: ck}
	w.fec.codec, err = reedsolomon.New(fecDataShards, fecParityShards)
	if err != nil {
		return nil, fmt.Errorf("transport: fec: %w", err)
	}
	return w, nil
}

// NewKCP returns a KCP conversation conv tuned as Dial tunes a session's (no delay, 10 ms
// interval, fast resend, no congestion window, the input window, the MTU less FEC's header),
// writing through output; the caller passes what it writes to Seal.
func NewKCP(conv uint32, output func(buf []byte, size int)) *kcp.KCP {
	k := kcp.NewKCP(conv, output)
	k.NoDelay(kcpNoDelay, kcpIntervalMS, kcpResend, kcpNoCongest)
	k.WndSize(kcpInputWindow, kcpWindow)
	k.SetMtu(kcpMTU - fecHeaderSize)
	return k
}

// SendWindow is how many segments a dialled KCP conversation may have unacknowledged: a
// dialled session's Write blocks beyond it.
const SendWindow = kcpInputWindow

// KCPInterval is how often a dialled KCP conversation must be updated (kcp.KCP.Update).
const KCPInterval = kcpIntervalMS * time.Millisecond

// AckNoDelay is the ackNoDelay a dialled session passes to kcp.KCP.Input: acknowledge at once.
const AckNoDelay = true

// Seal returns the datagrams that carry KCP output seg: it in an FEC data packet, then
// the group's parity packet when seg completes a group, each wrapped in a ConnectResponse
// until the server has admitted us. The slices are valid until the next Seal or SealOOB.
func (w *ClientWire) Seal(seg []byte, now time.Time) [][]byte {
	w.out = w.out[:0]
	d, parity := w.fec.data(seg, now)
	w.out = append(w.out, w.wrap(d))
	if parity != nil {
		w.out = append(w.out, w.wrap(parity))
	}
	return w.out
}

// SealOOB returns the datagram that carries payload on the out-of-band lane of our
// conversation (see SendDatagram), wrapped until the server has admitted us. The slice is
// valid until the next Seal or SealOOB. It returns ErrDatagramTooLarge for a payload above
// MaxDatagramSize.
func (w *ClientWire) SealOOB(payload []byte) ([]byte, error) {
	if len(payload) > MaxDatagramSize {
		return nil, fmt.Errorf("%w: %d bytes > %d", ErrDatagramTooLarge, len(payload), MaxDatagramSize)
	}
	b := w.fec.oob[:0]
	b = binary.LittleEndian.AppendUint32(b, 0xffffffff) // kcp-go's seqid for every out-of-band packet
	b = binary.LittleEndian.AppendUint16(b, fecTypeOOB)
	b = binary.LittleEndian.AppendUint16(b, uint16(2+4+len(payload)))
	b = binary.LittleEndian.AppendUint32(b, w.conv)
	b = append(b, payload...)
	w.fec.oob = b
	return w.wrap(b), nil
}

// wrap returns b wrapped in a ConnectResponse while the server has not admitted us.
func (w *ClientWire) wrap(b []byte) []byte {
	if w.admitted {
		return b
	}
	w.fec.wrapped = appendConnectResponse(w.fec.wrapped[:0], w.cookie, b)
	return w.fec.wrapped
}

// Datagram kinds Open tells apart.
const (
	DatagramNone = iota // nothing for the caller: handshake, FEC parity, a stranger's, another conv's
	DatagramKCP         // KCP segments for kcp.KCP.Input
	DatagramOOB         // an out-of-band payload (a snapshot chunk)
)

// Open sorts datagram b from from: it returns DatagramKCP with the KCP segments in it,
// DatagramOOB with an out-of-band payload, or DatagramNone. A Challenge before the server
// admitted us refreshes the cookie; a packet of our conversation admits us (PROTOCOL.md §1.5,
// client rule 3). One of another conversation (the server still answering an earlier client
// that had our address and port) is neither ours nor proof of anything, and FEC parity names
// no conversation.
func (w *ClientWire) Open(b []byte, from netip.AddrPort) (kind int, payload []byte) {
	if netip.AddrPortFrom(from.Addr().Unmap(), from.Port()) != w.server {
		return DatagramNone, nil
	}
	if _, _, err := connectKind(b); err == nil {
		if c, version, err := parseChallenge(b); err == nil && version == ProtocolVersion && !w.admitted {
			w.cookie = c
		}
		return DatagramNone, nil
	}
	conv, hasConv := datagramConv(b)
	if !hasConv || conv != w.conv {
		return DatagramNone, nil
	}
	w.admitted = true
	switch binary.LittleEndian.Uint16(b[4:]) {
	case fecTypeData:
		return DatagramKCP, b[fecHeaderSize:]
	case fecTypeParity:
		return DatagramNone, nil
	case fecTypeOOB:
		return DatagramOOB, b[fecHeaderSize+4:]
	}
	return DatagramKCP, b
}

// fecSealer is kcp-go's FEC encoder (fec.go's fecEncoder) for Dial's 3 data and 1 parity
// shards: each data packet is sealed with a sequence id and type, and every third gets a
// Reed-Solomon parity packet over the three, padded to the longest, unless the group took
// longer than fecGroupLatency to fill (its parity would come too late to help).
type fecSealer struct {
	codec  reedsolomon.Encoder
	next   uint32 // the next sequence id
	count  int    // data shards in the group so far
	maxLen int    // the longest of them, FEC header included
	last   time.Time
	shards [fecDataShards + fecParityShards][]byte
	cache  [fecDataShards + fecParityShards][]byte

	oob, wrapped []byte
}

// fecGroupLatency is kcp-go's maxFECEncodeLatency: a group whose last two data packets are
// further apart than this gets no parity.
const fecGroupLatency = 500 * time.Millisecond

// fecPaws is where sequence ids wrap: the largest multiple of a group's size in 32 bits.
const fecPaws = 0xffffffff / (fecDataShards + fecParityShards) * (fecDataShards + fecParityShards)

// data seals seg as the next data packet and returns it, and the group's parity packet
// when seg completes a group (nil otherwise).
func (f *fecSealer) data(seg []byte, now time.Time) (data, parity []byte) {
	i := f.count
	b := f.shards[i][:0]
	b = binary.LittleEndian.AppendUint32(b, f.next)
	b = binary.LittleEndian.AppendUint16(b, fecTypeData)
	b = binary.LittleEndian.AppendUint16(b, uint16(2+len(seg)))
	b = append(b, seg...)
	f.shards[i] = b
	f.next = (f.next + 1) % fecPaws
	f.count++
	f.maxLen = max(f.maxLen, len(b))
	continuous := now.Sub(f.last) < fecGroupLatency
	f.last = now
	if f.count < fecDataShards {
		return b, nil
	}
	f.count = 0
	defer func() { f.maxLen = 0 }()
	if !continuous {
		f.next = (f.next + fecParityShards) % fecPaws // the group's parity is skipped, its id too
		return b, nil
	}
	for k := range fecDataShards {
		s := f.shards[k]
		s = append(s, make([]byte, f.maxLen-len(s))...) // zero padding to the longest
		f.shards[k] = s
		f.cache[k] = s[6:f.maxLen]
	}
	p := f.shards[fecDataShards]
	if cap(p) < f.maxLen {
		p = make([]byte, f.maxLen, kcpMTU)
	}
	p = p[:f.maxLen]
	f.shards[fecDataShards] = p
	f.cache[fecDataShards] = p[6:]
	if err := f.codec.Encode(f.cache[:]); err != nil {
		f.next = (f.next + fecParityShards) % fecPaws
		return f.shards[i][:len(b)], nil
	}
	binary.LittleEndian.PutUint32(p, f.next)
	binary.LittleEndian.PutUint16(p[4:], fecTypeParity)
	f.next = (f.next + 1) % fecPaws
	return f.shards[i][:len(b)], p
}
