package main

import (
	"math"
	"time"

	"tanknet/client"
	"tanknet/netcode"
)

// Sample limits per bot, for memory that stays bounded on long runs. Beyond them a bot
// keeps a uniform random subset (see reservoir) and the report says so.
const (
	maxRemoteSamples = 1 << 18 // 10 min of 7 remote tanks at 60 frames/s
	maxLocalSamples  = 1 << 16 // 18 min at 60 frames/s
	maxRTTSamples    = 1 << 14 // 2 h of pings every 500 ms
)

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

// probe measures one bot from its OnFrame callback. Only the bot's goroutine touches it
// until RunBot returns.
type probe struct {
	start time.Time // the run's start: sample times count from here
	truth *history  // nil against an external server

	frames      int
	first, last time.Time // first and last frame

	remote    *reservoir[remoteSample]
	local     *reservoir[localSample]
	rtts      *reservoir[time.Duration]
	unmatched int // remote frames whose rendered tick was not in the history

	rttSamples      int // Game.Stats().RTTSamples already taken
	reconciliations int // Local reconciliations already seen
}

func newProbe(start time.Time, truth *history, seed uint64) *probe {
	return &probe{
		start:  start,
		truth:  truth,
		remote: newReservoir[remoteSample](maxRemoteSamples, seed),
		local:  newReservoir[localSample](maxLocalSamples, seed+1),
		rtts:   newReservoir[time.Duration](maxRTTSamples, seed+2),
	}
}

// onFrame is the bot's client.BotConfig.OnFrame: it runs after every Game.Update.
func (p *probe) onFrame(now time.Time, g *client.Game) {
	if p.frames == 0 {
		p.first = now
	}
	p.last = now
	p.frames++
	at := now.Sub(p.start)

	if st := g.Stats(); st.RTTSamples > p.rttSamples {
		p.rttSamples = st.RTTSamples
		p.rtts.add(st.RTT)
	}
	if l := g.Local(); l != nil {
		off := l.Offset()
		s := localSample{at: at, offset: math.Hypot(off.X, off.Y)}
		if c := l.Counters(); c.Reconciliations > p.reconciliations {
			p.reconciliations = c.Reconciliations
			s.reconciled, s.residual = true, c.LastResidual
		}
		p.local.add(s)
	}

	var serverNow time.Duration
	hasNow := false
	if p.truth != nil {
		serverNow, hasNow = p.truth.serverNow(now)
	}
	for id, rm := range g.Remotes() {
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
}
