package netcode_test

import (
	"testing"
	"time"

	"tanknet/netcode"
)

func BenchmarkStep(b *testing.B) {
	a := netcode.DefaultArena()
	p := netcode.Pose{X: 5, Y: 5}
	in := netcode.Input{Turn: 0.3, Throttle: 1}
	b.ReportAllocs()
	for b.Loop() {
		p = netcode.Step(&a, p, in, netcode.StepInterval)
		if p.X > 30 {
			p.X = 5
		}
	}
}

// twentyPending returns 20 steps of varied input: one second of driving.
func twentyPending() []netcode.PendingInput {
	steps := make([]netcode.PendingInput, 20)
	for i := range steps {
		steps[i] = netcode.PendingInput{Tick: uint32(i + 1), Input: netcode.Input{Turn: float64(i%3 - 1), Throttle: 1}, Duration: netcode.StepInterval}
	}
	return steps
}

func BenchmarkReplay20(b *testing.B) {
	a := netcode.DefaultArena()
	steps := twentyPending()
	b.ReportAllocs()
	for b.Loop() {
		netcode.Replay(&a, netcode.Pose{X: 5, Y: 12}, steps)
	}
}

func BenchmarkReconcile20Pending(b *testing.B) {
	a := netcode.DefaultArena()
	l := netcode.NewLocal(&a, netcode.DefaultLocalConfig(), netcode.State{Pose: netcode.Pose{X: 5, Y: 12}})
	for _, s := range twentyPending() {
		l.Predict(s.Input)
	}
	tick := uint32(0)
	b.ReportAllocs()
	for b.Loop() {
		tick++ // a newer state that acknowledges nothing: all 20 inputs replay every time
		l.Reconcile(netcode.State{Tick: tick, Pose: netcode.Pose{X: 5, Y: 12}})
	}
}

func BenchmarkInterpolatorSample(b *testing.B) {
	ip := netcode.NewInterpolator(netcode.DefaultInterpConfig())
	for k := range 32 {
		ip.Push(time.Duration(k)*netcode.StepInterval, netcode.State{Tick: uint32(k + 1), Pose: netcode.Pose{X: float64(k)}})
	}
	now := 31*netcode.StepInterval - 10*time.Millisecond
	b.ReportAllocs()
	for b.Loop() {
		ip.Sample(now) // steady state: the buffer is already trimmed to the bracket
	}
}

func BenchmarkInterpolatorPushSample(b *testing.B) {
	for _, tl := range []netcode.Timeline{netcode.ReceiveTimeline, netcode.ServerTimeline} {
		b.Run(tl.String(), func(b *testing.B) {
			cfg := netcode.DefaultInterpConfig()
			cfg.Timeline = tl
			ip := netcode.NewInterpolator(cfg)
			var k uint32
			b.ReportAllocs()
			for b.Loop() {
				k++
				now := time.Duration(k) * netcode.StepInterval
				ip.Push(now+30*time.Millisecond, netcode.State{Tick: k, Pose: netcode.Pose{X: float64(k % 30)}})
				ip.Sample(now + 40*time.Millisecond)
			}
		})
	}
}
