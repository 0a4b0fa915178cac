// Package tabworker is the live game of a browser page run off the page's frame loop, in a
// dedicated Web Worker (cmd/tankworker): the carriage's connection, the session, the Game
// and its Runner on the 50 ms clock, while the page's main thread only draws.
//
// A page that draws at 20 frames a second blocks its one thread for each frame; messages,
// KCP acknowledgements and the Runner's timers wait behind them. In a worker they wait for
// nothing: the session and the Game run as a native client's do. The worker records the Game
// (client.Game.RecordTo) and hands the page each Update's frame as it is written; the page
// replays them into a Game of its own (client.Mirror), which is therefore frame for frame the
// worker's, and draws it. The page sends the controls held back when they change
// (SetControls), and each change wakes the Runner for an Update that applies it at once.
//
// The package knows nothing of browsers: the worker's glue (cmd/tankworker) hands it a
// net.PacketConn over the data channel and carries its frames and reports to the page, and a
// test runs it natively over UDP.
package tabworker

import (
	"bytes"
	"context"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"tanknet/client"
	"tanknet/linksim"
	"tanknet/netcode"
)

// Spec is what the page tells its worker to play: the page parses its URL (it has the flags'
// code), the worker plays. It travels as JSON.
type Spec struct {
	Server      string             `json:"server"` // the address the KCP session names the server by
	Name        string             `json:"name"`
	Room        string             `json:"room,omitempty"`
	DialTimeout time.Duration      `json:"dial_timeout"`
	Conditions  linksim.Conditions `json:"conditions"` // the link conditioner's (net=)
	Seed        uint64             `json:"seed"`
	Game        client.Options     `json:"game"`
	// Bot, if not 0, seeds the driver that steers the tank as tanksim's bots do (bot=1); the
	// page's fire still fires.
	Bot uint64 `json:"bot,omitempty"`
	// Network describes the link's conditions for the recording (the HUD's title).
	Network string `json:"network,omitempty"`
	// ReportAfter, if positive, is when after the Game began the worker reports (Report).
	ReportAfter time.Duration `json:"report_after,omitempty"`
}

// Controls are what the page's player holds: the driving input, fire, and whether shots ask
// for lag compensation.
type Controls struct {
	Input   netcode.Input `json:"input"`
	Fire    bool          `json:"fire"`
	LagComp bool          `json:"lag_comp"`
}

// Report is the worker's Game's report, and the server's figures of how long its inputs
// waited in its buffer.
type Report struct {
	client.Report
	InputWait client.WaitSummary `json:"input_wait"`
	// Frames is the frame of the recording the report was made at (counted from 1): a page
	// that replays them (client.Mirror.At) has there the Game that reported. The report goes
	// out just before that frame does.
	Frames int `json:"frames"`
}

// Page is where the worker's output goes: the frames it records (the header first, with
// frames 0; b is reused after the call returns) and its report.
type Page struct {
	Frames func(b []byte, frames int)
	Report func(Report)
}

// goodbyeWait bounds how long Run waits for the session's reader after its goodbye.
const goodbyeWait = 2 * time.Second

// Worker is a page's game joined and ready to run.
type Worker struct {
	spec Spec
	sess *client.Session

	mu   sync.Mutex
	ctl  Controls
	away atomic.Bool

	runner *client.Runner
}

// Join joins spec's room over pc (the worker's data channel), under spec's conditions. The
// session owns pc from then on.
func Join(ctx context.Context, pc net.PacketConn, spec Spec) (*Worker, error) {
	cc, err := linksim.Condition(pc, spec.Conditions, spec.Seed)
	if err != nil {
		pc.Close()
		return nil, err
	}
	sess, err := client.DialRoom(ctx, spec.Server, spec.Name, spec.Room, cc, spec.DialTimeout)
	if err != nil {
		return nil, err
	}
	return &Worker{spec: spec, sess: sess, ctl: Controls{LagComp: true}}, nil
}

// SetControls gives the Game the controls held now and has it run an Update with them at
// once: the page sends them when they change. Safe from any goroutine.
func (w *Worker) SetControls(c Controls) {
	w.mu.Lock()
	w.ctl = c
	r := w.runner
	w.mu.Unlock()
	if r != nil {
		r.Wake()
	}
}

func (w *Worker) controls() Controls {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.ctl
}

// SetAway says the page is hidden or about to be frozen (true), or back: the Game goes away
// (the server holds its tank still and waits, PROTOCOL.md §6b) at its next Update, which
// this brings forward. Safe from any goroutine.
func (w *Worker) SetAway(away bool) {
	w.away.Store(away)
	w.mu.Lock()
	r := w.runner
	w.mu.Unlock()
	if r != nil {
		r.Wake()
	}
}

// Run plays until ctx ends (the player quit: a goodbye) or the session does, and returns
// the session's end (nil after a quit). It records the Game into page.Frames from its first
// Update, one frame an Update, and reports once, spec.ReportAfter after it began.
func (w *Worker) Run(ctx context.Context, page Page) error {
	readerDone := make(chan error, 1)
	go func() { readerDone <- w.sess.Run() }()
	defer func() {
		_ = w.sess.Close("player quit")
		select {
		case <-readerDone:
		case <-time.After(goodbyeWait):
		}
	}()
	began := time.Now()
	g := client.NewGame(w.sess, w.spec.Game, began)
	if w.spec.Network != "" {
		g.NoteNetwork(w.spec.Network)
	}
	var out bytes.Buffer
	if err := g.RecordTo(&out); err != nil {
		return err
	}
	handed := 0
	hand := func(frames int) {
		if err := g.FlushRecording(); err == nil && out.Len() > 0 {
			page.Frames(out.Bytes(), frames)
			handed += frames
		}
		out.Reset()
	}
	hand(0)
	var pilot *client.Driver
	var next netcode.Input
	steps := 0
	if w.spec.Bot != 0 {
		pilot = client.NewDriver(w.spec.Bot)
		next = pilot.Next()
	}
	var waits client.WaitLog
	reported := w.spec.ReportAfter <= 0 || page.Report == nil
	ended := make(chan struct{})
	var endOnce sync.Once
	r := client.NewRunner(g, nil)
	r.SetStep(func(now time.Time) error {
		err := w.update(g, now, pilot, &next, &steps)
		if err != nil {
			hand(1)
			endOnce.Do(func() { close(ended) })
			return err
		}
		waits.Note(g)
		if !reported && now.Sub(began) >= w.spec.ReportAfter {
			// Reported before its frame is handed over: a page that replays the frames has
			// not run that one yet, and can be asked to compare there (client.Mirror.At).
			reported = true
			page.Report(Report{Report: g.Report(), InputWait: waits.Summary(), Frames: handed + 1})
		}
		hand(1)
		return nil
	})
	w.mu.Lock()
	w.runner = r
	w.mu.Unlock()
	r.Start()
	select {
	case <-ctx.Done():
	case <-ended:
	}
	err := r.Stop()
	_ = g.StopRecording()
	return err
}

// update runs one Update of g at now with the page's controls (or the bot's driving), going
// away or coming back first as the page last said.
func (w *Worker) update(g *client.Game, now time.Time, pilot *client.Driver, next *netcode.Input, steps *int) error {
	switch away := w.away.Load(); {
	case away && !g.Away():
		if err := g.GoAway(); err != nil {
			return err
		}
	case !away && g.Away():
		g.Back()
	}
	c := w.controls()
	in := c.Input
	if pilot != nil { // one decision per prediction step taken, as client.RunBot
		for n := g.Stats().InputsSent; *steps < n; *steps++ {
			*next = pilot.Next()
		}
		in = *next
	}
	if c.Fire {
		g.Fire(c.LagComp)
	}
	return g.Update(now, in.Clamp())
}
