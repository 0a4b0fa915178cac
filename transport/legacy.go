package transport

import (
	"fmt"
	"net"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	tankv1 "tanknet/proto/tank/v1"
)

// legacyReject answers a protocol 1 client, which skips the connect handshake and opens
// with its Hello in a bare KCP datagram, with a Reject it can read: one KCP segment carrying
// ServerMessage{reject: VERSION_MISMATCH}, numbered as the first thing the server ever sent
// on that conversation and acknowledging the Hello. It keeps no state, replies to nothing
// but a first segment holding a whole Hello, stays within AmplificationLimit and a small
// total budget. Anything else from an address not admitted is dropped silently.
func (g *gate) legacyReject(data []byte, addr net.Addr) {
	var first kcpSegment
	n := 0
	kcpSegments(data, func(s kcpSegment) {
		if n == 0 {
			first = s
		}
		n++
	})
	if n == 0 || first.cmd != kcpCmdPush || first.sn != 0 || first.frg != 0 {
		return
	}
	// The payload is one length-prefixed frame; decoded in place, since anyone can send this.
	size, k := protowire.ConsumeVarint(first.payload)
	if k < 0 || size > uint64(len(first.payload)-k) {
		return
	}
	var m tankv1.ClientMessage
	if proto.Unmarshal(first.payload[k:k+int(size)], &m) != nil || m.GetHello() == nil ||
		m.GetHello().GetProtocolVersion() == ProtocolVersion { // a current client lost its admission: it knows the way
		return
	}
	if !g.legacy.take(g.now()) {
		g.throttled.Add(1)
		return
	}
	reject := &tankv1.ServerMessage{Kind: &tankv1.ServerMessage_Reject{Reject: &tankv1.Reject{
		Code: tankv1.RejectCode_REJECT_CODE_VERSION_MISMATCH,
		Reason: fmt.Sprintf("protocol version %d not supported (want %d)",
			m.GetHello().GetProtocolVersion(), ProtocolVersion),
	}}}
	frame, err := AppendFrame(nil, reject)
	if err != nil {
		return
	}
	g.reply = appendKCPSegment(g.reply[:0], kcpSegment{conv: first.conv, cmd: kcpCmdPush,
		wnd: kcpWindow, ts: first.ts, sn: 0, una: 1, payload: frame})
	if g.sendUnvalidated(g.reply, addr, len(data)) { // a Hello too small to answer within the limit is not
		g.legacyRejects.Add(1)
	}
}
