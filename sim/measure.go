package sim

import (
	"math"
	"sort"
	"time"

	"tanknet/client"
	"tanknet/netcode"
	"tanknet/transport"
)

// Sample budgets per run, shared out among the bots, so memory stays bounded however
// many bots play and for however long. Beyond its share a bot keeps a uniform random
// subset (see reservoir) and the report says so. Every bot keeps at least minBotSamples of
// each kind, so 256 bots still measure something: about 140 MB of samples at most.
const (
	runRemoteSamples = 1 << 20 // 92 MB of remoteSample: 5 min of 8 bots seeing 7 tanks at 60 frames/s
	runLocalSamples  = 1 << 18 // 9 min of 8 bots at 60 frames/s
	runRTTSamples    = 1 << 16 // 68 min of 8 bots pinging every 500 ms
	minBotSamples    = 1 << 12 // 1 s of 68 remote tanks, 68 s of own frames
)

// botShare is one of bots' share of a run's total budget.
func botShare(total, bots int) int { return max(minBotSamples, total/max(bots, 1)) }

// logFrames is how many frames a frameLog keeps at each end of a bot's session. The
// window starts within seconds of every bot's first frame (joining times out after 5 s;
// warm-up is 1 s) and ends within seconds of its last; 1024 frames are 17 s at 60 frames/s.
const logFrames = 1 << 10

// remoteSample is one remote tank in one frame of one bot.
type remoteSample struct {
	id         uint32
	at         time.Duration // frame time since the run started
	pose       netcode.Pose  // drawn pose
	serverNow  time.Duration // server time at the frame; valid only when err is not NaN
	err        float64       // distance from the server's pose at the rendered tick (world units); NaN without ground truth
	delay      time.Duration // server time now minus server time of the rendered tick; valid only when err is not NaN
	configured time.Duration // Interpolator.Delay() this frame
	depth      int           // samples buffered (Interpolator.Len)
	bracketed  bool          // false: a hold
}

// localSample is the bot's own tank in one frame.
type localSample struct {
	at         time.Duration
	offset     float64 // correction offset now, |visible - predicted| position (world units)
	residual   float64 // residual of the reconciliation in this frame (world units)
	reconciled bool    // a reconciliation happened since the previous frame
}

// inputSample is how long one input change took to reach the drawn pose: from the frame
// whose Update first got the new input to the first frame whose visible pose moved with it
// (netcode.Local.VisibleInput), at the frame that saw it.
type inputSample struct {
	at      time.Duration
	latency time.Duration
}

// rttSample is one round trip measured, at the frame that first saw it.
type rttSample struct {
	at  time.Duration
	rtt time.Duration
}

// traffic is a bot's UDP payload bytes so far: up written by its KCP, down sent by the server.
type traffic struct{ up, down int64 }

// probe measures one bot from its OnFrame callback. Only the bot's goroutine touches it
// until RunBot returns.
type probe struct {
	start time.Time // the run's start: sample times count from here
	truth *history  // nil against an external server

	frames      int
	first, last time.Time // first and last frame
	counted     frameLog  // every frame's remote tanks and holds, exactly

	// up and down count the bot's socket traffic (nil: not counted); firstBytes and
	// lastBytes are their totals at the first and the last frame.
	up, down              *transport.CountingConn
	firstBytes, lastBytes traffic

	remote *reservoir[remoteSample]
	local  *reservoir[localSample]
	rtts   *reservoir[rttSample]
	inputs *reservoir[inputSample]

	// The input change waiting to be seen: the input, the frame that first got it, and
	// whether one is waiting.
	lastInput  netcode.Input
	inputAt    time.Time
	inputWaits bool
	unmatched  int // remote frames whose rendered tick was not in the history

	rttSamples      int // Game.Stats().RTTSamples already taken
	reconciliations int // Local reconciliations already seen

	sent     map[uint32]time.Duration // server time at which each move tick was sent
	lastSent uint32                   // newest move tick in sent

	dilation []timedValue // the prediction clock's rate offset (%) each frame, up to maxSentInputs
}

// maxSentInputs bounds the send times one bot keeps: 55 min at 20 Hz.
const maxSentInputs = 1 << 16

// newProbe returns the probe of one of bots bots. Its three reservoirs draw from
// independent random streams of seed.
func newProbe(start time.Time, truth *history, seed uint64, bots int) *probe {
	return &probe{
		start:  start,
		truth:  truth,
		remote: newReservoir[remoteSample](botShare(runRemoteSamples, bots), seed, 0),
		local:  newReservoir[localSample](botShare(runLocalSamples, bots), seed, 1),
		rtts:   newReservoir[rttSample](botShare(runRTTSamples, bots), seed, 2),
		inputs: newReservoir[inputSample](botShare(runLocalSamples, bots), seed, 3),
		sent:   map[uint32]time.Duration{},
	}
}

// observeInput measures input to screen: a frame given a different input than the last
// starts a wait, which the first frame whose visible pose moved with that input ends. A
// change that is replaced before it shows is forgotten (the newer one is waited for).
func (p *probe) observeInput(now time.Time, at time.Duration, in netcode.Input, l *netcode.Local) {
	if in != p.lastInput {
		p.lastInput, p.inputAt, p.inputWaits = in, now, true
	}
	if !p.inputWaits {
		return
	}
	if shown, ok := l.VisibleInput(); ok && shown == in.Clamp() {
		p.inputs.add(inputSample{at: at, latency: now.Sub(p.inputAt)})
		p.inputWaits = false
	}
}

// onFrame is the bot's client.BotConfig.OnFrame: it runs after every Game.Update.
func (p *probe) onFrame(now time.Time, g *client.Game) {
	at := p.countFrame(now)
	if st := g.Stats(); st.RTTSamples > p.rttSamples {
		p.rttSamples = st.RTTSamples
		p.rtts.add(rttSample{at: at, rtt: st.RTT})
	}
	p.noteSent(now, g)
	if len(p.dilation) < maxSentInputs {
		rate, _ := g.Dilation()
		p.dilation = append(p.dilation, timedValue{at: at, v: rate * 100})
	}
	if l := g.Local(); l != nil {
		off := l.Offset()
		s := localSample{at: at, offset: math.Hypot(off.X, off.Y)}
		if c := l.Counters(); c.Reconciliations > p.reconciliations {
			p.reconciliations = c.Reconciliations
			s.reconciled, s.residual = true, c.LastResidual
		}
		p.local.add(s)
		p.observeInput(now, at, g.Input(), l)
	}
	p.sampleRemotes(now, at, g)
}

// countFrame counts a frame at now and the bytes so far, and returns how long after the
// probe's start the frame came.
func (p *probe) countFrame(now time.Time) time.Duration {
	if p.frames == 0 {
		p.first = now
	}
	p.last = now
	p.frames++
	at := now.Sub(p.start)
	if p.up != nil {
		p.lastBytes = traffic{up: int64(p.up.Traffic().BytesOut), down: int64(p.down.Traffic().BytesIn)}
		if p.frames == 1 {
			p.firstBytes = p.lastBytes
		}
	}
	return at
}

// noteSent notes the server's time when each input new since the last frame left (needs
// the in-process server's truth), up to maxSentInputs.
func (p *probe) noteSent(now time.Time, g *client.Game) {
	if l := g.Local(); l != nil && p.truth != nil && len(p.sent) < maxSentInputs {
		if pend := l.Pending(); len(pend) > 0 && pend[len(pend)-1].Tick > p.lastSent {
			if sn, ok := p.truth.serverNow(now); ok { // the inputs new since the last frame left in this Update
				for _, in := range pend {
					if in.Tick > p.lastSent {
						p.sent[in.Tick] = sn
					}
				}
			}
			p.lastSent = pend[len(pend)-1].Tick
		}
	}
}

// sampleRemotes samples every remote tank g draws this frame, at at: against the server's
// truth when there is one.
func (p *probe) sampleRemotes(now time.Time, at time.Duration, g *client.Game) {
	var serverNow time.Duration
	hasNow := false
	if p.truth != nil {
		serverNow, hasNow = p.truth.serverNow(now)
	}
	remotes, holds := 0, 0
	for id, rm := range g.Remotes() {
		remotes++
		if !rm.Bracketed {
			holds++
		}
		s := remoteSample{
			id:         id,
			at:         at,
			pose:       rm.Pose,
			err:        math.NaN(),
			configured: rm.Interp.Delay(),
			depth:      rm.Interp.Len(),
			bracketed:  rm.Bracketed,
		}
		if hasNow {
			if truth, tickTime, ok := p.truth.at(id, rm.Interp.RenderTick()); ok {
				s.err = rm.Pose.Distance(truth)
				s.delay = serverNow - tickTime
				s.serverNow = serverNow
			} else {
				p.unmatched++
			}
		}
		p.remote.add(s)
	}
	p.counted.add(at, remotes, holds)
}

// rates returns the bot's traffic from its first frame to its last; zero with fewer than
// two frames.
func (p *probe) rates() Rates {
	secs := p.last.Sub(p.first).Seconds()
	if secs <= 0 {
		return Rates{}
	}
	return Rates{
		Up:   float64(p.lastBytes.up-p.firstBytes.up) / secs,
		Down: float64(p.lastBytes.down-p.firstBytes.down) / secs,
	}
}

// frameCount is a bot's running totals after one frame: the (frame, remote tank) pairs
// and the holds among them since its first frame.
type frameCount struct {
	at             time.Duration
	remotes, holds int64
}

// frameLog counts remote tanks frame by frame, whatever the reservoirs keep, so the
// window's counts are exact. It keeps the running totals of a bot's first logFrames
// frames and of its last logFrames, where the window's ends fall.
type frameLog struct {
	head    []frameCount // the first frames
	tail    []frameCount // ring of the last frames after head; tail[next] is the oldest once full
	next    int
	dropped int // frames between head and tail no longer kept
	total   frameCount
}

// add counts a frame at at that drew remotes remote tanks, holds of them held.
func (l *frameLog) add(at time.Duration, remotes, holds int) {
	l.total = frameCount{at: at, remotes: l.total.remotes + int64(remotes), holds: l.total.holds + int64(holds)}
	switch {
	case len(l.head) < logFrames:
		l.head = append(l.head, l.total)
	case len(l.tail) < logFrames:
		l.tail = append(l.tail, l.total)
	default:
		l.tail[l.next] = l.total
		l.next = (l.next + 1) % logFrames
		l.dropped++
	}
}

// until returns the running totals after the last frame at or before t (before t only,
// unless inclusive), zero before the first frame; false when that frame is no longer kept
// and the totals are those of an earlier frame.
func (l *frameLog) until(t time.Duration, inclusive bool) (frameCount, bool) {
	get := func(i int) frameCount {
		if i < len(l.head) {
			return l.head[i]
		}
		return l.tail[(l.next+i-len(l.head))%len(l.tail)]
	}
	i := sort.Search(len(l.head)+len(l.tail), func(i int) bool {
		at := get(i).at
		return at > t || (!inclusive && at == t)
	})
	if i == 0 {
		return frameCount{}, true
	}
	return get(i - 1), l.dropped == 0 || i != len(l.head)
}

// between returns the remote tanks drawn and the holds among them in frames at times in
// [from, to], and false if the count is not exact (the log lost a frame it needed).
func (l *frameLog) between(from, to time.Duration) (remotes, holds int64, exact bool) {
	if to < from {
		return 0, 0, true
	}
	a, okA := l.until(from, false)
	b, okB := l.until(to, true)
	return b.remotes - a.remotes, b.holds - a.holds, okA && okB
}
