package server

import (
	"bytes"
	"fmt"
	"testing"

	"tanknet/netcode"
	tankv1 "tanknet/proto/tank/v1"
	"tanknet/transport"
	"tanknet/wire"
)

// BenchmarkTick measures one server tick (admit one input per player, simulate, contact,
// encode the snapshot once) at several player counts.
func BenchmarkTick(b *testing.B) {
	for _, n := range []int{16, 64, 256} {
		b.Run(fmt.Sprintf("players=%d", n), func(b *testing.B) {
			cfg := DefaultConfig()
			cfg.MaxPlayers = n
			cfg.Logger = discardLogger()
			step, err := syntheticTicker(&cfg, n)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				step()
			}
		})
	}
}

// BenchmarkSnapshot measures encoding and decoding a 16-player snapshot frame.
func BenchmarkSnapshot(b *testing.B) {
	snap := &tankv1.Snapshot{ServerTick: 12345}
	for i := range 16 {
		snap.Players = append(snap.Players, wire.StateToProto(uint32(i+1), netcode.State{
			Tick: 12345, Pose: netcode.Pose{X: 12.345678 + float64(i), Y: 7.654321, Heading: 1.2345}, Ack: 12000}))
	}
	msg := &tankv1.ServerMessage{Kind: &tankv1.ServerMessage_Snapshot{Snapshot: snap}}
	frame, err := transport.AppendFrame(nil, msg)
	if err != nil {
		b.Fatal(err)
	}
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
