package view

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"tanknet/client"
)

// TestHUD_NamesTheRoom: a player in a room of its own sees the room's name on its player
// line; in the default room the line is as it always was.
func TestHUD_NamesTheRoom(t *testing.T) {
	addr := startServer(t)
	for _, c := range []struct{ room, suffix string }{{"blue", " in room blue"}, {"", ""}} {
		sess, err := client.DialRoom(context.Background(), addr, "ada", c.room, nil, 5*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		g := client.NewGame(sess, client.DefaultOptions(), time.Now()) // its name comes with the first roster, not read here
		lines := HUD(g, Techniques{}, nil)
		want := fmt.Sprintf("player #%d %s%s", sess.Welcome().PlayerID, g.Name(sess.Welcome().PlayerID), c.suffix)
		if len(lines) < 2 || lines[1].Text != want {
			t.Errorf("room %q: the HUD's lines start %+v, want %q after the heading", c.room, lines[:min(2, len(lines))], want)
		}
		sess.Close("test over")
	}
}

// TestDemoLegend_KeysSurviveAShortPanel: the legend's first lines say where the tour and the
// help are, so the panel of an 800x450 demo, which hides the last lines, still shows them.
func TestDemoLegend_KeysSurviveAShortPanel(t *testing.T) {
	lines := FitPanel(DemoLegend(8, 6, 0), 40, 6)
	found := false
	for _, l := range lines {
		found = found || strings.Contains(l.Text, "O guided tour") && strings.Contains(l.Text, "F1")
	}
	if !found {
		t.Errorf("a six-row panel shows %q, want the tour and help keys among them", lines)
	}
}
