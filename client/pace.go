package client

import (
	"time"

	"tanknet/netcode"
	"tanknet/wire"
)

// pacing is a Game's clock: the local time it counts from and its last frame, and the rate
// its prediction steps run at (netcode.Dilation) so that our inputs reach the server's input
// buffer just in time, or the request to have them applied on arrival instead.
type pacing struct {
	epoch time.Time // local time zero for netcode's durations
	last  time.Time // the last frame's
	// dilation stretches each frame's time for the prediction clock; onArrival says we asked
	// for our inputs on arrival instead (InputMode), and modeSent that the server was told.
	dilation  *netcode.Dilation
	onArrival bool
	modeSent  bool
	report    netcode.InputReport // the newest report of our inputs in the buffer
}

// newPacing returns the clock of a Game that starts at local time now.
func newPacing(now time.Time, cfg netcode.DilationConfig, onArrival bool) pacing {
	return pacing{
		epoch: now, last: now,
		dilation:  netcode.NewDilation(cfg),
		onArrival: onArrival,
		modeSent:  !onArrival, // the buffer is what a server does unasked
	}
}

// frame moves the clock to local time now and returns how long the frame was.
func (p *pacing) frame(now time.Time) time.Duration {
	d := now.Sub(p.last)
	p.last = now
	return d
}

// now returns the last frame's time on netcode's timeline.
func (p *pacing) now() time.Duration { return p.last.Sub(p.epoch) }

// at returns local time t on netcode's timeline.
func (p *pacing) at(t time.Time) time.Duration { return t.Sub(p.epoch) }

// steps advances local's prediction clock by a frame of length frame, stretched by the
// dilation, and returns how many whole steps are due; the steps the Local dropped as too
// many for one frame are told to the dilation.
func (p *pacing) steps(local *netcode.Local, frame time.Duration) int {
	dropped := local.Counters().DroppedSteps
	n := local.Advance(p.dilation.Stretch(frame))
	p.dilation.Dropped(local.Counters().DroppedSteps - dropped)
	return n
}

// sent notes that the input of move tick tick left now.
func (p *pacing) sent(tick uint32) { p.dilation.Sent(tick) }

// observe takes the report in our newest own state of server tick tick, which acknowledged
// move tick ack: the clock follows it unless our inputs are applied on arrival.
func (p *pacing) observe(report netcode.InputReport, tick, ack uint32) {
	p.report = report
	if !p.onArrival {
		p.dilation.Observe(report, tick, ack)
	}
}

// setOnArrival switches the input mode; the server is told with the next mode message, and
// the clock starts again at its normal rate.
func (p *pacing) setOnArrival(on bool) {
	if on != p.onArrival {
		p.onArrival, p.modeSent = on, false
		p.dilation.Reset()
	}
}

// mode returns the InputMode the server has not been told yet, and false when it has.
// Call modeTold once it is sent.
func (p *pacing) mode() (wire.InputMode, bool) {
	return wire.InputMode{OnArrival: p.onArrival}, !p.modeSent
}

// modeTold notes that the server was sent the mode mode returned.
func (p *pacing) modeTold() { p.modeSent = true }
