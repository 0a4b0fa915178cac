package client

import (
	"testing"
	"time"

	"tanknet/netcode"
	"tanknet/wire"
)

func TestPacing_FramesCountFromTheEpoch(t *testing.T) {
	t0 := time.Unix(50, 0)
	p := newPacing(t0, netcode.DefaultDilationConfig(), false)
	if d := p.frame(t0.Add(16 * time.Millisecond)); d != 16*time.Millisecond {
		t.Errorf("first frame lasted %v, want 16ms", d)
	}
	if d := p.frame(t0.Add(50 * time.Millisecond)); d != 34*time.Millisecond {
		t.Errorf("second frame lasted %v, want 34ms", d)
	}
	if now := p.now(); now != 50*time.Millisecond {
		t.Errorf("now() = %v, want 50ms", now)
	}
	if at := p.at(t0.Add(time.Second)); at != time.Second {
		t.Errorf("at(t0+1s) = %v, want 1s", at)
	}
}

// TestPacing_TheModeIsToldOnceAfterEachSwitch: the buffer needs no message, the first
// request for arrival does, and so does going back; setting the mode in force sends nothing.
func TestPacing_TheModeIsToldOnceAfterEachSwitch(t *testing.T) {
	p := newPacing(time.Unix(0, 0), netcode.DefaultDilationConfig(), false)
	if _, unsent := p.mode(); unsent {
		t.Fatal("the buffer, which a server uses unasked, is to be told")
	}
	want := func(on bool) {
		t.Helper()
		m, unsent := p.mode()
		if !unsent || m != (wire.InputMode{OnArrival: on}) {
			t.Fatalf("mode() = %+v, %v; want %v to be told", m, unsent, on)
		}
		p.modeTold()
		if _, unsent := p.mode(); unsent {
			t.Fatal("the mode is still to be told after modeTold")
		}
	}
	p.setOnArrival(true)
	want(true)
	p.setOnArrival(true)
	if _, unsent := p.mode(); unsent {
		t.Error("setting the mode in force asks to tell it again")
	}
	p.setOnArrival(false)
	want(false)
	if p2 := newPacing(time.Unix(0, 0), netcode.DefaultDilationConfig(), true); !p2.onArrival {
		t.Error("a Game started on arrival is not")
	} else if m, unsent := p2.mode(); !unsent || !m.OnArrival {
		t.Errorf("started on arrival: mode() = %+v, %v; want it told", m, unsent)
	}
}

// TestPacing_OnArrivalTheClockIgnoresReports: a report is kept either way, but only the
// buffer's reports steer the clock.
func TestPacing_OnArrivalTheClockIgnoresReports(t *testing.T) {
	for _, onArrival := range []bool{false, true} {
		p := newPacing(time.Unix(0, 0), netcode.DefaultDilationConfig(), onArrival)
		p.sent(1)
		r := netcode.InputReport{Wait: 20 * time.Millisecond, Waiting: 1}
		p.observe(r, 5, 1)
		if p.report != r {
			t.Errorf("on arrival %v: report %+v, want %+v", onArrival, p.report, r)
		}
		if _, ok := p.dilation.MedianWait(); ok == onArrival {
			t.Errorf("on arrival %v: the clock has a wait: %v", onArrival, ok)
		}
	}
}

func TestPacing_StepsAreTheDilatedFrame(t *testing.T) {
	p := newPacing(time.Unix(0, 0), netcode.DefaultDilationConfig(), false)
	a := netcode.DefaultArena()
	l := netcode.NewLocal(&a, netcode.DefaultLocalConfig(), netcode.State{})
	if n := p.steps(l, 3*netcode.StepInterval); n != 3 {
		t.Errorf("three steps' time at the normal rate gave %d steps", n)
	}
	if n := p.steps(l, netcode.StepInterval/2); n != 0 {
		t.Errorf("half a step gave %d steps", n)
	}
	if n := p.steps(l, netcode.StepInterval/2); n != 1 {
		t.Errorf("the second half gave %d steps, want 1", n)
	}
}
