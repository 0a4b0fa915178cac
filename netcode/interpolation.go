package netcode

import (
	"fmt"
	"time"
)

// InterpConfig tunes remote-tank interpolation.
type InterpConfig struct {
	// Timeline selects where samples sit in time; the zero value is ReceiveTimeline.
	Timeline Timeline
	// Delay is how far behind now the receive timeline renders.
	Delay time.Duration
	// BufferCap is the most samples kept; the oldest is dropped beyond it. 0 means 32, the
	// default's.
	BufferCap int

	// The rest tune the server timeline only; the receive timeline ignores them.
	//
	// MinDelay, Cover and MaxDelay set the server timeline's delay behind its estimate of
	// server time: the delay that would have bridged the share Cover of recent arrivals
	// (late ones and the gaps lost snapshots leave alike; see Timeline), at least MinDelay
	// and at most MaxDelay.
	MinDelay time.Duration
	Cover    float64
	MaxDelay time.Duration
	// MaxRate bounds how far the server timeline's render clock may run from real time
	// while it catches up or falls back to a new delay: a rate within 1 +/- MaxRate.
	MaxRate float64

	// Disabled shows the newest sample as is, with no delay: the teaching demo's
	// "no interpolation" switch.
	Disabled bool
}

// DefaultInterpConfig returns the settings tanknet clients use, on the receive timeline of
// the specs; set Timeline to ServerTimeline for the adaptive one.
func DefaultInterpConfig() InterpConfig {
	return InterpConfig{
		Timeline:  ReceiveTimeline,
		Delay:     100 * time.Millisecond, // the spec's: two 50 ms snapshots, so one may be late and still bracket
		BufferCap: defaultBufferCap,       // 1.6 s at 20 Hz: MaxDelay plus a retransmission burst
		MinDelay:  StepInterval,           // one tick: the least that still brackets when every snapshot is on time
		Cover:     0.993,                  // of the last 256 needs, leave out the largest from the 143rd on: see ServerTimeline and BenchmarkServerTimelineCover
		MaxDelay:  400 * time.Millisecond, // older than this, remote tanks are too stale to aim at: hold instead
		MaxRate:   0.1,                    // +/-10% playback speed is hard to notice, and closes 100 ms in a second
	}
}

// defaultBufferCap is the buffer DefaultInterpConfig keeps, and a zero BufferCap's.
const defaultBufferCap = 32

// Validate reports whether c is usable: a known timeline, a delay of at least 0, a buffer
// cap of 0 (the default) or at least 2, and, on the server timeline, its own settings in
// range.
func (c InterpConfig) Validate() error {
	switch {
	case c.Timeline != ReceiveTimeline && c.Timeline != ServerTimeline:
		return fmt.Errorf("netcode: interpolation timeline %v is unknown", c.Timeline)
	case c.Delay < 0:
		return fmt.Errorf("netcode: interpolation delay %v is negative", c.Delay)
	case c.BufferCap < 0 || c.BufferCap == 1:
		return fmt.Errorf("netcode: interpolation buffer cap %d must be at least 2 (or 0, the default)", c.BufferCap)
	case c.Timeline != ServerTimeline:
		return nil
	case c.MinDelay < 0 || c.MaxDelay < c.MinDelay:
		return fmt.Errorf("netcode: interpolation needs 0 <= min delay (%v) <= max delay (%v)", c.MinDelay, c.MaxDelay)
	case !(c.Cover > 0 && c.Cover <= 1):
		return fmt.Errorf("netcode: cover %v must be in (0, 1]", c.Cover)
	case !(c.MaxRate >= 0 && c.MaxRate < 1):
		return fmt.Errorf("netcode: max rate %v must be in [0, 1)", c.MaxRate)
	}
	return nil
}

// withDefaults returns c with its zero settings that mean a default filled in.
func (c InterpConfig) withDefaults() InterpConfig {
	if c.BufferCap == 0 {
		c.BufferCap = defaultBufferCap
	}
	return c
}

// sample is one buffered remote state, placed on the interpolator's timeline.
type sample struct {
	at       time.Duration // receive time, or server time on the server timeline
	tick     uint32
	pose     Pose
	teleport bool // the tank jumped here (PushTeleport): never slid to from the sample before
}

// Interpolator shows one remote tank a little in the past, sliding between the two buffered
// states that bracket the render time: position linearly, heading on the shortest arc, however
// far apart the two poses are. With nothing to bracket it holds the newest state (or, before
// the first pair, the oldest); it never extrapolates. States arrive through Push in any order;
// only ones newer than the newest so far are kept, in a buffer of at most BufferCap.
//
// Two pairs are not slid across. A pair more than MaxViewSpan ticks apart (lost snapshots
// left a gap of more than 200 ms) holds its older state until the render time reaches the
// newer one. A state pushed with PushTeleport (a respawn: the tank did not drive there) is
// shown as is from the moment the render time leaves the state before it.
//
// An Interpolator is not safe for concurrent use.
type Interpolator struct {
	cfg      InterpConfig
	buf      []sample
	newest   State
	previous State        // the state pushed before newest, once two have been
	clock    *ServerClock // on the server timeline; shared by the tanks of one link
	view     View         // what the last Sample drew
	counters InterpCounters
}

// NewInterpolator returns an empty interpolator on cfg.Timeline: on the receive timeline
// (DefaultInterpConfig's) it draws cfg.Delay behind the local time its states arrived; on the
// server timeline it keeps a ServerClock of its own. It panics if cfg is invalid.
// Interpolators of tanks that arrive over the same link should share a clock instead: see
// ServerClock.NewInterpolator.
func NewInterpolator(cfg InterpConfig) *Interpolator {
	if err := cfg.Validate(); err != nil {
		panic(err)
	}
	cfg = cfg.withDefaults()
	var clock *ServerClock
	if cfg.Timeline == ServerTimeline {
		clock = NewServerClock(cfg)
	}
	return newInterpolator(cfg, clock)
}

func newInterpolator(cfg InterpConfig, clock *ServerClock) *Interpolator {
	return &Interpolator{cfg: cfg, clock: clock, buf: make([]sample, 0, cfg.BufferCap)}
}

// Push offers s, received at local time now. It returns false, and changes nothing but a
// counter, when s.Tick is not newer than the newest state pushed.
func (ip *Interpolator) Push(now time.Duration, s State) bool { return ip.push(now, s, false) }

// PushTeleport offers s like Push, as a state the tank jumped to rather than drove to (a
// respawn): the pair that ends at it is never slid across, and Sample shows s as is, counted
// in Teleports, while the render time lies between the state before it and s.
func (ip *Interpolator) PushTeleport(now time.Duration, s State) bool { return ip.push(now, s, true) }

func (ip *Interpolator) push(now time.Duration, s State, teleport bool) bool {
	n := len(ip.buf)
	if ip.counters.Samples > 0 && s.Tick <= ip.newest.Tick {
		ip.counters.StaleRejects++
		return false
	}
	at := now
	if ip.cfg.Timeline == ServerTimeline {
		at = time.Duration(s.Tick) * StepInterval
		ip.clock.observe(now, at)
	} else if n > 0 {
		at = max(at, ip.buf[n-1].at) // receive times never run backwards
	}
	if n == cap(ip.buf) {
		ip.buf = ip.buf[:copy(ip.buf, ip.buf[1:])]
		ip.counters.Overflows++
	}
	ip.buf = append(ip.buf, sample{at: at, tick: s.Tick, pose: s.Pose, teleport: teleport})
	ip.previous = ip.newest
	ip.newest = s
	ip.counters.Samples++
	return true
}

// Sample returns the pose to draw at local time now, and whether it came from a bracketing
// pair of states (false for a hold, an empty buffer or a disabled interpolator). Samples
// older than the lower bracket are dropped. Calls should come with now non-decreasing.
func (ip *Interpolator) Sample(now time.Duration) (Pose, bool) {
	ip.counters.Frames++
	n := len(ip.buf)
	if n == 0 {
		ip.counters.Holds++
		return Pose{}, false
	}
	if ip.cfg.Disabled {
		ip.view = View{From: ip.newest.Tick, To: ip.newest.Tick}
		return ip.newest.Pose, false
	}
	rt := now - ip.cfg.Delay
	if ip.cfg.Timeline == ServerTimeline {
		rt = ip.clock.renderTime(now)
	}
	if rt < ip.buf[0].at || rt >= ip.buf[n-1].at {
		i := 0
		if rt >= ip.buf[n-1].at {
			i = n - 1
		}
		ip.trim(i)
		ip.counters.Holds++
		ip.view = View{From: ip.buf[0].tick, To: ip.buf[0].tick}
		return ip.buf[0].pose, false
	}
	i := 0
	for ip.buf[i+1].at <= rt {
		i++
	}
	ip.trim(i)
	a, b := ip.buf[0], ip.buf[1]
	if b.tick-a.tick > MaxViewSpan { // lost snapshots left too wide a gap to blend across
		ip.counters.Holds++
		ip.view = View{From: a.tick, To: a.tick}
		return a.pose, false
	}
	if b.teleport { // a respawn: the tank never was between the two
		ip.counters.Teleports++
		ip.view = View{From: b.tick, To: b.tick}
		return b.pose, true
	}
	ip.view = View{From: a.tick, To: b.tick, Fraction: float64(rt-a.at) / float64(b.at-a.at)}
	return DrawnPose(a.pose, b.pose, ip.view), true
}

// trim drops the i oldest samples.
func (ip *Interpolator) trim(i int) {
	if i > 0 {
		ip.buf = ip.buf[:copy(ip.buf, ip.buf[i:])]
	}
}

// RenderTick returns the server tick, with a fraction, that the last Sample showed: where
// between its bracketing states' ticks it was. It is how far in the past a remote tank is
// drawn, and lets a test compare the drawn pose with the server's at that moment.
func (ip *Interpolator) RenderTick() float64 { return ip.view.Tick() }

// View returns exactly what the last Sample drew: DrawnPose of the states of View().From and
// View().To gives its pose bit for bit. A hold and a teleport are views of one state. It is
// the zero View before the first Sample with a state.
func (ip *Interpolator) View() View { return ip.view }

// Newest returns the newest state pushed, and false when there is none.
func (ip *Interpolator) Newest() (State, bool) {
	return ip.newest, ip.counters.Samples > 0
}

// Previous returns the state pushed just before the newest one, and false when there is
// none. It is kept apart from the buffer, so a render time past the newest state (a hold,
// when snapshots come late), which leaves only that state buffered, does not lose it.
func (ip *Interpolator) Previous() (State, bool) {
	return ip.previous, ip.counters.Samples > 1
}

// Delay returns the render delay: on the receive timeline the configured Delay; on the
// server timeline how far the render clock is behind the estimated server time of the
// fastest arrivals (so one-way latency comes on top of it in both cases).
func (ip *Interpolator) Delay() time.Duration {
	if ip.cfg.Timeline == ServerTimeline {
		return ip.clock.delay()
	}
	return ip.cfg.Delay
}

// BufferedTicks appends the server ticks of the buffered states, oldest first, to dst and
// returns it: what a timeline of the buffer draws.
func (ip *Interpolator) BufferedTicks(dst []uint32) []uint32 {
	for _, s := range ip.buf {
		dst = append(dst, s.tick)
	}
	return dst
}

// Len returns how many states are buffered.
func (ip *Interpolator) Len() int { return len(ip.buf) }

// Counters returns what ip has done so far.
func (ip *Interpolator) Counters() InterpCounters {
	c := ip.counters
	c.Delay, c.Depth = ip.Delay(), len(ip.buf)
	if ip.cfg.Timeline == ServerTimeline {
		c.Jitter = ip.clock.jitter
	}
	return c
}
