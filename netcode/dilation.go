package netcode

import (
	"slices"
	"time"
)

// Dilation runs a client's prediction clock a little fast or slow so that its inputs reach
// the server's input buffer just in time: each arrives a small margin before the tick that
// applies it, never after (the tank would stand for that tick) and not much earlier (every
// millisecond of waiting is latency added to what the player sees the server do).
//
// The server reports, for every tick, how long the input it applied had waited and whether
// the tick starved (InputReport). Dilation keeps the last DilationConfig.Window reports
// and looks at a low one of them (the Nth lowest wait, a starved tick counting as a tick
// late): the jitter of the link is what makes waits vary, so holding that low wait at the
// margin holds the buffer as short as this link allows. The clock's rate follows the
// difference, bounded by MaxRate; an error too large to close smoothly (joining, a stall,
// a server that was paused) is corrected at once by running extra steps or holding steps
// back (Stretch).
//
// Dilation changes only when steps happen, never what a step is: every input still lasts
// StepInterval, so the server's simulation and the client's replay stay exact.
type Dilation struct {
	cfg    DilationConfig
	waits  []time.Duration // the newest reports, oldest first; a starved tick is negative
	sorted []time.Duration // scratch for the low quantile
	late   int             // starved ticks in a row
	rate   float64         // current rate offset: 0.05 runs the clock 5% fast
	drift  float64         // the part of rate that offsets a clock running steadily fast or slow
	debt   time.Duration   // time still to add (> 0) or hold back (< 0) in one jump
	deaf   int             // reports still to ignore after a jump: they were made before it
	early  []time.Duration // the newest waits, while each is more than Resync too early
	// starved counts down the reports after a starved tick (from Window): the server
	// applied that tick's input a tick late, and so every input after it, which then waits
	// a tick longer (see Observe).
	starved int
	resyncs int
}

// DilationConfig tunes a Dilation. The zero value is not usable; see DefaultDilationConfig.
type DilationConfig struct {
	// MaxRate bounds the clock's rate offset either way (0.1: between 90% and 110%).
	MaxRate float64
	// Window is how many ticks of reports the low wait is taken over.
	Window int
	// Low picks the low wait: the Low-th smallest of the window (1 is the minimum). Above 1
	// one lost packet does not hold the whole window's buffer a tick deeper.
	Low int
	// Margin is the wait the low one is held at.
	Margin time.Duration
	// Settle is how long the clock takes to close an error at the rate it sets: an error of
	// e runs the clock e/Settle fast or slow (within MaxRate).
	Settle time.Duration
	// Resync is the error beyond which the clock jumps instead of drifting.
	Resync time.Duration
}

// DefaultDilationConfig is what the client runs.
func DefaultDilationConfig() DilationConfig {
	return DilationConfig{
		MaxRate: 0.10,                   // what Unity's netcode allows: a 10% faster clock is not felt
		Window:  40,                     // 2 s of ticks: enough to see a link's jitter, short enough to follow it
		Low:     2,                      // a single late outlier (a loss the next batch covered) is not the link
		Margin:  4 * time.Millisecond,   // a little room for the tick's own scheduling jitter
		Settle:  4 * time.Second,        // the buffer integrates the rate and reports lag a window: a gentle gain does not overshoot
		Resync:  150 * time.Millisecond, // three ticks: 1.5 s at the full rate; a join that lands deeper jumps
	}
}

// earlyRun is how many waits in a row, each too long by more than Resync, make a jump:
// enough that one late burst of a link is not taken for a paused server.
const earlyRun = 5

// shiftRun is how many waits in a row, each most of a tick too long after a starved tick,
// make a jump back: half a second, so a jittery link's long waits are not taken for it.
const shiftRun = 10

// NewDilation returns a clock controller that starts at the normal rate.
func NewDilation(cfg DilationConfig) *Dilation {
	cfg.Window, cfg.Low = max(cfg.Window, 1), max(cfg.Low, 1)
	return &Dilation{cfg: cfg}
}

// Observe takes one tick's report of this client's inputs. An empty report (what a server
// sends when it applies inputs as they arrive, with no buffer to hold) changes nothing.
func (d *Dilation) Observe(r InputReport) {
	if r == (InputReport{}) {
		return // a server applying our inputs on arrival reports nothing
	}
	if d.deaf > 0 {
		d.deaf--
		return
	}
	w := r.Wait
	if r.Starved {
		d.late++
		w = -time.Duration(d.late) * StepInterval // its input came a tick late, or more
		d.starved = d.cfg.Window
	} else {
		d.late = 0
		d.starved = max(d.starved-1, 0)
	}
	if len(d.waits) == d.cfg.Window {
		d.waits = d.waits[:copy(d.waits, d.waits[1:])]
	}
	d.waits = append(d.waits, w)
	low := d.low()
	e := low - d.cfg.Margin // > 0: inputs come too early, run slower; < 0: too late, faster
	// Waits that suddenly grow (a server that was paused kept every input) take a whole
	// window to raise the low one; earlyRun of them in a row are enough to jump. After a
	// starved tick the same holds for a smaller growth: the server applies the late input
	// a tick after its own, and every input after it, so each waits a tick longer than the
	// buffer needs. Drifting that tick off would take seconds (Settle), and a window that
	// hitches now and then would starve again before it had: its waits would sit a tick
	// or two above the margin for good. So once earlyRun waits in a row are most of a tick
	// too long, the clock jumps back by the surplus.
	surplus, run := d.cfg.Resync, earlyRun
	if d.starved > 0 {
		surplus, run = StepInterval*3/4, shiftRun
	}
	if w-d.cfg.Margin > surplus {
		d.early = append(d.early, w)
	} else {
		d.early = d.early[:0]
	}
	jumpEarly := len(d.early) >= run
	if jumpEarly {
		e = slices.Min(d.early) - d.cfg.Margin
		if d.starved > 0 {
			e -= StepInterval / 4 // leave the rest to the rate: ten waits say little of the jitter
		}
	}
	if jumpEarly || e > d.cfg.Resync || e < -d.cfg.Resync {
		d.starved = 0
		d.early = d.early[:0]
		d.debt -= e
		d.rate = d.drift
		d.waits, d.late = d.waits[:0], 0 // what came before the jump says nothing of after it
		d.deaf = d.cfg.Window / 2        // nor do the reports already on their way (a second's worth)
		d.resyncs++
		return
	}
	// The rate is proportional to the error, plus what the error left over time says of the
	// client's own clock (a crystal a fraction of a percent fast shows as an error that never
	// closes): that part, drift, integrates the error slowly, over driftReports reports.
	p := -float64(e) / float64(d.cfg.Settle)
	d.drift = clamp(d.drift+p/driftReports, -d.cfg.MaxRate, d.cfg.MaxRate)
	d.rate = clamp(p+d.drift, -d.cfg.MaxRate, d.cfg.MaxRate)
}

// driftReports is how many reports the drift estimate averages the error over: 2 minutes of
// ticks, slow enough to leave the link's jitter to the proportional part.
const driftReports = 2400

// low returns the Low-th smallest wait in the window (the smallest while fewer are kept).
func (d *Dilation) low() time.Duration {
	d.sorted = append(d.sorted[:0], d.waits...)
	slices.Sort(d.sorted)
	return d.sorted[min(d.cfg.Low, len(d.sorted))-1]
}

// Stretch returns how much prediction-clock time a frame of frame wall time is worth: the
// frame at the current rate, plus a share of any jump still to make (at most one step a
// frame, so the clock's catch-up cap never drops it), minus any held-back time.
func (d *Dilation) Stretch(frame time.Duration) time.Duration {
	out := frame + time.Duration(float64(frame)*d.rate)
	switch {
	case d.debt > 0:
		add := min(d.debt, StepInterval)
		out += add
		d.debt -= add
	case d.debt < 0:
		take := min(-d.debt, out)
		out -= take
		d.debt += take
	}
	return max(out, 0)
}

// MedianWait returns the median of the waits in the window (a starved tick counts as a
// tick late), steadier to show than the newest one; false before the first report.
func (d *Dilation) MedianWait() (time.Duration, bool) {
	if len(d.waits) == 0 {
		return 0, false
	}
	d.sorted = append(d.sorted[:0], d.waits...)
	slices.Sort(d.sorted)
	return d.sorted[len(d.sorted)/2], true
}

// Rate returns the clock's current rate offset: 0.05 means 5% fast, -0.1 10% slow.
func (d *Dilation) Rate() float64 { return d.rate }

// Resyncs returns how many times the clock has jumped.
func (d *Dilation) Resyncs() int { return d.resyncs }

// Reset forgets every report and returns to the normal rate, for a client whose inputs
// stopped going through the buffer.
func (d *Dilation) Reset() {
	d.waits, d.late, d.rate, d.drift, d.debt, d.deaf, d.early = d.waits[:0], 0, 0, 0, 0, 0, d.early[:0]
}
