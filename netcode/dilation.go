package netcode

import (
	"cmp"
	"slices"
	"time"
)

// Dilation runs a client's prediction clock a little fast or slow so that its inputs reach
// the server's input buffer just in time: each arrives a small margin before the tick that
// applies it, never after (the tank would stand for that tick) and not much earlier (every
// millisecond of waiting is latency added to what the player sees the server do).
//
// The server reports, for every tick, how long the newest input it applied had waited and
// whether the tick starved (InputReport), in the state that says which input that was
// (its acknowledged move tick). Dilation reads each report as the wait an input sent now
// would have: it remembers how far the clock had been moved (the shift: its rate, its
// jumps, the steps it dropped) when each input left, and corrects the report by the shift
// made since and by the ticks the server has since realigned by (a starved tick makes the
// server apply every later input a tick later). It keeps the last DilationConfig.Window
// such waits and holds a low one of them (the Nth lowest) at the margin: the jitter of the
// link is what makes them vary, so this holds the buffer as short as this link allows. The
// clock's rate follows the difference, bounded by MaxRate; an error too large to close
// smoothly (joining, a stall, a server that was paused, a starved tick) is corrected at
// once by running extra steps or holding steps back (Stretch).
//
// Dilation changes only when steps happen, never what a step is: every input still lasts
// StepInterval, so the server's simulation and the client's replay stay exact.
//
// One goroutine uses a Dilation: it calls Stretch once a frame, Sent for every input that
// frame sends, Dropped for the steps its clock dropped, and Observe for every newer state.
type Dilation struct {
	cfg    DilationConfig
	sent   []sentShift     // the inputs sent and not yet reported, oldest first
	shift  time.Duration   // prediction-clock time given minus frame time taken, so far
	debt   time.Duration   // time still to add (> 0) or hold back (< 0) in one jump
	align  int64           // server tick minus acknowledged move tick, in the newest report
	ack    uint32          // newest acknowledged move tick reported
	tick   uint32          // newest server tick reported
	waits  []time.Duration // the newest waits, oldest first, normalised (see Observe)
	sorted []time.Duration // scratch for the low quantile
	early  []time.Duration // the newest normalised waits, while each is too long (see Observe)
	rate   float64         // current rate offset: 0.05 runs the clock 5% fast
	drift  float64         // the part of rate that offsets a clock running steadily fast or slow
	// starved counts down the reports after a realignment (from Window): the server applies
	// every input after a starved tick a tick later, so each waits a tick longer.
	starved int
	resyncs int
}

// sentShift is the shift in force when the input of a move tick left.
type sentShift struct {
	tick  uint32
	shift time.Duration
}

// DilationConfig tunes a Dilation. The zero value is not usable; see DefaultDilationConfig.
type DilationConfig struct {
	// MaxRate bounds the clock's rate offset either way (0.1: between 90% and 110%).
	MaxRate float64
	// Window is how many reports the low wait is taken over.
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
		Settle:  4 * time.Second,        // gentle: a link's jitter moves the low wait, and the rate should not chase it
		Resync:  150 * time.Millisecond, // three ticks: 1.5 s at the full rate; a join that lands deeper jumps
	}
}

// earlyRun is how many waits in a row, each too long by more than Resync, make a jump:
// enough that one late burst of a link is not taken for a paused server.
const earlyRun = 5

// shiftRun is how many waits in a row, each most of a tick too long after a starved tick,
// make a jump back: half a second, so a jittery link's long waits are not taken for it.
const shiftRun = 10

// shiftReserve is what a jump back after a starved tick leaves to the rate: the window's low
// wait is two seconds of one link, and landing on it exactly starves again soon (in
// dilation_test.go's links, 1.3 to 2 times as often as leaving 25 ms; leaving 12.5 ms, 1.1
// to 1.3 times).
const shiftReserve = StepInterval / 2

// driftReports is how many reports the drift estimate averages the error over: 2 minutes of
// ticks, slow enough to leave the link's jitter to the proportional part.
const driftReports = 2400

// maxSentKept bounds the inputs remembered: every input the server may still apply.
const maxSentKept = DefaultInputLead + AckReturnSteps

// NewDilation returns a clock controller that starts at the normal rate.
func NewDilation(cfg DilationConfig) *Dilation {
	cfg.Window, cfg.Low = max(cfg.Window, 1), max(cfg.Low, 1)
	return &Dilation{cfg: cfg}
}

// Sent records that the input of move tick tick left in this frame, after its Stretch.
func (d *Dilation) Sent(tick uint32) {
	if len(d.sent) == maxSentKept {
		d.sent = d.sent[:copy(d.sent, d.sent[1:])]
	}
	d.sent = append(d.sent, sentShift{tick, d.shift})
}

// Dropped records that the prediction clock dropped steps due steps (its catch-up cap,
// Clock.Dropped): they are never sent, so every input after them leaves that much later.
func (d *Dilation) Dropped(steps int) { d.shift -= time.Duration(steps) * StepInterval }

// shiftAt returns the shift in force when the input of tick left, and forgets the inputs
// before it.
func (d *Dilation) shiftAt(tick uint32) (time.Duration, bool) {
	i, ok := slices.BinarySearchFunc(d.sent, tick, func(s sentShift, t uint32) int { return cmp.Compare(s.tick, t) })
	d.sent = d.sent[:copy(d.sent, d.sent[i:])]
	if !ok {
		return 0, false
	}
	return d.sent[0].shift, true
}

// Observe takes the report r of server tick tick, from this client's own state of that
// tick, whose acknowledged move tick is ack. Reports of a tick no newer than the last one
// taken, empty reports (what a server sends when it applies inputs as they arrive, with no
// buffer to hold) and reports before the first input was applied (ack 0) change nothing.
//
// With s(n) the shift in force when input n left, S the shift now (debt included) and
// a = tick - ack, the report of a tick that applied input ack says an input sent now would
// wait r.Wait + (S - s(ack)) + (a_now - a) ticks: Observe keeps v = r.Wait - s(ack) - a ticks
// and adds S + a_now ticks when it compares.
func (d *Dilation) Observe(r InputReport, tick, ack uint32) {
	if r == (InputReport{}) || ack == 0 || tick <= d.tick {
		return
	}
	d.tick = tick
	align := int64(tick) - int64(ack)
	fresh := ack > d.ack
	if !fresh {
		// A tick that applied none of our inputs says nothing of when one sent now would be
		// applied: the server's schedule moves on only when the next input is (its align
		// grows by the starved ticks then). Taking the growing align for longer waits would
		// hold the clock back through an upstream outage, and stop the inputs that end it.
		return
	}
	if align > d.align && d.ack != 0 {
		d.starved = d.cfg.Window // a tick starved (or was held back): later inputs wait a tick longer
	} else {
		d.starved = max(d.starved-1, 0)
	}
	d.align, d.ack = align, ack
	now := d.shift + d.debt + time.Duration(align)*StepInterval
	// Waits that suddenly grow (a server that was paused kept every input) take a whole
	// window to raise the low one; earlyRun of them in a row, each more than Resync too
	// long, are enough to jump by the least of them. After a realignment the same holds for
	// a smaller surplus, most of a tick: the window then says how far to jump back.
	surplus, run := d.cfg.Resync, earlyRun
	if d.starved > 0 {
		surplus, run = StepInterval*3/4, shiftRun
	}
	if !r.Starved {
		d.keepWait(r.Wait, ack, align, now, surplus)
	}
	if len(d.waits) == 0 {
		return
	}
	d.steer(now, run)
}

// keepWait keeps v = wait - s(ack) - align ticks in the window, and in the run of early
// waits while v with the shift now (now) is more than surplus too long.
func (d *Dilation) keepWait(wait time.Duration, ack uint32, align int64, now, surplus time.Duration) {
	s, ok := d.shiftAt(ack)
	if !ok {
		return
	}
	v := wait - s - time.Duration(align)*StepInterval
	if len(d.waits) == d.cfg.Window {
		d.waits = d.waits[:copy(d.waits, d.waits[1:])]
	}
	d.waits = append(d.waits, v)
	if v+now-d.cfg.Margin > surplus {
		d.early = append(d.early, v)
	} else {
		d.early = d.early[:0]
	}
}

// steer sets the rate from the window's low wait with the shift now (now), or jumps the
// clock once run early waits in a row, or an error beyond Resync, say it is off by more
// than a rate could close soon.
func (d *Dilation) steer(now time.Duration, run int) {
	e := d.low() + now - d.cfg.Margin // > 0: inputs come too early, run slower; < 0: too late, faster
	jump := len(d.early) >= run
	switch {
	case jump && d.starved > 0: // the window, one tick longer, is how far to jump back
		d.starved, d.early = 0, d.early[:0]
		e -= shiftReserve
		jump = e > 0
	case jump: // a paused server kept every input: the window says nothing of now
		e = slices.Min(d.early) + now - d.cfg.Margin
		d.waits, d.early = d.waits[:0], d.early[:0]
	}
	if jump || e > d.cfg.Resync || e < -d.cfg.Resync {
		d.debt -= e
		d.rate = d.drift
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

// low returns the Low-th smallest normalised wait in the window (the smallest while fewer
// are kept).
func (d *Dilation) low() time.Duration {
	d.sorted = append(d.sorted[:0], d.waits...)
	slices.Sort(d.sorted)
	return d.sorted[min(d.cfg.Low, len(d.sorted))-1]
}

// Stretch returns how much prediction-clock time a frame of frame wall time is worth: the
// frame at the current rate, plus a share of any jump still to make (at most one step a
// frame, so the clock's catch-up cap never drops it), minus any held-back time.
func (d *Dilation) Stretch(frame time.Duration) time.Duration {
	frame = max(frame, 0)
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
	out = max(out, 0)
	d.shift += out - frame
	return out
}

// MedianWait returns the median of the window's waits, each as an input sent now would have
// it; false before the first report.
func (d *Dilation) MedianWait() (time.Duration, bool) {
	if len(d.waits) == 0 {
		return 0, false
	}
	d.sorted = append(d.sorted[:0], d.waits...)
	slices.Sort(d.sorted)
	return d.sorted[len(d.sorted)/2] + d.shift + d.debt + time.Duration(d.align)*StepInterval, true
}

// Rate returns the clock's current rate offset: 0.05 means 5% fast, -0.1 10% slow.
func (d *Dilation) Rate() float64 { return d.rate }

// Resyncs returns how many times the clock has jumped.
func (d *Dilation) Resyncs() int { return d.resyncs }

// Reset forgets every report and every input sent and returns to the normal rate, for a
// client whose inputs stopped going through the buffer. The count of jumps stays.
func (d *Dilation) Reset() {
	*d = Dilation{cfg: d.cfg, sent: d.sent[:0], waits: d.waits[:0], sorted: d.sorted[:0], early: d.early[:0], resyncs: d.resyncs}
}
