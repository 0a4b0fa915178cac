package client

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"time"

	"tanknet/netcode"
)

// Driver is a scripted, seeded driver: it holds a random input for a random stretch of
// steps, then picks another. The same seed always drives the same path.
type Driver struct {
	rng  *rand.Rand
	cur  netcode.Input
	left int // steps before the next pick
}

// NewDriver returns a Driver seeded with seed.
func NewDriver(seed uint64) *Driver {
	return &Driver{rng: rand.New(rand.NewPCG(seed, 0x7a6b))}
}

// throttles weights the drive towards moving forward, so bots cover the arena.
var throttles = [...]float64{1, 1, 1, 0.6, 0.3, -0.5}

// Next returns the input for the next prediction step.
func (d *Driver) Next() netcode.Input {
	if d.left <= 0 {
		d.left = 5 + d.rng.IntN(30) // hold for 0.25 to 1.7 s
		d.cur = netcode.Input{
			Turn:     float64(d.rng.IntN(5)-2) / 2, // -1, -0.5, 0, 0.5, 1
			Throttle: throttles[d.rng.IntN(len(throttles))],
		}
	}
	d.left--
	return d.cur
}

// BotConfig says where a bot plays and for how long.
type BotConfig struct {
	Addr     string
	Name     string
	Room     string // the room to join; "" is the server's default room
	Seed     uint64
	Duration time.Duration // play this long, then say goodbye; 0 means until ctx is done
	Frame    time.Duration // update period; 0 means 60 per second like the window client
	Options  Options
	// PacketConn, if set, carries the session (e.g. a link conditioner); nil means a new
	// UDP socket.
	PacketConn net.PacketConn
	// Fire makes the bot a gunner: it turns toward the nearest tank it draws and fires when
	// a shot would hit what it drew. LagComp is what its Fires ask for.
	Fire    bool
	LagComp bool
	// Skill is how well a gunner plays; the zero value is the sharpest (see Skill).
	Skill Skill
	// OnFrame, if set, is called after every Update with the Game, on the bot's goroutine.
	OnFrame func(now time.Time, g *Game)
	// DialTimeout bounds joining (both handshakes); 0 means 5 s. A link with a second of
	// latency each way and heavy loss needs several round trips.
	DialTimeout time.Duration
	// Clock, if set, is the game time the bot plays in (the demo's slow motion); nil is
	// the wall clock.
	Clock *Clock
	// HoldFire, if set, is asked every frame; while it says true a gunner neither fires nor
	// steers toward a target, and only drives (the demo's guided tour).
	HoldFire func() bool
	// Network, if set, describes the bot's link in its recording (Game.NoteNetwork), so a
	// replay names it.
	Network string
	// Record, if set, receives a client recording of the bot's whole session (record.go),
	// flushed when it ends; a failed write stops the recording, not the bot, and is logged
	// in the returned Report's RecordError.
	Record io.Writer
}

// RunBot connects a bot, drives it until cfg.Duration has passed or ctx is done, says
// goodbye and returns its report. An error means the bot could not join or lost the server.
func RunBot(ctx context.Context, cfg BotConfig) (Report, error) {
	timeout := cfg.DialTimeout
	if timeout <= 0 {
		timeout = 5 * time.Second
	}
	sess, err := DialRoom(ctx, cfg.Addr, cfg.Name, cfg.Room, cfg.PacketConn, timeout)
	if err != nil {
		return Report{}, err
	}
	runErr := make(chan error, 1)
	go func() { runErr <- sess.Run() }()
	frame := cfg.Frame
	if frame <= 0 {
		frame = time.Second / 60
	}
	var link Link = sess
	at := func(t time.Time) time.Time { return t }
	if cfg.Clock != nil {
		link, at = cfg.Clock.Link(sess), cfg.Clock.At
	}
	start := at(time.Now())
	g := NewGame(link, cfg.Options, start)
	g.NoteNetwork(cfg.Network)
	if cfg.Record != nil {
		if err := g.RecordTo(cfg.Record); err != nil {
			sess.Close("error")
			<-runErr
			return Report{}, err
		}
	}
	// finish is the bot's report once its session is over, with the recording flushed.
	finish := func() Report {
		r := g.Report()
		if err := g.StopRecording(); err != nil {
			r.RecordError = err.Error()
		}
		return r
	}
	driver := NewDriver(cfg.Seed)
	gun := gunner{skill: cfg.Skill}
	var end <-chan time.Time
	if cfg.Duration > 0 {
		timer := time.NewTimer(cfg.Duration)
		defer timer.Stop()
		end = timer.C
	}
	ticker := time.NewTicker(frame)
	defer ticker.Stop()
	in := driver.Next()
	steps := 0
	for {
		select {
		case <-ctx.Done():
			sess.Close("bot stopped")
			<-runErr
			return finish(), nil
		case <-end:
			sess.Close("bot finished")
			<-runErr
			return finish(), nil
		case wall := <-ticker.C:
			now := at(wall)
			if err := g.Update(now, in); err != nil {
				sess.Close("error")
				<-runErr
				return finish(), fmt.Errorf("bot %s: %w", cfg.Name, err)
			}
			// One new driver decision per prediction step taken.
			for ; steps < g.Stats().InputsSent; steps++ {
				in = driver.Next()
			}
			if cfg.Fire && (cfg.HoldFire == nil || !cfg.HoldFire()) {
				turn, steer, fire := gun.decide(now, g.Aim())
				if steer {
					in.Turn = turn
				}
				if fire {
					g.Fire(cfg.LagComp)
				}
			}
			if cfg.OnFrame != nil {
				cfg.OnFrame(now, g)
			}
		}
	}
}
