package server_test

import (
	"context"
	"net"
	"testing"
	"time"

	"tanknet/client"
	"tanknet/linksim"
)

// TestEndToEnd_InputsSurviveALossBurstLongerThanTheRedundancyWindow plays one bot on the
// datagram lane over real KCP and cuts its upstream completely while it sends its inputs 20
// to 50: 1.5 s, three times the 0.5 s an InputBatch repeats. No datagram copy of the early
// ones survives, so the stream's retransmissions must bring them. The server must still
// apply every input exactly once and in tick order: with contact off a single skipped,
// doubled or reordered input would move a reconciled prediction, so the residual stays 0
// only if none was.
func TestEndToEnd_InputsSurviveALossBurstLongerThanTheRedundancyWindow(t *testing.T) {
	addr, srv := startServer(t, nil)
	udp, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	cc, err := linksim.Condition(udp, linksim.Conditions{}, 1)
	if err != nil {
		t.Fatal(err)
	}
	const burstFrom, burstTo = 20, 50 // inputs sent
	cut := linksim.Conditions{Outbound: linksim.Link{Loss: 1}}
	phase := 0
	onFrame := func(_ time.Time, g *client.Game) {
		sent := g.Stats().InputsSent
		switch {
		case phase == 0 && sent >= burstFrom:
			if err := cc.SetConditions(cut); err != nil {
				t.Error(err)
			}
			phase = 1
		case phase == 1 && sent >= burstTo:
			if err := cc.SetConditions(linksim.Conditions{}); err != nil {
				t.Error(err)
			}
			phase = 2
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	rep, err := client.RunBot(ctx, client.BotConfig{Addr: addr, Name: "burst", Seed: 3, Duration: 5 * time.Second,
		Options: client.DefaultOptions(), PacketConn: cc, OnFrame: onFrame})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Lane != "datagram" {
		t.Fatalf("bot played on the %q lane, want datagram", rep.Lane)
	}
	if lost := cc.Stats().Outbound.Lost; phase != 2 || lost < burstTo-burstFrom {
		t.Fatalf("burst phase %d, %d upstream packets lost; the burst did not happen as planned", phase, lost)
	}
	if rep.ResidualNonZero != 0 || rep.Snaps != 0 || rep.Reconciliations == 0 {
		t.Errorf("report %+v: want reconciliations with residual 0 and no snaps", rep)
	}
	if rep.LastAck <= burstTo {
		t.Errorf("last acknowledged move tick %d: the inputs after the burst were never applied", rep.LastAck)
	}
	st := srv.Stats()
	t.Logf("server: applied %d, early %d, redundant %d, past gap %d, stale %d", st.InputsApplied, st.InputsEarly, st.InputsRedundant, st.InputsPastGap, st.InputsStale)
	if st.InputsApplied < uint64(rep.LastAck) || st.InputsStale != 0 {
		t.Errorf("server applied %d inputs for a last ack of %d, %d stale: want each tick once", st.InputsApplied, rep.LastAck, st.InputsStale)
	}
}
