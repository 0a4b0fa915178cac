package server

import (
	"testing"
	"time"

	"tanknet/netcode"
)

// BenchmarkJudgeLagCompensated measures one lag-compensated shot in a world of 16 tanks:
// rebuilding 15 targets from the history at a bracketed view 5 ticks back, the hitscan,
// and the encoded ShotResult and Shot (one op = one shot judged).
func BenchmarkJudgeLagCompensated(b *testing.B) {
	cfg := DefaultConfig()
	cfg.Rules.SpawnProtection = 0
	w := newWorld(&cfg, discardLogger(), new(counters))
	var shooter *player
	for i := range 16 {
		p, reject := w.join(0, "b", &sinkPeer{}) // discards what it is sent
		if reject != nil {
			b.Fatal(reject)
		}
		p.pose = netcode.Pose{X: 2 + float64(i)*2.2, Y: 12.5 + float64(i%3)}
		if i == 0 {
			shooter = p
		}
	}
	for range 10 {
		w.step(time.Duration(w.tick+1) * netcode.StepInterval)
	}
	shooter.last, shooter.ack = 1, 1
	shooter.recordMove(1)
	req := netcode.ShotRequest{MoveTick: 1, LagCompensation: true}
	for _, p := range w.players[1:] {
		req.Views = append(req.Views, netcode.TankView{ID: p.id, View: netcode.View{From: w.tick - 5, To: w.tick - 4, Fraction: 0.3}})
	}
	b.ReportAllocs()
	for b.Loop() {
		shooter.shots = shotClock{}
		w.judge(shooter, req)
	}
}
