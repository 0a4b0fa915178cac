package netcode

import (
	"math"
	"testing"
	"time"
)

func TestView_Valid(t *testing.T) {
	tests := []struct {
		name string
		v    View
		want bool
	}{
		{"bracket", View{From: 3, To: 4, Fraction: 0.25}, true},
		{"bracket over a lost tick", View{From: 3, To: 5, Fraction: 0.9}, true},
		{"bracket over MaxViewSpan", View{From: 3, To: 3 + MaxViewSpan, Fraction: 0.5}, true},
		{"bracket over a longer gap", View{From: 3, To: 4 + MaxViewSpan, Fraction: 0.5}, false},
		{"hold", View{From: 7, To: 7}, true},
		{"hold with a fraction", View{From: 7, To: 7, Fraction: 0.5}, false},
		{"backwards", View{From: 5, To: 4}, false},
		{"fraction one", View{From: 3, To: 4, Fraction: 1}, false},
		{"negative fraction", View{From: 3, To: 4, Fraction: -0.1}, false},
		{"NaN", View{From: 3, To: 4, Fraction: math.NaN()}, false},
		{"infinity", View{From: 3, To: 4, Fraction: math.Inf(1)}, false},
	}
	for _, tt := range tests {
		if got := tt.v.Valid(); got != tt.want {
			t.Errorf("%s: %v.Valid() = %v, want %v", tt.name, tt.v, got, tt.want)
		}
	}
}

func TestView_Tick(t *testing.T) {
	if got := (View{From: 10, To: 12, Fraction: 0.25}).Tick(); got != 10.5 {
		t.Errorf("Tick() = %v, want 10.5", got)
	}
	if got := (View{From: 9, To: 9}).Tick(); got != 9 {
		t.Errorf("held Tick() = %v, want 9", got)
	}
}

func TestDrawnPose_HoldIsTheStateItself(t *testing.T) {
	p, q := Pose{1, 2, 3}, Pose{9, 9, -3}
	if got := DrawnPose(p, q, View{From: 4, To: 4}); got != p {
		t.Errorf("DrawnPose(hold) = %v, want %v", got, p)
	}
	want := Lerp(p, q, 0.3)
	if got := DrawnPose(p, q, View{From: 4, To: 5, Fraction: 0.3}); got != want {
		t.Errorf("DrawnPose(bracket) = %v, want Lerp %v", got, want)
	}
}

// The Interpolator draws with DrawnPose, so what it reports as its View reproduces what it
// drew, bit for bit, in every case it can be in: bracketed, held and teleported.
func TestInterpolator_ViewReproducesDrawnPose(t *testing.T) {
	ip := receiveInterp(t)
	states := map[uint32]Pose{}
	push := func(now int, s State) {
		states[s.Tick] = s.Pose
		ip.Push(time.Duration(now)*ms, s)
	}
	push(0, st(1, 1, 1, 0.1))
	push(50, st(2, 1.3, 1.1, 0.2))
	push(100, st(3, 1.71, 1.13, 3.1))
	states[4] = Pose{15, 20, -3.1}
	ip.PushTeleport(150*ms, st(4, 15, 20, -3.1)) // a respawn
	for now := 90; now <= 400; now += 7 {
		drawn, _ := ip.Sample(time.Duration(now) * ms)
		v := ip.View()
		if !v.Valid() {
			t.Fatalf("Sample(%dms): View() = %v is not valid", now, v)
		}
		if got := DrawnPose(states[v.From], states[v.To], v); got != drawn {
			t.Errorf("Sample(%dms) drew %v, DrawnPose(%v) = %v", now, drawn, v, got)
		}
	}
	if c := ip.Counters(); c.Teleports == 0 || c.Holds == 0 {
		t.Errorf("Counters() = %+v: the walk should cover a teleport and a hold", c)
	}
}
