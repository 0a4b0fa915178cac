package server_test

import (
	"testing"
	"time"

	tankv1 "tanknet/proto/tank/v1"
	"tanknet/server"
	"tanknet/transport"
)

// A client that goes silent part-way through the server's wait for its next stream message
// is dropped the idle timeout after its last packet, not at the end of the next whole wait.
// Here the server's read loop wakes every 2 s (the idle timeout) and the client falls silent
// 0.5 s after one wake: the old loop dropped it 3.5 s after its last packet, this one 2 s
// after. The bound leaves 0.9 s for a busy machine.
func TestIdle_SilentClientDroppedIdleAfterItsLastPacket(t *testing.T) {
	const idle = 2 * time.Second
	addr, srv := startServer(t, func(c *server.Config) { c.IdleTimeout, c.AckTimeout = idle, time.Minute })
	r := dialRaw(t, addr)
	r.join() // its last stream message: the server's wait for the next starts about now
	joined := time.Now()

	// Stay alive without a stream message: an InputBatch datagram every 50 ms, as a client
	// on the datagram lane sends, while reading whatever comes on the stream.
	var lastSent time.Time
	for time.Since(joined) < 2*idle+idle/4 {
		r.sendDatagram(batch(t))
		lastSent = time.Now()
		if err := r.conn.Recv(new(tankv1.ServerMessage), 50*time.Millisecond); err != nil && !transport.IsTimeout(err) {
			t.Fatalf("while staying alive: %v", err)
		}
	}
	if st := srv.Stats(); st.Drops != 0 {
		t.Fatalf("dropped while its datagrams still arrived: %+v", st.DropsByReason)
	}
	r.conn.Close() // silent from here: KCP has no close message
	closed := time.Now()

	// The server's last packet from the client came no earlier than the last datagram and
	// no later than Close's drain (its KCP may still have acknowledged something): the drop
	// comes about the idle timeout after the one, and within the bound after the other,
	// however long the last Recv waited on a loaded machine.
	var sinceSent, sinceClosed time.Duration
	waitFor(t, "the silent client to be dropped", func() bool {
		sinceSent, sinceClosed = time.Since(lastSent), time.Since(closed)
		return srv.Stats().DropsByReason["timeout"] == 1
	})
	if sinceSent < idle-100*time.Millisecond || sinceClosed > idle+900*time.Millisecond { // 0.1 s for the server's coarser clock
		t.Errorf("dropped %v after its last datagram and %v after it fell silent, want the idle timeout %v (within 0.9 s)",
			sinceSent.Round(time.Millisecond), sinceClosed.Round(time.Millisecond), idle)
	}
}
