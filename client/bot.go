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
	b, err := newBot(sess, cfg)
	if err != nil {
		sess.Close("error")
		<-runErr
		return Report{}, err
	}
	goodbye, err := b.play(ctx)
	sess.Close(goodbye)
	<-runErr
	return b.report(), err
}

// bot is one running bot: its Game, the driver and gunner that make its inputs, and the game
// time it plays in.
type bot struct {
	cfg    BotConfig
	g      *Game
	at     func(wall time.Time) time.Time // game time at a wall time
	driver *Driver
	gun    gunner
	in     netcode.Input // the driver's input in force
	steps  int           // prediction steps the driver has decided
}

// newBot starts a bot's Game on sess, recording it if cfg says so.
func newBot(sess *Session, cfg BotConfig) (*bot, error) {
	var link Link = sess
	b := &bot{cfg: cfg, at: func(t time.Time) time.Time { return t }, driver: NewDriver(cfg.Seed), gun: gunner{skill: cfg.Skill}}
	if cfg.Clock != nil {
		link, b.at = cfg.Clock.Link(sess), cfg.Clock.At
	}
	b.g = NewGame(link, cfg.Options, b.at(time.Now()))
	b.g.NoteNetwork(cfg.Network)
	if cfg.Record != nil {
		if err := b.g.RecordTo(cfg.Record); err != nil {
			return nil, err
		}
	}
	b.in = b.driver.Next()
	return b, nil
}

// play runs a frame every cfg.Frame until cfg.Duration has passed, ctx is done or the session
// ends, and returns the goodbye to say and the error that ended it, if one did.
func (b *bot) play(ctx context.Context) (goodbye string, err error) {
	frame := b.cfg.Frame
	if frame <= 0 {
		frame = time.Second / 60
	}
	var end <-chan time.Time
	if b.cfg.Duration > 0 {
		timer := time.NewTimer(b.cfg.Duration)
		defer timer.Stop()
		end = timer.C
	}
	ticker := time.NewTicker(frame)
	defer ticker.Stop()
	for {
		select {
		case <-ctx.Done():
			return "bot stopped", nil
		case <-end:
			return "bot finished", nil
		case wall := <-ticker.C:
			if err := b.frame(b.at(wall)); err != nil {
				return "error", fmt.Errorf("bot %s: %w", b.cfg.Name, err)
			}
		}
	}
}

// frame runs one Update at game time now, then lets the driver decide each step taken and
// the gunner steer and fire.
func (b *bot) frame(now time.Time) error {
	if err := b.g.Update(now, b.in); err != nil {
		return err
	}
	for ; b.steps < b.g.Stats().InputsSent; b.steps++ { // one driver decision per step taken
		b.in = b.driver.Next()
	}
	if b.cfg.Fire && (b.cfg.HoldFire == nil || !b.cfg.HoldFire()) {
		turn, steer, fire := b.gun.decide(now, b.g.Aim())
		if steer {
			b.in.Turn = turn
		}
		if fire {
			b.g.Fire(b.cfg.LagComp)
		}
	}
	if b.cfg.OnFrame != nil {
		b.cfg.OnFrame(now, b.g)
	}
	return nil
}

// report is the bot's report once its session is over, with the recording flushed.
func (b *bot) report() Report {
	r := b.g.Report()
	if err := b.g.StopRecording(); err != nil {
		r.RecordError = err.Error()
	}
	return r
}
