package netcode

import (
	"slices"
	"time"
)

// SentDilation is Dilation reading each report as the wait an input sent now would have.
// It remembers, for every input sent, how far the prediction clock had been moved by then
// (its rate, jumps and held-back time: the shift), and corrects each report by the shift
// made since that input left and by the server's realignments (a starved tick makes the
// server apply every later input a tick later). A report made before a jump is then as good
// as one made after it, and the jump back after a starved tick is the window's own low
// wait, one tick longer.
//
// A candidate beside Dilation, compared in dilation_test.go.
type SentDilation struct {
	cfg     DilationConfig
	sent    []sentShift     // the inputs sent and not yet reported, oldest first
	shift   time.Duration   // prediction-clock time given minus frame time taken, so far
	debt    time.Duration   // time still to add (> 0) or hold back (< 0)
	align   int64           // server tick minus acknowledged move tick in the newest report
	ack     uint32          // newest acknowledged move tick reported
	tick    uint32          // newest server tick reported
	waits   []time.Duration // normalised waits (wait - shift at sending - align ticks), oldest first
	sorted  []time.Duration
	early   []time.Duration // normalised waits in a row, each more than Resync too long now
	rate    float64
	drift   float64
	starved int // reports left in which a realignment's surplus is looked for
	resyncs int
}

type sentShift struct {
	tick  uint32
	shift time.Duration
}

// NewSentDilation returns a SentDilation that starts at the normal rate.
func NewSentDilation(cfg DilationConfig) *SentDilation {
	cfg.Window, cfg.Low = max(cfg.Window, 1), max(cfg.Low, 1)
	return &SentDilation{cfg: cfg}
}

// Sent records that the input of move tick tick left now, after this frame's Stretch.
func (d *SentDilation) Sent(tick uint32) {
	if len(d.sent) >= maxSentKept {
		d.sent = d.sent[:copy(d.sent, d.sent[1:])]
	}
	d.sent = append(d.sent, sentShift{tick, d.shift})
}

// Dropped records that the prediction clock dropped steps due steps (its catch-up cap):
// they will never be sent, so the inputs after them leave that much later.
func (d *SentDilation) Dropped(steps int) { d.shift -= time.Duration(steps) * StepInterval }

// shiftReserve is what a jump back after a starved tick leaves to the rate: the window's
// low wait is two seconds of the link, and landing on it exactly starves again soon (on
// the links of dilation_test.go landing on it starved 1.3-2x more often, leaving 12.5 ms
// 1.1-1.3x more than leaving 25 ms).
const shiftReserve = StepInterval / 2

// maxSentKept bounds the inputs remembered: more than the server's input lead.
const maxSentKept = DefaultInputLead + AckReturnSteps

// shiftAt returns the shift in force when the input of tick left.
func (d *SentDilation) shiftAt(tick uint32) (time.Duration, bool) {
	i, ok := slices.BinarySearchFunc(d.sent, tick, func(s sentShift, t uint32) int { return int(int64(s.tick) - int64(t)) })
	if !ok {
		return 0, false
	}
	s := d.sent[i].shift
	d.sent = d.sent[:copy(d.sent, d.sent[i:])]
	return s, true
}

// Observe takes the report r of server tick tick, in a state whose acknowledged move tick
// is ack.
func (d *SentDilation) Observe(r InputReport, tick, ack uint32) {
	if r == (InputReport{}) || ack == 0 || tick <= d.tick {
		return
	}
	d.tick = tick
	align := int64(tick) - int64(ack)
	realigned := align > d.align && d.ack != 0
	d.align = align
	fresh := ack > d.ack
	d.ack = max(d.ack, ack)
	if realigned {
		d.starved = d.cfg.Window
	} else if fresh {
		d.starved = max(d.starved-1, 0)
	}
	now := d.shift + d.debt + time.Duration(align)*StepInterval // what shifts an input sent now
	surplus, run := d.cfg.Resync, earlyRun
	if d.starved > 0 {
		surplus, run = StepInterval*3/4, shiftRun
	}
	if fresh && !r.Starved {
		if s, ok := d.shiftAt(ack); ok {
			v := r.Wait - s - time.Duration(align)*StepInterval
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
	}
	if len(d.waits) == 0 {
		return
	}
	e := d.low() + now - d.cfg.Margin
	jumpEarly := len(d.early) >= run
	switch {
	case jumpEarly && d.starved > 0: // a starved tick realigned the buffer: the window says by how much
		d.starved, d.early = 0, d.early[:0]
		e -= shiftReserve
		jumpEarly = e > 0
	case jumpEarly: // a paused server kept every input: the window says nothing of now
		e = slices.Min(d.early) + now - d.cfg.Margin
		d.waits, d.early = d.waits[:0], d.early[:0]
	}
	if jumpEarly || e > d.cfg.Resync || e < -d.cfg.Resync {
		d.debt -= e
		d.rate = d.drift
		d.resyncs++
		return
	}
	p := -float64(e) / float64(d.cfg.Settle)
	d.drift = clamp(d.drift+p/driftReports, -d.cfg.MaxRate, d.cfg.MaxRate)
	d.rate = clamp(p+d.drift, -d.cfg.MaxRate, d.cfg.MaxRate)
}

func (d *SentDilation) low() time.Duration {
	d.sorted = append(d.sorted[:0], d.waits...)
	slices.Sort(d.sorted)
	return d.sorted[min(d.cfg.Low, len(d.sorted))-1]
}

// Stretch is Dilation.Stretch, keeping the shift.
func (d *SentDilation) Stretch(frame time.Duration) time.Duration {
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
	d.shift += out - max(frame, 0)
	return out
}

// Rate returns the clock's current rate offset.
func (d *SentDilation) Rate() float64 { return d.rate }

// Resyncs returns how many times the clock has jumped.
func (d *SentDilation) Resyncs() int { return d.resyncs }
