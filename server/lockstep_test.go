package server

import (
	"math/rand/v2"
	"tanknet/world"
	"testing"
	"time"

	"tanknet/client"
	"tanknet/netcode"
	tankv1 "tanknet/proto/tank/v1"
	"tanknet/wire"
)

// A lockstep test on the real parts: the server's own world and real client.Games, joined by
// a seeded model of a link, all advanced by one loop in virtual time. Nothing sleeps and
// nothing touches a socket, so a failure replays exactly.

// streamLink is one direction of a client's reliable stream: each message takes latency ±
// jitter, messages stay in order, and during a loss burst nothing gets through until the
// burst's retransmission (a head-of-line stall).
type streamLink struct {
	rng             *rand.Rand
	latency, jitter time.Duration
	burstFrom       time.Duration // a loss burst [burstFrom, burstTo): what is sent in it arrives after burstTo
	burstTo         time.Duration
	last            time.Duration // arrival of the previous message, for order
}

// arrival returns when a message sent at sent arrives.
func (l *streamLink) arrival(sent time.Duration) time.Duration {
	at := sent + l.latency + time.Duration((l.rng.Float64()*2-1)*float64(l.jitter))
	if sent >= l.burstFrom && sent < l.burstTo {
		at = max(at, l.burstTo+l.latency)
	}
	at = max(at, l.last)
	l.last = at
	return at
}

type inFlight[T any] struct {
	at time.Duration
	v  T
}

// lockPeer is both ends of one client's connection: the server world's peer, and the
// client.Link its Game talks to.
type lockPeer struct {
	now      *time.Duration // the loop's clock
	epoch    time.Time      // the Games' wall time of server time 0
	up, down streamLink
	welcome  wire.Welcome

	toServer []inFlight[netcode.PendingInput]
	aways    []inFlight[uint32] // Aways, by their last move tick
	toClient []inFlight[*tankv1.ServerMessage]
	arrived  map[uint32]time.Duration
	mode     world.InputMode
	kicked   string
}

// The server's side (peer).

func (p *lockPeer) takeInputs(dst []netcode.PendingInput) []netcode.PendingInput {
	n := 0
	for _, m := range p.toServer {
		if m.at > *p.now {
			break
		}
		dst = append(dst, m.v)
		if _, ok := p.arrived[m.v.Tick]; !ok {
			p.arrived[m.v.Tick] = m.at
		}
		n++
	}
	p.toServer = p.toServer[n:]
	return dst
}
func (p *lockPeer) takeDatagramInputs(dst []netcode.PendingInput) []netcode.PendingInput {
	return dst
}
func (p *lockPeer) takeFires(dst []netcode.ShotRequest) []netcode.ShotRequest { return dst }
func (p *lockPeer) send(frame []byte)                                         { p.deliver(frame) }
func (p *lockPeer) sendRoster(c controlFrame)                                 { p.deliver(c.frame) }
func (p *lockPeer) sendSnapshot(frame []byte)                                 { p.deliver(frame) }
func (p *lockPeer) snapshotAck() uint32                                       { return 0 }
func (p *lockPeer) sendChunks([][]byte)                                       {}
func (p *lockPeer) kick(reason dropReason)                                    { p.kicked = reason.String() }
func (p *lockPeer) rtt() time.Duration                                        { return p.up.latency + p.down.latency }
func (p *lockPeer) inputMode() world.InputMode                                { return p.mode }
func (p *lockPeer) awayIgnored()                                              {}
func (p *lockPeer) takeAway() (last uint32, ok bool) {
	for len(p.aways) > 0 && p.aways[0].at <= *p.now {
		last, ok, p.aways = p.aways[0].v, true, p.aways[1:]
	}
	return last, ok
}
func (p *lockPeer) inputArrival(tick uint32) (time.Duration, bool) {
	at, ok := p.arrived[tick]
	return at, ok
}

func (p *lockPeer) deliver(frame []byte) {
	p.toClient = append(p.toClient, inFlight[*tankv1.ServerMessage]{p.down.arrival(*p.now), decodeFrame(frame)})
}

// The client's side (client.Link).

func (p *lockPeer) Welcome() wire.Welcome { return p.welcome }
func (p *lockPeer) Drain(dst []client.Received) ([]client.Received, error) {
	n := 0
	for _, m := range p.toClient {
		if m.at > *p.now {
			break
		}
		msg, err := wire.ServerMessageFromProto(m.v)
		if err != nil {
			return dst, err
		}
		dst = append(dst, client.Received{At: p.epoch.Add(m.at), Msg: msg})
		n++
	}
	p.toClient = p.toClient[n:]
	return dst, nil
}

// Send carries a prediction step to the server, arriving a link's latency later; nothing
// else a Game sends (batches, shots, the input mode, pings) plays a part here.
func (p *lockPeer) Send(m wire.GameMessage) error {
	switch m := m.(type) {
	case wire.Move:
		p.toServer = append(p.toServer, inFlight[netcode.PendingInput]{p.up.arrival(*p.now), netcode.PendingInput(m)})
	case wire.Away:
		p.aways = append(p.aways, inFlight[uint32]{p.up.arrival(*p.now), m.LastMoveTick})
	}
	return nil
}

// TestLockstep_BufferHoldsThroughJitterLossAndAFreeze plays four clients, their displays a
// little off 60 Hz each its own way, on links from a LAN to a jittery 60 ms one for 24 s
// against the real world: a loss burst stalls one client's stream for 600 ms at 8 s, and the
// server itself stops ticking for 2 s at 14 s. Outside those two upsets (and a while after
// each) at most 1% of player-ticks starve; with contact off no reconciliation of any client
// moves its prediction; nobody is dropped; and every clock jumps once to catch up after the
// freeze.
func TestLockstep_BufferHoldsThroughJitterLossAndAFreeze(t *testing.T) {
	w := newTestWorld(t, nil)
	epoch := time.Unix(5000, 0)
	var now time.Duration
	links := []struct{ latency, jitter time.Duration }{
		{time.Millisecond, time.Millisecond}, {20 * time.Millisecond, 5 * time.Millisecond},
		{35 * time.Millisecond, 15 * time.Millisecond}, {60 * time.Millisecond, 25 * time.Millisecond},
	}
	const (
		burstFrom, burstTo   = 8 * time.Second, 8600 * time.Millisecond
		freezeFrom, freezeTo = 14 * time.Second, 16 * time.Second
		end                  = 24 * time.Second
	)
	type player struct {
		peer   *lockPeer
		game   *client.Game
		driver *client.Driver
		next   time.Duration // its next frame
		frame  time.Duration // its frame period: displays run a little off 60 Hz, each its own way
		id     uint32
	}
	var players []*player
	for i, l := range links {
		rng := rand.New(rand.NewPCG(uint64(i)+1, 7))
		peer := &lockPeer{now: &now, epoch: epoch, arrived: map[uint32]time.Duration{},
			up: streamLink{rng: rng, latency: l.latency, jitter: l.jitter}, down: streamLink{rng: rng, latency: l.latency, jitter: l.jitter}}
		if i == 2 {
			peer.up.burstFrom, peer.up.burstTo = burstFrom, burstTo
			peer.down.burstFrom, peer.down.burstTo = burstFrom, burstTo
		}
		p, reject := w.join(now, "lockstep", peer)
		if reject != nil {
			t.Fatalf("join rejected: %v", reject)
		}
		peer.welcome = wire.Welcome{PlayerID: p.tank.ID(), Arena: w.cfg.Arena, Rules: w.cfg.Rules, Lane: wire.LaneReliable, MaxInputLead: w.cfg.inputLead()}
		players = append(players, &player{peer: peer, game: client.NewGame(peer, client.DefaultOptions(), epoch),
			driver: client.NewDriver(uint64(i) + 11), next: time.Duration(i) * 4 * time.Millisecond, id: p.tank.ID(),
			frame: time.Second/60 + time.Duration(i-2)*40*time.Microsecond}) // ±0.5%
	}
	upset := func(at time.Duration) bool {
		return (at >= burstFrom && at < burstTo+time.Second) || (at >= freezeFrom && at < freezeTo+3*time.Second) || at < 3*time.Second
	}
	nextTick, lastTick := netcode.StepInterval, time.Duration(0)
	playerTicks, starved := 0, 0
	for now = 0; now < end; now += time.Millisecond {
		if now >= nextTick {
			nextTick += netcode.StepInterval
			if now < freezeFrom || now >= freezeTo {
				w.world.Owe(now-lastTick, w.cfg.IdleTimeout)
				lastTick = now
				rec := w.step(now)
				if !upset(now) {
					playerTicks += len(rec.IDs)
					starved += len(rec.Starved)
				}
			}
		}
		for _, p := range players {
			if now >= p.next {
				p.next += p.frame
				if err := p.game.Update(epoch.Add(now), p.driver.Next()); err != nil {
					t.Fatalf("player %d: %v", p.id, err)
				}
			}
		}
	}
	t.Logf("%d of %d steady player-ticks starved", starved, playerTicks)
	if r := float64(starved) / float64(playerTicks); r > 0.01 {
		t.Errorf("%d of %d steady player-ticks starved (%.3f), want at most 1%%", starved, playerTicks, r)
	}
	for _, p := range players {
		if p.peer.kicked != "" {
			t.Errorf("player %d dropped: %q", p.id, p.peer.kicked)
		}
		c := p.game.Local().Counters()
		if c.NonZeroResiduals != 0 || c.Reconciliations < 300 {
			t.Errorf("player %d: %d of %d reconciliations moved its prediction (max %v), want none with contact off",
				p.id, c.NonZeroResiduals, c.Reconciliations, c.MaxResidual)
		}
		if rate, jumps := p.game.Dilation(); jumps < 1 || rate > 0.1 || rate < -0.1 {
			t.Errorf("player %d: clock rate %v after %d jumps; want a jump after the freeze and a rate within 10%%", p.id, rate, jumps)
		}
	}
}
