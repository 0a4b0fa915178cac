package server

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"tanknet/netcode"
	tankv1 "tanknet/proto/tank/v1"
	"tanknet/transport"
)

// benchPeer is a peer that keeps nothing, so a benchmark measures the world alone.
type benchPeer struct{ in []netcode.PendingInput }

func (p *benchPeer) takeInputs(dst []netcode.PendingInput) []netcode.PendingInput {
	return append(dst, p.in...)
}
func (p *benchPeer) send([]byte)         {}
func (p *benchPeer) sendSnapshot([]byte) {}
func (p *benchPeer) kick(string)         {}

// BenchmarkTick measures one server tick (admit one input per player, simulate, contact,
// encode the snapshot once) at several player counts.
func BenchmarkTick(b *testing.B) {
	for _, n := range []int{16, 64, 256} {
		b.Run(fmt.Sprintf("players=%d", n), func(b *testing.B) {
			cfg := DefaultConfig()
			cfg.MaxPlayers = n
			cfg.MaxInputLead = 1 << 30 // the benchmark's ticks run far ahead of wall time
			w := newWorld(&cfg, discardLogger(), new(counters))
			peers := make([]*benchPeer, n)
			for i := range peers {
				peers[i] = &benchPeer{in: []netcode.PendingInput{{Input: netcode.Input{Turn: 0.3, Throttle: 1}, Duration: 50 * time.Millisecond}}}
				if _, reject := w.join(0, "bot", peers[i]); reject != nil {
					b.Fatal(reject)
				}
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				for _, p := range peers {
					p.in[0].Tick = uint32(i + 1)
				}
				w.step(time.Duration(i+1) * time.Hour) // any time: the budget never binds
			}
		})
	}
}

// BenchmarkSnapshot measures encoding and decoding a 16-player snapshot frame.
func BenchmarkSnapshot(b *testing.B) {
	snap := &tankv1.Snapshot{ServerTick: 12345}
	for i := range 16 {
		snap.Players = append(snap.Players, transport.StateToProto(uint32(i+1), netcode.State{
			Tick: 12345, Pose: netcode.Pose{X: 12.345678 + float64(i), Y: 7.654321, Heading: 1.2345}, Ack: 12000}))
	}
	msg := &tankv1.ServerMessage{Kind: &tankv1.ServerMessage_Snapshot{Snapshot: snap}}
	frame := encode(discardLogger(), msg)
	b.Run("encode", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(frame)))
		buf := make([]byte, 0, len(frame))
		for range b.N {
			var err error
			if buf, err = transport.AppendFrame(buf[:0], msg); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("decode", func(b *testing.B) {
		r := bytes.NewReader(frame)
		fr := transport.NewFrameReader(r) // one per connection, as a client has
		var m tankv1.ServerMessage
		b.ReportAllocs()
		b.SetBytes(int64(len(frame)))
		for range b.N {
			r.Reset(frame)
			if err := fr.Read(&m); err != nil {
				b.Fatal(err)
			}
		}
	})
}
