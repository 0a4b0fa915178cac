package main

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"tanknet/client"
	"tanknet/internal/cdp"
)

// lobbyInTab opens the page with no name: it shows the lobby with the server's rooms (GET
// /rooms). The visitor types a name and a new room and joins it with Enter; the page plays
// there (its report names both). A second lobby then lists that room with its one player.
func lobbyInTab(t *testing.T, ctx context.Context, b *cdp.Browser, page string) {
	first, err := b.OpenPage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	navigate(t, ctx, b, first, page+"?report=4&bot=1")
	if got := waitRooms(t, ctx, b, first, "default"); !strings.HasPrefix(got, "default · ") {
		t.Fatalf("the lobby lists %q, want the default room", got)
	}
	if path := os.Getenv("TANKNET_BROWSER_SHOT"); path != "" { // to look at it
		if shot, err := b.Screenshot(ctx, first); err == nil {
			os.WriteFile(strings.TrimSuffix(path, ".png")+"-lobby.png", shot, 0o644)
		}
	}
	fill := `document.getElementById('lobby-name').value = 'visitor';
		const room = document.getElementById('lobby-room'); room.value = 'lobbyroom';
		room.dispatchEvent(new KeyboardEvent('keydown', {key: 'Enter'})); 'joining'`
	evalString(t, ctx, b, first, fill)
	line, console := awaitConsole(t, ctx, b, "tanknet-report ")
	var r client.Report
	if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "tanknet-report ")), &r); err != nil {
		t.Fatalf("the report does not parse: %v\n%s", err, line)
	}
	if r.Name != "visitor" || r.Room != "lobbyroom" || r.Snapshots == 0 {
		t.Errorf("after the lobby the page plays as %q in room %q with %d snapshots, want visitor in lobbyroom; its report:\n%s\nconsole:\n%s", r.Name, r.Room, r.Snapshots, line, console)
	}

	second, err := b.OpenPage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	navigate(t, ctx, b, second, page)
	if got := waitRooms(t, ctx, b, second, "lobbyroom"); !strings.HasPrefix(got, "lobbyroom · 1/") {
		t.Errorf("a second lobby lists %q, want lobbyroom with its one player", got)
	}
	b.Call(ctx, first, "Page.close", nil, nil)
	b.Call(ctx, second, "Page.close", nil, nil)
	t.Logf("lobby: joined %s as %s; a second lobby lists it", r.Room, r.Name)
}

// waitRooms waits, inside the page, for the lobby to list room, and returns that entry's text
// ("" if the page's context ends first).
func waitRooms(t *testing.T, ctx context.Context, b *cdp.Browser, session, room string) string {
	t.Helper()
	expr := `new Promise((done) => {
		const look = () => {
			const b = document.querySelector('#rooms button[data-room="` + room + `"]');
			if (b) done(b.textContent); else setTimeout(look, 50);
		};
		look();
	})`
	return evalString(t, ctx, b, session, expr)
}
