package view

import (
	"context"
	"fmt"
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
