package transport

import (
	"context"
	"encoding/binary"
	"net"
	"net/netip"
	"sync"
	"testing"
	"time"

	"github.com/klauspost/reedsolomon"
	"github.com/xtaci/kcp-go/v5"

	tankv1 "tanknet/proto/tank/v1"
)

// TestClientWire_ServerTakesItLikeADialledSession: a KCP conversation over a ClientWire
// talks to a real Listener: its first messages, wrapped in ConnectResponses, are accepted;
// with the second data packet lost, the server's kcp-go rebuilds it from the group's parity
// (so the sequence ids and the Reed-Solomon shards are kcp-go's own); an out-of-band datagram
// reaches the server's datagram handler; and the server's reply comes back through Open.
func TestClientWire_ServerTakesItLikeADialledSession(t *testing.T) {
	ln, err := listen(listenUDP(t), defaultFEC, ListenConfig{})
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	addr := ln.pc.LocalAddr().(*net.UDPAddr)
	pc := listenUDP(t)
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	w, err := NewClientWire(ctx, pc, addr, 77)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex // guards w, k and sent
	sent := 0
	k := NewKCP(77, func(buf []byte, size int) {
		for _, d := range w.Seal(buf[:size], time.Now()) {
			if sent++; sent == 1 && w.admitted {
				continue // lost: the parity of its group must stand in for it
			}
			pc.WriteTo(d, addr)
		}
	})
	go func() {
		buf := make([]byte, 2048)
		for {
			n, from, err := pc.ReadFrom(buf)
			if err != nil {
				return
			}
			mu.Lock()
			kind, payload := w.Open(buf[:n], from.(*net.UDPAddr).AddrPort())
			if kind == DatagramKCP {
				k.Input(payload, kcp.IKCP_PACKET_REGULAR, AckNoDelay)
			}
			mu.Unlock()
		}
	}()
	recovered0 := kcp.DefaultSnmp.Copy().FECRecovered
	send := func(name string) {
		frame, err := AppendFrame(nil, &tankv1.ClientMessage{Kind: &tankv1.ClientMessage_Hello{Hello: &tankv1.Hello{Name: name}}})
		if err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		k.Send(frame)
		k.Update()
		mu.Unlock()
		time.Sleep(2 * KCPInterval) // one datagram a message: KCP packs what waits together
	}
	send("one")
	// The rest go once the server has admitted us, unwrapped, as a session's would: on a
	// loaded machine its answer can come after the next sends, which would then still be
	// wrapped in ConnectResponses, parity included.
	for deadline := time.Now().Add(waitLimit); ; time.Sleep(KCPInterval) {
		mu.Lock()
		admitted := w.admitted
		k.Update() // retransmits "one" if it needs to
		mu.Unlock()
		if admitted {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the server never answered the first message")
		}
	}
	mu.Lock()
	sent = 0 // the next data packet sent is the one lost
	mu.Unlock()
	for _, name := range []string{"two", "three", "four"} {
		send(name)
	}
	server, err := acceptWithin(ln, waitLimit)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"one", "two", "three", "four"} {
		var m tankv1.ClientMessage
		if err := server.Recv(&m, waitLimit); err != nil {
			t.Fatalf("server Recv: %v", err)
		}
		if got := m.GetHello().GetName(); got != want {
			t.Fatalf("server got %q, want %q", got, want)
		}
	}
	if got := kcp.DefaultSnmp.Copy().FECRecovered - recovered0; got == 0 {
		t.Error("the server did not rebuild the lost packet from parity")
	}
	oob := make(chan []byte, 1)
	server.OnDatagram(func(b []byte) { oob <- append([]byte(nil), b...) })
	mu.Lock()
	d, err := w.SealOOB([]byte("chunk"))
	if err == nil {
		_, err = pc.WriteTo(d, addr)
	}
	mu.Unlock()
	if err != nil {
		t.Fatal(err)
	}
	select {
	case b := <-oob:
		if string(b) != "chunk" {
			t.Errorf("server's datagram = %q, want %q", b, "chunk")
		}
	case <-time.After(waitLimit):
		t.Error("the out-of-band datagram never reached the server")
	}
	deadline := time.Now().Add(waitLimit)
	for {
		mu.Lock()
		admitted, waiting := w.admitted, k.WaitSnd()
		k.Update() // retransmits what is not acknowledged yet
		mu.Unlock()
		if admitted && waiting == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("admitted %v, %d segments unacknowledged: the server's acknowledgements did not come through Open", admitted, waiting)
		}
		time.Sleep(KCPInterval)
	}
}

// PROTOCOL.md §1.5, client rule 3: only a packet of our own conversation admits a
// ClientWire. Another conversation's (the server still answering an earlier client that had
// our address and port) is dropped and admits nothing, and so is FEC parity, which names no
// conversation; until admitted, what we send stays wrapped in ConnectResponses.
func TestClientWire_OnlyOurConversationAdmitsUs(t *testing.T) {
	server := netip.MustParseAddrPort("127.0.0.1:7777")
	w := &ClientWire{server: server, conv: 77}
	var err error
	if w.fec.codec, err = reedsolomon.New(fecDataShards, fecParityShards); err != nil {
		t.Fatal(err)
	}
	fecData := func(conv uint32) []byte {
		b := binary.LittleEndian.AppendUint32(nil, 5) // sequence id
		b = binary.LittleEndian.AppendUint16(b, fecTypeData)
		b = binary.LittleEndian.AppendUint16(b, 2+kcpHeaderSize)
		seg := make([]byte, kcpHeaderSize)
		binary.LittleEndian.PutUint32(seg, conv)
		return append(b, seg...)
	}
	parity := binary.LittleEndian.AppendUint32(nil, 6)
	parity = binary.LittleEndian.AppendUint16(parity, fecTypeParity)
	parity = append(parity, make([]byte, 2+kcpHeaderSize)...)
	wrapped := func() bool {
		_, _, err := connectKind(w.Seal([]byte("segment"), time.Now())[0])
		return err == nil
	}
	for _, tc := range []struct {
		name string
		b    []byte
	}{{"another conversation's packet", fecData(78)}, {"FEC parity", parity}, {"a packet too short to name one", []byte{1, 2, 3}}} {
		if kind, _ := w.Open(tc.b, server); kind != DatagramNone || w.admitted {
			t.Fatalf("%s: kind %d, admitted %v; want dropped, not admitted", tc.name, kind, w.admitted)
		}
		if !wrapped() {
			t.Fatalf("after %s: what we send is no longer wrapped", tc.name)
		}
	}
	if kind, _ := w.Open(fecData(77), netip.MustParseAddrPort("127.0.0.1:7778")); kind != DatagramNone || w.admitted {
		t.Fatalf("our conversation's packet from another address: kind %d, admitted %v", kind, w.admitted)
	}
	if kind, seg := w.Open(fecData(77), server); kind != DatagramKCP || !w.admitted || binary.LittleEndian.Uint32(seg) != 77 {
		t.Fatalf("our conversation's packet: kind %d, admitted %v", kind, w.admitted)
	}
	if wrapped() {
		t.Error("admitted, what we send is still wrapped")
	}
}
