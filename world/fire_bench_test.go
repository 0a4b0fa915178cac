package world

import (
	"testing"

	"tanknet/netcode"
)

// BenchmarkJudgeLagCompensated measures one lag-compensated shot in a world of 16 tanks:
// rebuilding 15 targets from the history at a bracketed view 5 ticks back and the hitscan
// (one op = one shot judged; the server's encoding of its ShotResult and Shot is not in it).
func BenchmarkJudgeLagCompensated(b *testing.B) {
	cfg := testConfig()
	cfg.Rules.SpawnProtection = 0
	w := New(cfg)
	var shooter *Tank
	for i := range 16 {
		tk := mustJoin(b, w, uint32(i+1), &testClient{})
		tk.pose = netcode.Pose{X: 2 + float64(i)*2.2, Y: 12.5 + float64(i%3)}
		if i == 0 {
			shooter = tk
		}
	}
	for range 10 {
		runTick(w)
	}
	shooter.last, shooter.ack = 1, 1
	shooter.recordMove(1)
	req := netcode.ShotRequest{MoveTick: 1, LagCompensation: true}
	for _, tk := range w.tanks[1:] {
		req.Views = append(req.Views, netcode.TankView{ID: tk.id, View: netcode.View{From: w.tick - 5, To: w.tick - 4, Fraction: 0.3}})
	}
	if js := w.judge(shooter, req); js.Result.Verdict != netcode.VerdictHit {
		b.Fatalf("the benchmark's shot: %+v, want a hit (the whole path judged)", js.Result)
	}
	b.ReportAllocs()
	for b.Loop() {
		shooter.shots = shotClock{}
		w.judge(shooter, req)
	}
}
