package server

import (
	"testing"
	"time"

	tankv1 "tanknet/proto/tank/v1"
	"tanknet/transport"
	"tanknet/wire"
)

// FuzzDatagram feeds arbitrary bytes to a joined session's datagram handler, as kcp-go would
// hand them over, then lets the world take what was queued. Nothing may panic, the queue stays
// bounded, and every byte string is either queued or counted as bad or dropped.
func FuzzDatagram(f *testing.F) {
	add := func(m *tankv1.ClientMessage) {
		b, err := transport.AppendDatagram(nil, m)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	add(fBatch(1, 2, 3))
	add(fBatch(5))
	add(fBatchOf(fMove(1, 0, 1, 0), fMove(2, 1e300, 1, 50)))
	add(fHello("not a batch"))
	add(fBatch(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20)) // a full batch
	add(fBatch(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21))
	f.Add([]byte{})
	f.Add([]byte{0x2a, 0xff, 0xff, 0xff, 0xff, 0x0f})
	f.Fuzz(func(t *testing.T, b []byte) {
		w := newTestWorld(t, func(c *Config) { c.Lane = wire.LaneDatagram })
		cfg := *w.cfg
		st := new(counters)
		sess := newSession(nil, &cfg, st, newServerClock(time.Now())) // the handler never touches the connection
		sess.joined.Store(true)
		p, reject := w.join(0, "fuzz", sess)
		if reject != nil {
			t.Fatal(reject)
		}
		// The same datagram, duplicated: five full batches are more than maxDatagramCopies allows
		// between two ticks, so the cap is reached as well as kept.
		for range 5 {
			sess.onDatagram(b)
		}
		if n := len(sess.copies); n > maxDatagramCopies {
			t.Fatalf("%d datagram inputs queued, more than the %d allowed", n, maxDatagramCopies)
		}
		counted := st.badDatagrams.Load() + st.droppedDatagrams.Load()
		if len(sess.copies) == 0 && counted == 0 {
			var m tankv1.ClientMessage
			if transport.DecodeDatagram(b, &m) != nil || len(m.GetInputBatch().GetInputs()) > 0 {
				t.Fatalf("datagram %x neither queued nor counted", b)
			}
		}
		rec := w.step(50e6)
		// Copies continue the queue without gaps: from tick 1, at most one batch's worth.
		if p.tank.LastQueued() > wire.MaxBatchInputs {
			t.Fatalf("one batch moved the player's last tick to %d, beyond the %d a batch carries", p.tank.LastQueued(), wire.MaxBatchInputs)
		}
		for i, a := range rec.Applied {
			if a.MoveTick != uint32(i+1) {
				t.Fatalf("applied move ticks %v: want 1, 2, 3, ... with none skipped", rec.Applied)
			}
		}
	})
}
