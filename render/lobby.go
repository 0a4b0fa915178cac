package render

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"

	"tanknet/client"
	"tanknet/discovery"
	"tanknet/render/view"
)

// LobbyConfig is what the lobby needs beyond the window's Options: how to look for servers
// and how to join one.
type LobbyConfig struct {
	// Name is the player's name the name field starts with.
	Name string
	// Discovery is how the lobby looks for servers; it asks again every Refresh.
	Discovery discovery.BrowseConfig
	// Join dials j on a goroutine of its own and returns the session and the match window's
	// Options (its title, the conditioner under the session). It must give up when ctx ends.
	Join func(ctx context.Context, j view.Join) (*client.Session, Options, error)
	// Log, if set, gets a line for each match joined and left.
	Log io.Writer
}

// Validate reports whether c is usable.
func (c LobbyConfig) Validate() error {
	if c.Join == nil {
		return errors.New("render: a lobby needs a Join")
	}
	return c.Discovery.Validate()
}

// serverList is where the browsing goroutine leaves each refreshed list for the window's
// goroutine: a swap under a mutex, so a refresh never holds up a frame.
type serverList struct {
	mu   sync.Mutex
	list []discovery.Server
	err  error
	gen  int // lists left so far
}

func (s *serverList) put(list []discovery.Server) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.list, s.gen = list, s.gen+1
}

func (s *serverList) fail(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.err = err
}

// take returns the newest list if it is newer than seen (gen), or ok false.
func (s *serverList) take(seen int) (list []discovery.Server, gen int, err error, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.list, s.gen, s.err, s.gen != seen
}

// joined is how a dial ended.
type joined struct {
	sess *client.Session
	opts Options
	err  error
}

// lobbyScreen is the lobby in the window: the list discovery keeps current, the keys and
// clicks, and the dial under way.
type lobbyScreen struct {
	cfg    LobbyConfig
	lobby  *view.Lobby
	found  *serverList
	seen   int // the generation of the list the lobby has
	places view.LobbyPlaces
	rows   []view.LobbyRow
	top    int
	chars  []rune

	dialing  chan joined        // the dial under way; nil when none
	cancel   context.CancelFunc // cancels it
	dialJoin view.Join

	lastFound string // the servers the Log last listed
}

func newLobbyScreen(cfg LobbyConfig) *lobbyScreen {
	return &lobbyScreen{cfg: cfg, lobby: view.NewLobby(cfg.Name), found: &serverList{}}
}

// browse looks for servers until ctx ends, leaving each list in s.found.
func (s *lobbyScreen) browse(ctx context.Context) {
	if err := discovery.Browse(ctx, s.cfg.Discovery, s.found.put); err != nil {
		s.found.fail(err)
	}
}

// update runs one tick of the lobby: a refreshed list, a dial that ended, the keys. It
// returns the session of a dial that succeeded (the match starts) and whether the player
// asked to quit.
func (s *lobbyScreen) update(ctx context.Context, bg *sync.WaitGroup) (j *joined, quit bool) {
	if list, gen, err, ok := s.found.take(s.seen); ok || err != nil {
		if ok {
			s.seen = gen
			s.lobby.SetServers(list)
			s.logFound(list)
		}
		if err != nil && s.lobby.BrowseError() == "" {
			s.lobby.SetBrowseError(err)
		}
	}
	if j := s.dialed(); j != nil {
		return j, false
	}
	act, join := s.lobby.Update(s.input())
	switch act {
	case view.LobbyQuit:
		s.abandon(bg)
		return nil, true
	case view.LobbyCancel:
		s.abandon(bg)
	case view.LobbyJoin:
		s.dial(ctx, bg, join)
	}
	return nil, false
}

// dial starts joining j on a goroutine; update picks up how it ended (dialed).
func (s *lobbyScreen) dial(ctx context.Context, bg *sync.WaitGroup, j view.Join) {
	dctx, cancel := context.WithCancel(ctx)
	done := make(chan joined, 1)
	s.dialing, s.cancel, s.dialJoin = done, cancel, j
	bg.Add(1)
	go func() {
		defer bg.Done()
		sess, opts, err := s.cfg.Join(dctx, j)
		done <- joined{sess: sess, opts: opts, err: err}
	}()
}

// dialed returns how the dial under way ended, or nil while it runs (or with none). A dial
// that failed leaves its sentence in the lobby and returns nil.
func (s *lobbyScreen) dialed() *joined {
	if s.dialing == nil {
		return nil
	}
	select {
	case r := <-s.dialing:
		s.cancel()
		s.dialing, s.cancel = nil, nil
		s.lobby.JoinDone(r.err)
		if r.err != nil {
			return nil
		}
		return &r
	default:
		return nil
	}
}

// abandon gives up the dial under way: a session it still brings is closed at once.
func (s *lobbyScreen) abandon(bg *sync.WaitGroup) {
	if s.dialing == nil {
		return
	}
	done := s.dialing
	s.cancel()
	s.dialing, s.cancel = nil, nil
	bg.Add(1)
	go func() {
		defer bg.Done()
		if r := <-done; r.sess != nil {
			_ = r.sess.Close("join cancelled")
		}
	}()
}

// logFound writes the servers found to the Log when they differ from the last list's.
func (s *lobbyScreen) logFound(list []discovery.Server) {
	names := make([]string, len(list))
	for i, sv := range list {
		names[i] = sv.Name + " (" + sv.Game.String() + ")"
	}
	found := strings.Join(names, ", ")
	if s.cfg.Log == nil || (found == s.lastFound && s.seen > 1) {
		return
	}
	s.lastFound = found
	if found == "" {
		found = "no server"
	}
	fmt.Fprintf(s.cfg.Log, "tankclient: the lobby lists %s\n", found)
}

// back shows the lobby again after a match on label, which ended with err (nil: the player
// left it).
func (s *lobbyScreen) back(label string, err error) {
	s.lobby.Back(label, err)
	if s.cfg.Log != nil {
		fmt.Fprintf(s.cfg.Log, "tankclient: back in the lobby from %s\n", label)
	}
}

// input reads this tick's keys and click. The arrows and Backspace repeat while held.
func (s *lobbyScreen) input() view.LobbyInput {
	pressed := inpututil.IsKeyJustPressed
	shift := held(ebiten.KeyShift)
	in := view.LobbyInput{
		Up: repeating(ebiten.KeyArrowUp), Down: repeating(ebiten.KeyArrowDown),
		Tab: pressed(ebiten.KeyTab) && !shift, Back: pressed(ebiten.KeyTab) && shift,
		Enter:     pressed(ebiten.KeyEnter) || pressed(ebiten.KeyNumpadEnter),
		Backspace: repeating(ebiten.KeyBackspace),
		Escape:    pressed(ebiten.KeyEscape), F10: pressed(ebiten.KeyF10),
	}
	s.chars = ebiten.AppendInputChars(s.chars[:0])
	in.Chars = s.chars
	if inpututil.IsMouseButtonJustPressed(ebiten.MouseButtonLeft) {
		x, y := ebiten.CursorPosition()
		in.Click = s.lobby.TargetAt(s.places, s.rows, s.top, float64(x), float64(y))
	}
	return in
}

// Key repeat for the lobby's arrows and Backspace, in ticks: the first repeat after half a
// second, then 15 a second, as desktop fields do.
const (
	repeatDelay = 30
	repeatEvery = 4
)

// repeating reports whether k was pressed this tick (even if already released: a quick tap)
// or repeats this tick while held.
func repeating(k ebiten.Key) bool {
	d := inpututil.KeyPressDuration(k)
	return inpututil.IsKeyJustPressed(k) || (d > repeatDelay && (d-repeatDelay)%repeatEvery == 0)
}

// joinedLine is the Log's line for a match joined.
func joinedLine(j view.Join, sess *client.Session) string {
	w := sess.Welcome()
	return fmt.Sprintf("tankclient: joined %s at %s room %q as player %d\n", j.Label, j.Addr, w.Room, w.PlayerID)
}
