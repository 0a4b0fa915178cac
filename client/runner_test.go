package client

import (
	"bytes"
	"errors"
	"sync"
	"testing"
	"time"

	"tanknet/netcode"
	"tanknet/wire"
)

// slowFrames is the frame interval of the tests' frame loop: 5 frames a second, slower than
// any window draws, so anything that waits for a frame shows.
const slowFrames = 200 * time.Millisecond

// runVirtual plays 4 s of virtual time, a millisecond at a time, on the scripted server of
// feed_test.go. The frame loop calls Update every slowFrames; with runner, the Runner is
// advanced as its goroutine would be: when its sleep ends and when a message arrives. It
// returns when each input left, and checks that every arrival the Runner saw was taken at
// once.
func runVirtual(t *testing.T, withRunner bool) (sentAt []time.Time, g *Game, rec *bytes.Buffer) {
	t.Helper()
	arena := netcode.DefaultArena()
	link := &scriptLink{welcome: wire.Welcome{PlayerID: 1, Arena: arena, Rules: netcode.DefaultRules()}}
	start := time.Unix(1000, 0)
	srv := &scriptedServer{arena: arena, link: link, latency: 40 * time.Millisecond, me: netcode.Pose{X: 10, Y: 10}}
	remote := func(tick uint32) netcode.Pose { return netcode.Pose{X: 5 + 0.1*float64(tick), Y: 30} }
	g = NewGame(link, DefaultOptions(), start)
	rec = &bytes.Buffer{}
	if err := g.RecordTo(rec); err != nil {
		t.Fatal(err)
	}
	r := NewRunner(g, nil)
	in := netcode.Input{Turn: 0.3, Throttle: 1}
	r.SetInput(in)
	wake, nextFrame := start, start
	for now := start; now.Before(start.Add(4 * time.Second)); now = now.Add(time.Millisecond) {
		srv.serve(now, remote)
		arrived := newestQueued(link.queue)
		if withRunner && (arrived != 0 || !now.Before(wake)) {
			wait, err := r.Advance(now)
			if err != nil {
				t.Fatal(err)
			}
			wake = now.Add(wait)
			if got := g.Stats().ServerTick; got < arrived {
				t.Fatalf("at %v the Game's newest tick is %d, %d has arrived: an arrival waited", now.Sub(start), got, arrived)
			}
		}
		if !now.Before(nextFrame) {
			if err := g.Update(now, in); err != nil {
				t.Fatal(err)
			}
			nextFrame = nextFrame.Add(slowFrames)
		}
		for len(sentAt) < len(link.sent) {
			sentAt = append(sentAt, now)
		}
	}
	if err := g.StopRecording(); err != nil {
		t.Fatal(err)
	}
	return sentAt, g, rec
}

// newestQueued returns the newest snapshot tick in q, 0 when q has none.
func newestQueued(q []Received) uint32 {
	newest := uint32(0)
	for _, r := range q {
		if s, ok := r.Msg.(*wire.Snapshot); ok {
			newest = max(newest, s.Tick)
		}
	}
	return newest
}

// TestRunner_SendsOnTheClockWhileFramesAreSlow: with frames 200 ms apart, a Runner still
// sends one input every 50 ms (within the prediction clock's dilation), takes each snapshot
// as it arrives, and its Game reconciles with no residual. Without it the same Game sends its
// inputs in bursts, one frame apart: the test tells the two apart.
func TestRunner_SendsOnTheClockWhileFramesAreSlow(t *testing.T) {
	sentAt, g, _ := runVirtual(t, true)
	if len(sentAt) < 70 {
		t.Fatalf("sent %d inputs in 4 s; want one every 50 ms after the first snapshot", len(sentAt))
	}
	for i := 1; i < len(sentAt); i++ {
		if gap := sentAt[i].Sub(sentAt[i-1]); gap < 45*time.Millisecond || gap > 55*time.Millisecond {
			t.Fatalf("input %d left %v after the one before; want 50 ms ± the clock's dilation", i, gap)
		}
	}
	if c := g.Local().Counters(); c.Reconciliations < 60 || c.NonZeroResiduals != 0 {
		t.Errorf("%d reconciliations, %d moved the prediction; want every snapshot taken and none moved", c.Reconciliations, c.NonZeroResiduals)
	}

	burst, _, _ := runVirtual(t, false)
	longest := time.Duration(0)
	for i := 1; i < len(burst); i++ {
		longest = max(longest, burst[i].Sub(burst[i-1]))
	}
	t.Logf("with a Runner: %d inputs sent; without: %d, the longest gap %v", len(sentAt), len(burst), longest)
	if longest < slowFrames-netcode.StepInterval {
		t.Errorf("without a Runner the longest gap between inputs is %v; the frame loop alone should send them a frame apart", longest)
	}
}

// TestRunner_RecordingReplaysExactly: a recording keeps the Runner's Updates beside the
// frame loop's, and replays to the same Game.
func TestRunner_RecordingReplaysExactly(t *testing.T) {
	_, g, rec := runVirtual(t, true)
	p, err := OpenReplay(bytes.NewReader(rec.Bytes()), time.Unix(5000, 0))
	if err != nil {
		t.Fatal(err)
	}
	if err := p.StepToEnd(); err != nil {
		t.Fatal(err)
	}
	a, b := g.Local(), p.Game().Local()
	if a.Visible() != b.Visible() || a.Baseline() != b.Baseline() || a.Counters() != b.Counters() {
		t.Errorf("replayed tank %v %+v, recorded %v %+v", b.Visible(), b.Counters(), a.Visible(), a.Counters())
	}
	if g.Stats() != p.Game().Stats() {
		t.Errorf("replayed stats %+v, recorded %+v", p.Game().Stats(), g.Stats())
	}
}

// pushLink is a Link a test feeds from its own goroutine, which says when a message arrives
// (Arrivals) and tells the test when the Game drained it and what it sent.
type pushLink struct {
	welcome wire.Welcome
	arrived chan struct{}
	drained chan int // the number of messages of each Drain that found some

	mu    sync.Mutex
	queue []Received
	moves int
	err   error
	sent  chan struct{} // closed when moves reaches wantMoves
	want  int
}

func (l *pushLink) Welcome() wire.Welcome    { return l.welcome }
func (l *pushLink) Arrived() <-chan struct{} { return l.arrived }

func (l *pushLink) push(r Received, err error) {
	l.mu.Lock()
	l.queue = append(l.queue, r)
	l.err = err
	l.mu.Unlock()
	select {
	case l.arrived <- struct{}{}:
	default:
	}
}

func (l *pushLink) Drain(dst []Received) ([]Received, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := len(l.queue)
	dst = append(dst, l.queue...)
	l.queue = l.queue[:0]
	if n > 0 {
		l.drained <- n
	}
	return dst, l.err
}

func (l *pushLink) Send(m wire.GameMessage) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, ok := m.(wire.Move); ok {
		if l.moves++; l.moves == l.want {
			close(l.sent)
		}
	}
	return nil
}

// waitFor fails the test unless ch yields within a generous bound: the Runner's goroutine
// runs on the real clock, and a loaded machine may be slow to schedule it.
func waitFor[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(10 * time.Second):
		t.Fatalf("no %s within 10 s", what)
		panic("unreachable")
	}
}

// TestRunner_RunsWithoutFrames: with no frame drawn at all, the Runner's goroutine takes
// each snapshot when it arrives and sends inputs on its clock, while another goroutine reads
// the Game under the lock (the race detector watches). A link error stops it with that error.
func TestRunner_RunsWithoutFrames(t *testing.T) {
	link := &pushLink{welcome: wire.Welcome{PlayerID: 1, Arena: netcode.DefaultArena()},
		arrived: make(chan struct{}, 1), drained: make(chan int, 1), sent: make(chan struct{}), want: 5}
	g := NewGame(link, DefaultOptions(), time.Now())
	r := NewRunner(g, nil)
	r.SetInput(netcode.Input{Throttle: 1})
	r.Start()
	stopReader := make(chan struct{})
	readerDone := make(chan struct{})
	go readConcurrently(r, stopReader, readerDone)
	me := netcode.State{Pose: netcode.Pose{X: 10, Y: 10}}
	for tick := uint32(1); tick <= 3; tick++ {
		link.push(Received{At: time.Now(), Msg: decoded(snapshotMsg(tick, map[uint32]netcode.State{1: me, 2: me}))}, nil)
		waitFor(t, link.drained, "Drain after a snapshot arrived")
	}
	waitFor(t, (<-chan struct{})(link.sent), "five inputs sent without a frame")
	close(stopReader)
	<-readerDone

	gone := errors.New("link gone")
	link.push(Received{At: time.Now(), Msg: decoded(snapshotMsg(4, map[uint32]netcode.State{1: me}))}, gone)
	waitFor(t, link.drained, "Drain after the link failed")
	if err := r.Stop(); !errors.Is(err, gone) {
		t.Errorf("Stop returned %v, want the link's error", err)
	}
	if st := g.Stats(); st.ServerTick != 4 || len(g.Remotes()) != 1 {
		t.Errorf("newest tick %d, %d remotes; want the four snapshots taken and the other tank known", st.ServerTick, len(g.Remotes()))
	}
}

// readConcurrently reads the Game as a frame loop would, under the Runner's lock, every
// couple of milliseconds until stop.
func readConcurrently(r *Runner, stop <-chan struct{}, done chan<- struct{}) {
	defer close(done)
	frames := time.NewTicker(2 * time.Millisecond)
	defer frames.Stop()
	for {
		select {
		case <-stop:
			return
		case <-frames.C:
		}
		r.Lock()
		g := r.Game()
		if l := g.Local(); l != nil {
			_ = l.Visible()
		}
		for _, rm := range g.Remotes() {
			_ = rm.Pose
		}
		_ = g.Stats()
		r.Unlock()
	}
}
