package render

import (
	"testing"
	"time"

	"tanknet/client"
	"tanknet/netcode"
	"tanknet/render/view"
)

// TestKeyboardReadsTheTouchPad: the live window's keyboard steering takes a touch pad's
// stick as its input and its fire button as Space, and a tap shorter than a frame fires once.
func TestKeyboardReadsTheTouchPad(t *testing.T) {
	_, opts := report()
	p := livePane("", "player", 1, client.NewClock(time.Now()), opts)
	var pad view.TouchPad
	k := keyboard{&pad}

	pad.Set(view.Stick{X: -1, Y: -1}, false)
	k.steer(p)
	if want := (netcode.Input{Turn: 1, Throttle: 1}); p.input != want || p.firing {
		t.Errorf("stick up and left: input %+v, firing %v; want %+v, not firing", p.input, p.firing, want)
	}
	pad.Set(view.Stick{}, true)
	pad.Set(view.Stick{}, false)
	k.steer(p)
	if p.input != (netcode.Input{}) || !p.firing {
		t.Errorf("stick let go and fire tapped: input %+v, firing %v; want no input, firing", p.input, p.firing)
	}
	k.steer(p)
	if p.firing {
		t.Error("the frame after a tap still fires, want one shot asked for per tap")
	}
}
