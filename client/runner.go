package client

import (
	"sync"
	"time"

	"tanknet/netcode"
)

// A Runner advances a Game off the frame loop. Left to a window, a Game runs only when a
// frame is drawn: what the network brought waits for the next frame, and the inputs of the
// prediction steps that fell due since the last one leave together in a burst. At 18 frames
// a second that is up to 55 ms of waiting each way. A Runner's goroutine runs the Game's
// Update as soon as a message arrives (when its Link says so) and when the next prediction
// step falls due, with the input the frame loop published last, so inputs leave on the 50 ms
// clock whatever the frame rate.
//
// The Runner owns the Game; everyone else holds its lock while reading or driving it. A window
// holds it across its own Update and Draw, which keep calling Game.Update once a frame so that
// what is drawn is the Game at the moment of drawing. Updates from both goroutines are
// serialised and each reads the time under the lock, so the Game sees one timeline, and a
// recording (record.go) keeps every Update, whoever made it, and replays exactly.
type Runner struct {
	mu    sync.Mutex // held while the Game is advanced or read
	game  *Game
	clock *Clock // game time, nil for the wall clock
	step  func(now time.Time) error

	inMu  sync.Mutex // guards input alone, so publishing it never waits for an Update
	input netcode.Input

	stop    chan struct{}
	done    chan struct{}
	wake    chan struct{} // Wake's signal: one pending at most
	errOnce sync.Once
	err     error // why the goroutine stopped, read after done closes
}

// Arrivals is what a Link that can tell when a message arrives adds: a channel that is
// signalled (without blocking, so several arrivals may share a signal) whenever it queues
// one. A Session has it, and so has a Clock's link over one.
type Arrivals interface {
	Arrived() <-chan struct{}
}

// maxSleep bounds how long the Runner sleeps between Updates when no step falls due (before
// our tank's first state, or when the link cannot say when a message arrives).
const maxSleep = netcode.StepInterval

// minSleep keeps a prediction step due within a rounding error of now from spinning the loop.
const minSleep = time.Millisecond

// NewRunner returns a Runner of g, on clock's game time (nil: the wall clock). Until SetStep
// says otherwise, each of its Updates is g.Update with the input last given to SetInput.
func NewRunner(g *Game, clock *Clock) *Runner {
	r := &Runner{game: g, clock: clock, wake: make(chan struct{}, 1)}
	r.step = func(now time.Time) error { return g.Update(now, r.Input()) }
	return r
}

// SetStep replaces what the Runner does for an Update at game time now; it is called with
// the lock held. A window uses it to run its pane's whole frame step (aim, Update, what it
// keeps for drawing). Call it before Start.
func (r *Runner) SetStep(step func(now time.Time) error) { r.step = step }

// Game returns the Game; read it only with the lock held while the Runner runs.
func (r *Runner) Game() *Game { return r.game }

// Lock takes the Game from the Runner's goroutine until Unlock.
func (r *Runner) Lock() { r.mu.Lock() }

// Unlock gives the Game back to the Runner's goroutine.
func (r *Runner) Unlock() { r.mu.Unlock() }

// TryLock takes the Game, as Lock does, if no one holds it now, and reports whether it did.
func (r *Runner) TryLock() bool { return r.mu.TryLock() }

// Wake has the Runner's goroutine run an Update now rather than when it next would: for a
// change its Update applies (a page going away). It never blocks; safe from any goroutine,
// before Start too (the goroutine's first pass then runs at once anyway).
func (r *Runner) Wake() {
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

// SetInput publishes the controls held now, for the Runner's Updates. Safe from any goroutine.
func (r *Runner) SetInput(in netcode.Input) {
	r.inMu.Lock()
	r.input = in
	r.inMu.Unlock()
}

// Input returns the input last published.
func (r *Runner) Input() netcode.Input {
	r.inMu.Lock()
	defer r.inMu.Unlock()
	return r.input
}

// Now returns the game time of wall time now, as the Runner's Updates are given it.
func (r *Runner) Now() time.Time {
	if r.clock == nil {
		return time.Now()
	}
	return r.clock.At(time.Now())
}

// Advance runs one Update at game time now (the caller holds the lock) and returns how much
// game time may pass before the next prediction step falls due: the Runner's goroutine sleeps
// that long unless a message arrives first. A test calls it with times of its own.
func (r *Runner) Advance(now time.Time) (time.Duration, error) {
	if err := r.step(now); err != nil {
		return 0, err
	}
	return r.game.untilStep(), nil
}

// untilStep returns how much game time remains until the prediction clock's next step falls
// due at its present rate: the rest of the step the clock is in, shrunk when the clock runs
// fast. Before our tank's first state there is no step to wait for.
func (g *Game) untilStep() time.Duration {
	l := g.pred.local
	if l == nil {
		return maxSleep
	}
	rest := time.Duration((1 - l.Alpha()) * float64(netcode.StepInterval))
	rest = time.Duration(float64(rest) / (1 + g.pace.dilation.Rate()))
	return min(max(rest, minSleep), maxSleep)
}

// Start runs the Runner's goroutine until Stop or the end of the session.
func (r *Runner) Start() {
	r.stop, r.done = make(chan struct{}), make(chan struct{})
	go r.run()
}

// Stop ends the goroutine, waits for it, and returns the error that ended the session in one
// of its Updates, nil if none did. After Stop the Game belongs to the caller again. Safe to
// call more than once, without Start, and on a nil Runner.
func (r *Runner) Stop() error {
	if r == nil || r.stop == nil {
		return nil
	}
	r.errOnce.Do(func() { close(r.stop) })
	<-r.done
	return r.err
}

// run is the Runner's goroutine: an Update at each arrival and at each step due, until Stop
// or an Update's error. Every iteration waits on a timer of at most maxSleep, so the loop
// never spins.
func (r *Runner) run() {
	defer close(r.done)
	var arrived <-chan struct{}
	if a, ok := r.game.Link().(Arrivals); ok {
		arrived = a.Arrived()
	}
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		select {
		case <-r.stop:
			return
		case <-arrived:
		case <-r.wake:
		case <-timer.C:
		}
		r.mu.Lock()
		wait, err := r.Advance(r.Now())
		r.mu.Unlock()
		if err != nil {
			r.err = err
			return
		}
		timer.Stop()
		timer.Reset(r.wallTime(wait))
	}
}

// wallTime returns how long game time d lasts on the wall clock (longer in slow motion).
func (r *Runner) wallTime(d time.Duration) time.Duration {
	if r.clock == nil {
		return d
	}
	rate := r.clock.Rate()
	if rate <= 0 {
		return d
	}
	return time.Duration(float64(d) / rate)
}

// Err returns the error that ended the session in one of the Runner's Updates, once its
// goroutine has stopped for it; nil while it runs, and for a nil Runner.
func (r *Runner) Err() error {
	if r == nil || r.done == nil {
		return nil
	}
	select {
	case <-r.done:
		return r.err
	default:
		return nil
	}
}

// Arrived returns the channel of the link under l that says when a message arrives, nil
// (never ready) when it cannot say.
func (l *clockLink) Arrived() <-chan struct{} {
	if a, ok := l.Link.(Arrivals); ok {
		return a.Arrived()
	}
	return nil
}
