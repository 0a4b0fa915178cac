package render

import (
	"bytes"
	"context"
	"image"
	"os"
	"testing"
	"time"

	"tanknet/client"
	"tanknet/netcode"
	"tanknet/render/matchplay"
	"tanknet/render/view"
	"tanknet/wire"
)

// The modes' tests run each mode on a window that is never opened: they call what the
// window calls and check what the mode decides. Drawing is render/e2e's to test.

// quietLink is a session that has joined and says nothing more: a live pane's link.
type quietLink struct{ welcome wire.Welcome }

func (l quietLink) Welcome() wire.Welcome                                { return l.welcome }
func (quietLink) Drain(dst []client.Received) ([]client.Received, error) { return dst, nil }
func (quietLink) Send(wire.GameMessage) error                            { return nil }

func testArena() netcode.Arena { return netcode.DefaultArena() }

// livePane is a pane on a quiet link for player id.
func livePane(role, name string, id uint32, clock *client.Clock, opts Options) *clientPane {
	link := clock.Link(quietLink{welcome: wire.Welcome{PlayerID: id, Arena: testArena(), Rules: netcode.DefaultRules()}})
	return newClientPane(role, name, link, opts, nil, time.Now())
}

// testWindow is a window in mode m with panes, never opened.
func testWindow(t *testing.T, m mode, opts Options, panes ...*clientPane) *window {
	t.Helper()
	w, err := newWindow(context.Background(), testArena(), opts, m)
	if err != nil {
		t.Fatal(err)
	}
	w.panes = panes
	t.Cleanup(func() { // a mode's begin starts runners and holds them as an Update would
		w.release()
		for _, p := range w.panes {
			_ = p.runner.Stop()
		}
	})
	return w
}

// screen is the window's size in the modes' tests.
var screen = image.Rect(0, 0, 1600, 900)

// testSet is the short recording set of render/matchplay's tests.
func testSet(t *testing.T) *matchplay.Set {
	t.Helper()
	read := func(part string) matchplay.Part {
		data, err := os.ReadFile("matchplay/testdata/b-" + part + ".tnrec")
		if err != nil {
			t.Fatal(err)
		}
		return matchplay.Part{Name: "b-" + part, Data: data}
	}
	set, err := matchplay.Open(read("near"), read("far"), read("server"))
	if err != nil {
		t.Fatal(err)
	}
	return set
}

// report is an Options.Report that a test reads.
func report() (*bytes.Buffer, Options) {
	var b bytes.Buffer
	return &b, Options{Report: &b, Game: client.DefaultOptions(), Techniques: view.AllOn()}
}
