package render

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"tanknet/client"
	"tanknet/netcode"
	"tanknet/render/view"
)

// countBots counts what the demo asks of its bots.
type countBots struct {
	n    int
	held bool
}

func (b *countBots) Add()               { b.n++ }
func (b *countBots) Remove()            { b.n-- }
func (b *countBots) Count() int         { return b.n }
func (b *countBots) HoldFire(hold bool) { b.held = hold }

// testDemo is the demo's mode over two quiet panes, with what it asked of its server.
type testDemo struct {
	*demo
	w       *window
	bots    *countBots
	rates   []float64
	asked   []netcode.ContactMode
	refuse  error // what the contact switch answers
	reports *strings.Builder
}

func newTestDemo(t *testing.T, opts Options) *testDemo {
	td := &testDemo{bots: &countBots{}}
	clock := client.NewClock(time.Now())
	td.demo = newDemo(DemoOptions{Options: opts, Truth: func(*Truth) {}, Bots: td.bots, Clock: clock,
		ServerRate: func(r float64) { td.rates = append(td.rates, r) },
		SetContact: func(m netcode.ContactMode) error { td.asked = append(td.asked, m); return td.refuse }})
	near := livePane("NEAR PLAYER (WASD)", "near", 1, clock, opts)
	far := livePane("FAR PLAYER (arrows)", "far", 2, clock, opts)
	td.w = testWindow(t, td.demo, opts, near, far)
	return td
}

// keys returns a pressed func for the keys given.
func keys(ks ...ebiten.Key) func(ebiten.Key) bool {
	return func(k ebiten.Key) bool { return slices.Contains(ks, k) }
}

// TestDemo: the demo's mode starts at Options.Slow and slows the server, the clock and both
// panes together (M, Shift+M back); C cycles the room's contact mode from the near player's,
// keeping a refusal for the HUDs; + and - add and remove bots; the far player is the third
// pane, and both players are the tour's.
func TestDemo(t *testing.T) {
	out, opts := report()
	opts.Slow = 4
	td := newTestDemo(t, opts)
	d, w := td.demo, td.w
	if err := d.begin(w); err != nil {
		t.Fatal(err)
	}
	if d.slowFactor() != 4 || !slices.Equal(td.rates, []float64{0.25}) || w.panes[1].slow != 4 {
		t.Errorf("begin: slow %d, server rates %v, far pane slow %d; want 4, [0.25], 4", d.slowFactor(), td.rates, w.panes[1].slow)
	}
	d.key(w, keys(ebiten.KeyM), true)
	if d.slowFactor() != 1 || !strings.Contains(out.String(), "speed 1/1") {
		t.Errorf("Shift+M from 1/4: slow %d, report %q", d.slowFactor(), out)
	}
	d.key(w, keys(ebiten.KeyC), false)
	first := view.NextContact(w.panes[0].game.Rules().Contact)
	td.refuse = errors.New("no")
	d.key(w, keys(ebiten.KeyC), false)
	if !slices.Equal(td.asked, []netcode.ContactMode{first, view.NextContact(first)}) || w.notice == nil || d.asked != first {
		t.Errorf("C, C refused: asked %v, notice %v, last asked %v", td.asked, w.notice, d.asked)
	}
	d.key(w, keys(ebiten.KeyEqual), false)
	d.key(w, keys(ebiten.KeyNumpadAdd), false)
	d.key(w, keys(ebiten.KeyMinus), false)
	if td.bots.n != 1 {
		t.Errorf("+ + -: %d bots, want 1", td.bots.n)
	}
	if got := d.layout(w, screen, nil); len(got) != 3 || d.paneIndex(1) != view.FarPane {
		t.Errorf("layout: %d panes, far player at %d", len(got), d.paneIndex(1))
	}
	if near, far, ok := d.actors(w); !ok || near != w.panes[0] || far != w.panes[1] {
		t.Error("the tour does not drive the demo's players")
	}
	if !slices.Contains(d.features(), view.FeatureContact) || !slices.Equal(d.help(), view.Help(true)) {
		t.Error("the demo shows no contact scenes, or the single window's help")
	}
}
