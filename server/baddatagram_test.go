package server_test

import (
	"context"
	"math"
	"testing"
	"time"

	tankv1 "tanknet/proto/tank/v1"
	"tanknet/transport"
)

// batch encodes an InputBatch datagram of the given MoveInputs (made by move).
func batch(t *testing.T, moves ...*tankv1.ClientMessage) []byte {
	t.Helper()
	b := &tankv1.InputBatch{}
	for _, m := range moves {
		b.Inputs = append(b.Inputs, m.GetMoveInput())
	}
	out, err := transport.AppendDatagram(nil, &tankv1.ClientMessage{Kind: &tankv1.ClientMessage_InputBatch{InputBatch: b}})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestBadInput_DatagramsAreDroppedAndCounted throws bad datagrams at the server from a player
// in the game and from a session that never said Hello, while a well-behaved bot plays. Bad
// datagrams are dropped and counted; they never drop the sender (its stream decides) and
// never disturb the bot.
func TestBadInput_DatagramsAreDroppedAndCounted(t *testing.T) {
	addr, srv := startServer(t, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	botDone := startBystander(ctx, addr)

	early := dialRaw(t, addr)
	early.sendDatagram(batch(t, move(1, 0, 1, 50))) // before any Hello: no player to give it to

	r := dialRaw(t, addr)
	start := r.join()
	next := start.Ack + 1
	many := make([]*tankv1.ClientMessage, 21)
	for i := range many {
		many[i] = move(next+uint32(i), 0, 1, 50)
	}
	good := batch(t, move(next, 0, 1, 50))
	bad := map[string][]byte{
		"garbage":           {0xff, 0xff, 0xff, 0xff},
		"truncated batch":   good[:len(good)-3],
		"not a batch":       mustDatagram(t, hello(transport.ProtocolVersion)),
		"21 inputs":         batch(t, many...),
		"NaN input":         batch(t, move(next, math.NaN(), 1, 50)),
		"zero duration":     batch(t, move(next, 0, 1, 0)),
		"empty (no kind)":   {},
		"far-future ticks":  batch(t, move(next+1_000_000, 0, 1, 50)),
		"duplicate of none": batch(t, move(next-1, 0, 1, 50)),
	}
	for range 3 { // datagrams may be lost even on loopback: each kind a few times
		for _, b := range bad {
			r.sendDatagram(b)
		}
	}
	full := batch(t, many[:20]...) // the most inputs a batch may carry
	for range 500 {                // a flood: four full batches fill a tick's allowance
		r.sendDatagram(full)
	}
	// The stream still decides: the offender plays on.
	r.send(move(next, 0, 1, 50))
	if got := r.ownState(next); got.Ack < next {
		t.Fatalf("offender's ack %d after its stream input %d", got.Ack, next)
	}

	res := <-botDone
	checkUndisturbed(t, res)
	st := srv.Stats()
	if st.DatagramsBad < 4 || st.DatagramsDropped < 1 || st.Drops != 0 {
		t.Errorf("server stats %+v: want >= 4 bad datagrams, >= 1 dropped, no player dropped", st)
	}
}

func mustDatagram(t *testing.T, m *tankv1.ClientMessage) []byte {
	t.Helper()
	b, err := transport.AppendDatagram(nil, m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
