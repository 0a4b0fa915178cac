package client

import (
	"bytes"
	"errors"
	"io"
	"sync"
	"time"
)

// A Mirror is a Replay of a recording still being written: another Game (a browser page's
// worker, which runs the session off the page's frame loop) records itself, flushing after
// every Update (FlushRecording), and hands the bytes over as they come; the Mirror's own
// Game steps through them and so is, frame for frame, the Game that recorded them. Add may be
// called from any goroutine; Step and Game belong to the one that draws.
type Mirror struct {
	epoch time.Time

	mu     sync.Mutex
	buf    bytes.Buffer // received, not yet read by the replay
	frames int          // whole frames received
	closed error        // set by End: no more bytes will come

	replay  *Replay // nil until the header has come
	stepped int
	at      map[int]func(*Game) // At's calls, by frame
	kept    []byte              // every byte received, when Keep asked for them
	keep    bool
}

// NewMirror returns a Mirror whose Game starts at epoch, as OpenReplay's does.
func NewMirror(epoch time.Time) *Mirror { return &Mirror{epoch: epoch} }

// Keep makes the Mirror keep every byte it receives, for Recording to return (a page that
// offers its game's recording for download). Call it before the first Add.
func (m *Mirror) Keep() { m.keep = true }

// Add hands the Mirror b, the bytes recorded since the last Add, which end frames frames
// later (0 for the header alone): the writer always hands over whole frames.
func (m *Mirror) Add(b []byte, frames int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.buf.Write(b)
	m.frames += frames
	if m.keep {
		m.kept = append(m.kept, b...)
	}
}

// End says no more bytes will come, and why (nil: the recorder ended cleanly); Step returns
// it, wrapped, once every frame received has been stepped and the recording itself said
// nothing.
func (m *Mirror) End(why error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if why == nil {
		why = io.EOF
	}
	m.closed = why
}

// At has Step call fn with the Game just after it runs frame n (counted from 1), before
// any later frame: to compare the Game with the recorder's at a moment the recorder named.
// It reports false, and never calls fn, when frame n has already been run. Safe from any
// goroutine.
func (m *Mirror) At(n int, fn func(*Game)) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	if n <= m.stepped {
		return false
	}
	if m.at == nil {
		m.at = map[int]func(*Game){}
	}
	m.at[n] = fn
	return true
}

// Recording returns every byte received, when Keep was called.
func (m *Mirror) Recording() []byte {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]byte(nil), m.kept...)
}

// Game returns the Mirror's Game, nil until the recording's header has come.
func (m *Mirror) Game() *Game {
	if m.replay == nil {
		return nil
	}
	return m.replay.Game()
}

// Frames returns how many frames have been stepped.
func (m *Mirror) Frames() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.stepped
}

// Step runs every whole frame received and not yet run, calling after (if not nil) with the
// Game after each, and returns how many it ran. It returns the error that ended the recorded
// session on the frame that recorded it, and once End was called and every frame is run,
// io.EOF or End's reason.
func (m *Mirror) Step(after func(*Game)) (int, error) {
	m.mu.Lock()
	avail, closed := m.frames, m.closed
	m.mu.Unlock()
	if m.replay == nil {
		if !m.hasHeader() {
			if closed != nil {
				return 0, closed
			}
			return 0, nil
		}
		p, err := OpenReplay(mirrorReader{m}, m.epoch)
		if err != nil {
			return 0, err
		}
		m.replay = p
	}
	n := 0
	for m.stepped < avail {
		_, err := m.replay.Step()
		m.mu.Lock()
		m.stepped++
		at := m.at[m.stepped]
		delete(m.at, m.stepped)
		m.mu.Unlock()
		if at != nil {
			at(m.replay.Game())
		}
		if errors.Is(err, io.EOF) {
			return n, errors.New("client: mirror: a frame was announced but did not come")
		}
		n++
		if after != nil {
			after(m.replay.Game())
		}
		if err != nil {
			return n, err
		}
	}
	if closed != nil {
		return n, closed
	}
	return n, nil
}

// hasHeader reports whether the header has come: the recorder hands it over first, alone,
// and any byte at all means it is whole.
func (m *Mirror) hasHeader() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.buf.Len() > 0 || m.frames > 0
}

// mirrorReader reads what the Mirror has received; with nothing there it says io.EOF, which
// the replay never meets inside a frame, since it reads only whole frames announced.
type mirrorReader struct{ m *Mirror }

func (r mirrorReader) Read(p []byte) (int, error) {
	r.m.mu.Lock()
	defer r.m.mu.Unlock()
	if r.m.buf.Len() == 0 {
		return 0, io.EOF
	}
	return r.m.buf.Read(p)
}
