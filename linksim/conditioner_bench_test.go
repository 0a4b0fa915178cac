package linksim

import "testing"

func BenchmarkConditionedConn(b *testing.B) {
	payload := make([]byte, 200) // about one snapshot
	const batch = 64             // well under MaxQueuedPackets

	b.Run("WriteTo", func(b *testing.B) {
		mem := newMemConn()
		cc, err := Condition(mem, Conditions{}, 1)
		if err != nil {
			b.Fatal(err)
		}
		defer cc.Close()
		b.SetBytes(int64(len(payload)))
		b.ReportAllocs()
		for sent := 0; sent < b.N; {
			k := min(batch, b.N-sent)
			for range k {
				if _, err := cc.WriteTo(payload, memAddr("peer")); err != nil {
					b.Fatal(err)
				}
			}
			for range k {
				<-mem.out
			}
			sent += k
		}
	})

	b.Run("ReadFrom", func(b *testing.B) {
		mem := newMemConn()
		cc, err := Condition(mem, Conditions{}, 1)
		if err != nil {
			b.Fatal(err)
		}
		defer cc.Close()
		buf := make([]byte, 2048)
		b.SetBytes(int64(len(payload)))
		b.ReportAllocs()
		for got := 0; got < b.N; {
			k := min(batch, b.N-got)
			for range k {
				mem.in <- memPacket{data: payload, addr: memAddr("peer")}
			}
			for range k {
				if _, _, err := cc.ReadFrom(buf); err != nil {
					b.Fatal(err)
				}
			}
			got += k
		}
	})
}
