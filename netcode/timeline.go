package netcode

import (
	"fmt"
	"math"
	"time"
)

// Timeline says where an Interpolator places its samples in time, and so how it chooses the
// moment it renders.
type Timeline int

const (
	// ReceiveTimeline places each sample at its local receive time and renders a fixed
	// InterpConfig.Delay behind now. It is simple and needs no clock estimate, but uneven
	// arrivals (jitter, a retransmission followed by a burst) show up as uneven motion and
	// holds.
	ReceiveTimeline Timeline = iota
	// ServerTimeline places each sample at its server tick times StepInterval, estimates
	// the offset between the local clock and server time from the earliest arrivals, and
	// renders behind that estimate by a delay sized for the gaps the link actually shows.
	//
	// A frame holds when the render clock passes the newest sample. So each arrival tells
	// what delay it needed: how far the estimated server time had moved past the previous
	// newest sample when it came. A late snapshot needs more (jitter, a retransmission
	// burst), and so does one that follows a lost snapshot, by a whole tick per loss, even
	// if it comes on time. The timeline keeps a histogram of the last needs and steers
	// toward the one that covers InterpConfig.Cover of them: on a steady link that
	// loses 5% of snapshots this bridges every single loss, where a jitter estimate alone
	// would sit below one tick's gap and hold. Needs beyond MaxDelay are left out: such a
	// gap is not bridged, and a clock jump must not inflate the delay. The render clock
	// never jumps: it runs slightly fast or slow (within InterpConfig.MaxRate) to reach a
	// new delay. The histogram keeps the last 256 needs, so Cover says how many of the
	// largest it leaves out, and from when: the default 0.993 leaves out the single largest
	// once 143 needs have come (1/(1-Cover)), and never more than one.
	//
	// A young histogram cannot see its own tail: until it holds 1/(1-Cover) needs its
	// Cover quantile is simply the largest need so far, and on a link that loses a few
	// percent of snapshots the first loss is usually still to come. Left alone, the delay
	// would start near one tick and crawl up at MaxRate as each new kind of gap shows
	// itself, holding at every one on the way. So for its first warmupNeeds arrivals
	// (three seconds at 20 Hz) the timeline covers one tick more than the largest need it
	// has seen: room for the loss it has not met yet. After that the histogram speaks for
	// itself, and the delay eases down to its quantile if the loss never came. A tank that
	// comes into view on a link already measured need not warm up at all: the
	// interpolators of every tank on one link share one ServerClock.
	ServerTimeline
)

// String returns the timeline's name as flags spell it: "receive" or "adaptive".
func (t Timeline) String() string {
	switch t {
	case ReceiveTimeline:
		return "receive"
	case ServerTimeline:
		return "adaptive"
	}
	return fmt.Sprintf("Timeline(%d)", int(t))
}

// ParseTimeline returns the timeline named s: "receive", or "adaptive" (also "server").
func ParseTimeline(s string) (Timeline, error) {
	switch s {
	case "receive":
		return ReceiveTimeline, nil
	case "adaptive", "server":
		return ServerTimeline, nil
	}
	return 0, fmt.Errorf("netcode: unknown interpolation timeline %q (want receive or adaptive)", s)
}

const (
	// offsetWindow is how many recent arrivals the clock-offset estimate takes its minimum
	// over: 3.2 s at 20 Hz, long enough to see an on-time packet between bursts, short
	// enough to follow a route change.
	offsetWindow = 64
	// steerTime sets how hard the render clock steers toward its ideal position: the rate
	// offset is the error divided by this, then clamped to MaxRate. An error of 100 ms is
	// corrected at +10%, taking about a second.
	steerTime = time.Second
	// jitterRise and jitterFall are the gains of the jitter estimate (shown, not steered
	// by) toward a larger and a smaller lag: up within a few late packets, down over about
	// three seconds.
	jitterRise, jitterFall = 4, 64
	// needWindow is how many recent arrivals the delay covers: 12.8 s at 20 Hz, long
	// enough to see a few losses at 2%, short enough to relax after a bad spell.
	needWindow = 256
	// needBucket is the histogram's resolution; a need counts as the bucket edge at or
	// above it, so the delay is never below what the covered arrivals needed. Coarser
	// buckets round every delay up by half a bucket on average.
	needBucket = time.Millisecond
	// warmupNeeds is how many needs the histogram must hold before its quantile alone
	// sets the delay; until then the delay adds a tick to the largest (see ServerTimeline).
	// 60 arrivals see at least one loss with probability 1 - 0.96^60 = 91% on a link that
	// loses 4% of snapshots. On simulated wifi-bad it cut the frames held between 1 s and
	// 5 s from 2.3% to 0.25% (TestServerTimeline_WarmUpHoldsRarely), and over a 20 s run
	// from 0.44% to 0.21% for 2 ms more median delay (BenchmarkServerTimelineCover); 40
	// arrivals still held 0.43% early on, and 80 saved little more for another 1.4 ms.
	warmupNeeds = 60
)

// ServerClock is the server timeline's estimate of one link: how far the local clock is
// ahead of server time for the fastest arrivals (offset), how late the rest arrive
// (jitter), the delays recent arrivals needed, and where the render clock is on the
// server's timeline. Every tank's states come in the same snapshots, so the interpolators
// of all the tanks on one link share one clock (ServerClock.NewInterpolator): a tank that
// comes into view starts at the delay the link has already shown, drawn at the same server
// time as the tanks around it, and each snapshot is measured once however many tanks it
// carries. A ServerClock is not safe for concurrent use.
type ServerClock struct {
	cfg     InterpConfig
	window  [offsetWindow]time.Duration // recent (receive time - server time) values
	n, next int
	offset  time.Duration // minimum over window
	jitter  time.Duration // peak-following estimate of lag behind offset
	needs   needHistogram // delays recent arrivals needed
	newest  time.Duration // server time of the newest sample so far
	seen    bool          // whether any sample has arrived

	// target caches targetDelay, which frames ask for far more often than snapshots
	// change it; targetFresh says whether it still matches needs.
	target      time.Duration
	targetFresh bool

	started bool
	render  time.Duration // render position on the server timeline
	lastNow time.Duration
}

// NewServerClock returns a clock for interpolators configured as cfg, which must be valid
// and on the server timeline; it panics otherwise.
func NewServerClock(cfg InterpConfig) *ServerClock {
	if err := cfg.Validate(); err != nil {
		panic(err)
	}
	if cfg.Timeline != ServerTimeline {
		panic(fmt.Sprintf("netcode: a server clock needs the server timeline, not %v", cfg.Timeline))
	}
	return &ServerClock{cfg: cfg.withDefaults()}
}

// NewInterpolator returns an empty interpolator for one more tank on c's link, configured
// as c is.
func (c *ServerClock) NewInterpolator() *Interpolator { return newInterpolator(c.cfg, c) }

// observe takes the sample for server time at, received at local time now, into the
// estimate if it is newer than every sample so far; the same snapshot's other tanks, and
// late states of older ones, tell the link nothing new.
func (c *ServerClock) observe(now, at time.Duration) {
	if c.seen && at <= c.newest {
		return
	}
	c.arrive(now, at)
	c.need(now, at)
}

// arrive records that the sample for server time at arrived at local time now.
func (c *ServerClock) arrive(now, at time.Duration) {
	c.window[c.next] = now - at
	c.next = (c.next + 1) % offsetWindow
	c.n = min(c.n+1, offsetWindow)
	c.offset = c.window[0]
	for _, o := range c.window[1:c.n] {
		c.offset = min(c.offset, o)
	}
	lag := now - at - c.offset
	if lag > c.jitter {
		c.jitter += (lag - c.jitter) / jitterRise
	} else {
		c.jitter += (lag - c.jitter) / jitterFall
	}
}

// need records the delay the arrival of the sample for server time at, at local time now,
// needed not to hold: how far estimated server time was past the previous newest sample.
// Call it after arrive, for samples newer than every earlier one.
func (c *ServerClock) need(now, at time.Duration) {
	prev, first := c.newest, !c.seen
	c.newest, c.seen = at, true
	if first {
		return
	}
	if d := now - c.offset - prev; d <= c.cfg.MaxDelay {
		c.needs.add(max(d, 0))
		c.targetFresh = false
	}
}

// targetDelay returns the delay the render clock steers toward.
func (c *ServerClock) targetDelay() time.Duration {
	if cfg := &c.cfg; !c.targetFresh {
		d := c.needs.quantile(cfg.Cover)
		if c.needs.n < warmupNeeds {
			d = c.needs.quantile(1) + StepInterval // the largest need, and a loss to come
		}
		c.target, c.targetFresh = min(max(d, cfg.MinDelay), cfg.MaxDelay), true
	}
	return c.target
}

// needHistogram counts the last needWindow delays in needBucket-wide buckets.
type needHistogram struct {
	recent  [needWindow]uint16 // bucket of each recent value, oldest overwritten first
	n, next int
	counts  []int // per bucket; grows to the largest bucket seen
}

func (h *needHistogram) add(d time.Duration) {
	b := int((d + needBucket - 1) / needBucket)
	if h.n == needWindow {
		h.counts[h.recent[h.next]]--
	} else {
		h.n++
	}
	for len(h.counts) <= b {
		h.counts = append(h.counts, 0)
	}
	h.counts[b]++
	h.recent[h.next] = uint16(b)
	h.next = (h.next + 1) % needWindow
}

// quantile returns the smallest bucket edge at or above share q of the values, 0 when
// there are none.
func (h *needHistogram) quantile(q float64) time.Duration {
	want := int(math.Ceil(q * float64(h.n)))
	seen := 0
	for b, k := range h.counts {
		if seen += k; seen >= want && seen > 0 {
			return time.Duration(b) * needBucket
		}
	}
	return 0
}

// renderTime moves the render clock to local time now and returns its position on the
// server timeline. It runs at a rate within 1 +/- MaxRate toward now - offset - target
// delay, and jumps there only on the first call or when more than MaxDelay away. Calls at
// the same now (one for each tank of a frame) return the same position.
func (c *ServerClock) renderTime(now time.Duration) time.Duration {
	if c.started && now == c.lastNow {
		return c.render
	}
	cfg := &c.cfg
	ideal := now - c.offset - c.targetDelay()
	dt := max(0, now-c.lastNow)
	err := ideal - (c.render + dt) // how far off running at rate 1 would leave it
	if !c.started || err > cfg.MaxDelay || err < -cfg.MaxDelay {
		c.started, c.render = true, ideal
	} else {
		r := max(-cfg.MaxRate, min(cfg.MaxRate, err.Seconds()/steerTime.Seconds()))
		c.render += time.Duration(float64(dt) * (1 + r))
	}
	c.lastNow = now
	return c.render
}

// delay returns how far the render clock is behind the estimate of server time, as of the
// last renderTime call.
func (c *ServerClock) delay() time.Duration {
	if !c.started {
		return c.targetDelay()
	}
	return c.lastNow - c.offset - c.render
}
