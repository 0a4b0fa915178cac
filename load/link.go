package load

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"slices"
	"sync"
	"time"

	"github.com/xtaci/kcp-go/v5"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"tanknet/transport"
	"tanknet/wire"
)

// link is a thin client's KCP session, driven by package load rather than by a kcp-go
// session: kcp-go's KCP core over transport.ClientWire, so it writes what a dialled
// tanknet session writes. A kcp-go session costs three goroutines (reader, sender, and a
// timer entry) and a channel hop for every packet sent; a link costs its reader goroutine
// only. The reader takes what arrives (acknowledging at once, as Dial's sessions do); the
// driver sends (each message flushed at once, as Dial's sessions write) and, every KCP
// interval, updates the conversation (retransmissions), for all of its clients on one timer.
type link struct {
	pc     *net.UDPConn
	server *net.UDPAddr

	mu       sync.Mutex // guards what follows: the reader and the driver share the session
	wire     *transport.ClientWire
	kcp      *kcp.KCP
	conv     uint32
	now      time.Time // when the KCP call being made happens, for what it outputs
	heard    time.Time // the last datagram from the server
	traffic  Traffic   // this socket's, so far
	stream   []byte    // stream bytes not framed yet
	frame    wire.FromServer
	writeErr error // the first failed write
}

// maxStreamBacklog bounds the stream bytes a link holds unframed: two whole frames.
const maxStreamBacklog = 2 * (transport.MaxFrameSize + binary.MaxVarintLen64)

// dialLink opens a socket and validates its address with the server at addr (the connect
// handshake's cookie); KCP starts with the first send.
func dialLink(ctx context.Context, addr string) (*link, error) {
	raddr, err := net.ResolveUDPAddr("udp", addr)
	if err != nil {
		return nil, fmt.Errorf("load: resolve %s: %w", addr, err)
	}
	pc, err := net.ListenUDP("udp", nil)
	if err != nil {
		return nil, fmt.Errorf("load: open socket: %w", err)
	}
	transport.TuneSocket(pc)
	var id [4]byte
	rand.Read(id[:]) // conversation id: random, as Dial's
	conv := binary.LittleEndian.Uint32(id[:])
	w, err := transport.NewClientWire(ctx, pc, raddr, conv)
	if err != nil {
		pc.Close()
		return nil, err
	}
	l := &link{pc: pc, server: raddr, wire: w, conv: conv, heard: time.Now()}
	l.kcp = transport.NewKCP(l.conv, l.output)
	return l, nil
}

// output writes what KCP emits; the caller holds l.mu.
func (l *link) output(buf []byte, size int) {
	for _, d := range l.wire.Seal(buf[:size], l.now) {
		l.write(d)
	}
}

// write sends one datagram; the caller holds l.mu.
func (l *link) write(d []byte) {
	n, err := l.pc.WriteToUDP(d, l.server)
	if err != nil {
		if l.writeErr == nil {
			l.writeErr = err
		}
		return
	}
	l.traffic.DatagramsOut++
	l.traffic.BytesOut += uint64(n)
}

// send queues frame on the stream and, when flush, puts it on the wire at once, as a
// dialled session's Write does (flushKCP).
func (l *link) send(frame []byte, now time.Time, flush bool) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.writeErr != nil {
		return l.writeErr
	}
	l.now = now
	if l.kcp.WaitSnd() >= transport.SendWindow {
		return errors.New("load: the server takes no more of our stream (send window full)")
	}
	l.kcp.Send(frame)
	if flush {
		flushKCP(l.kcp, kcp.IKCP_FLUSH_FULL)
	}
	return l.writeErr
}

// sendDatagram sends payload on the out-of-band lane at once.
func (l *link) sendDatagram(payload []byte) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	d, err := l.wire.SealOOB(payload)
	if err != nil {
		return err
	}
	l.write(d)
	return l.writeErr
}

// update runs the conversation's clock (kcp.KCP.Update) at now, when it has anything
// unacknowledged (with nothing, an update writes nothing: acknowledgements leave as the
// data they acknowledge arrives, and every message sent is flushed at once). It returns how
// long the server has been silent and whether segments are still unacknowledged.
func (l *link) update(now time.Time) (silent time.Duration, busy bool, err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.kcp.WaitSnd() > 0 {
		l.now = now
		l.kcp.Update()
	}
	return now.Sub(l.heard), l.kcp.WaitSnd() > 0, l.writeErr
}

// counted returns the socket's traffic so far.
func (l *link) counted() Traffic {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.traffic
}

// read takes datagrams until the socket closes or the server breaks the protocol: KCP
// segments go to the conversation (acknowledged at once), every whole stream message to
// onStream, out-of-band payloads to onDatagram (outside the lock). It returns why it
// stopped; a closed socket is net.ErrClosed.
func (l *link) read(onStream func(wire.ServerMessage) error, onDatagram func([]byte)) error {
	buf := make([]byte, 2048)
	for {
		n, from, err := l.pc.ReadFromUDPAddrPort(buf)
		if err != nil {
			return err
		}
		now := time.Now()
		l.mu.Lock()
		l.traffic.DatagramsIn++
		l.traffic.BytesIn += uint64(n)
		kind, payload := l.wire.Open(buf[:n], from)
		if kind != transport.DatagramNone {
			l.heard = now
		}
		if kind == transport.DatagramKCP {
			l.now = now
			l.kcp.Input(payload, kcp.IKCP_PACKET_REGULAR, transport.AckNoDelay)
			err = l.takeStream(onStream)
		}
		l.mu.Unlock()
		if err != nil {
			return err
		}
		if kind == transport.DatagramOOB {
			onDatagram(payload)
		}
	}
}

// takeStream moves what KCP has received to the stream buffer and hands every whole frame
// in it to onStream, as transport.FrameReader frames them; the caller holds l.mu.
func (l *link) takeStream(onStream func(wire.ServerMessage) error) error {
	for size := l.kcp.PeekSize(); size > 0; size = l.kcp.PeekSize() {
		if len(l.stream)+size > maxStreamBacklog {
			return errors.New("load: the server's stream holds a frame larger than any allowed")
		}
		n := len(l.stream)
		l.stream = slices.Grow(l.stream, size)[:n+size]
		l.kcp.Recv(l.stream[n:])
	}
	head := 0
	defer func() { l.stream = l.stream[:copy(l.stream, l.stream[head:])] }()
	for {
		b := l.stream[head:]
		v, n := protowire.ConsumeVarint(b)
		switch {
		case n < 0 && len(b) < binary.MaxVarintLen64:
			return nil // the length prefix is still arriving
		case n < 0:
			return fmt.Errorf("load: bad frame from the server: %w", protowire.ParseError(n))
		case v > transport.MaxFrameSize:
			return fmt.Errorf("load: %w: length prefix %d", transport.ErrFrameTooLarge, v)
		case uint64(len(b)-n) < v:
			return nil // the body is still arriving
		}
		body := b[n : n+int(v)]
		head += n + int(v)
		if err := proto.Unmarshal(body, l.frame.Target()); err != nil {
			return fmt.Errorf("load: bad frame from the server: %w", err)
		}
		m, err := l.frame.Decode()
		if err != nil {
			return fmt.Errorf("load: bad message from the server: %w", err)
		}
		if err := onStream(m); err != nil {
			return err
		}
	}
}

// close closes the socket; the reader then returns net.ErrClosed.
func (l *link) close() { l.pc.Close() }
