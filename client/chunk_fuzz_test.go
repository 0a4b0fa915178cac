package client

import (
	"testing"
	"time"

	"tanknet/netcode"
	tankv1 "tanknet/proto/tank/v1"
	"tanknet/transport"
)

// FuzzChunkDatagram hands arbitrary bytes to a datagram-lane session's handler, as kcp-go
// would, twice (a duplicate), then lets the Game take whatever was queued. Nothing may
// panic; a datagram is either queued as a valid chunk or counted as bad; the Game never
// tracks a player the roster did not announce.
func FuzzChunkDatagram(f *testing.F) {
	for _, m := range []*tankv1.ServerMessage{
		chunkMsg(1, 0, 1, 1, 2, 3),
		chunkMsg(2, 1, 2, 4, 5),
		chunkMsg(0, 0, 1, 2),
		chunkMsg(500, 0, 1, 2),
		chunkMsg(3, 3, 2, 2),
		{Kind: &tankv1.ServerMessage_Pong{Pong: &tankv1.Pong{ClientTimeUs: 1}}},
	} {
		b, err := transport.AppendDatagram(nil, m)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte{0xff})
	f.Fuzz(func(t *testing.T, b []byte) {
		g, sess, start := datagramGame(t)
		sess.onDatagram(b)
		sess.onDatagram(b)
		bad, _ := sess.DatagramStats()
		if queued := len(sess.queue); queued+int(bad) != 2 {
			t.Fatalf("2 datagrams: %d queued and %d counted bad", queued, bad)
		}
		g.pace.last = start
		if err := g.Update(start.Add(time.Millisecond), netcode.Input{}); err != nil {
			t.Fatal(err)
		}
		for id := range g.Remotes() {
			if g.others.names[id] == "" {
				t.Fatalf("remote %d tracked without a roster entry", id)
			}
		}
	})
}
