package transport

import "net"

// legacyReject answers a protocol 1 client, which skips the connect handshake and opens
// with its Hello in a bare KCP datagram, with the reply g.answerOld makes of that Hello (a
// Reject it can read; the gate itself reads no message): one KCP segment numbered as the
// first thing the server ever sent on that conversation and acknowledging the Hello. It
// keeps no state, replies to nothing but a first segment, stays within AmplificationLimit
// and a small total budget. Anything else from an address not admitted is dropped silently.
func (g *gate) legacyReject(data []byte, addr net.Addr) {
	if g.answerOld == nil {
		return
	}
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
	frame := g.answerOld(first.payload)
	if frame == nil {
		return
	}
	if !g.legacy.take(g.now()) {
		g.throttled.Add(1)
		return
	}
	g.reply = appendKCPSegment(g.reply[:0], kcpSegment{conv: first.conv, cmd: kcpCmdPush,
		wnd: kcpWindow, ts: first.ts, sn: 0, una: 1, payload: frame})
	if g.sendUnvalidated(g.reply, addr, len(data)) { // a Hello too small to answer within the limit is not
		g.legacyRejects.Add(1)
	}
}
