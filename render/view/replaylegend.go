package view

import "fmt"

// ReplaySetLegend is the text under the server pane when the three panes replay a demo's
// recording set: what each pane is now, and the playback keys in place of the driving ones.
func ReplaySetLegend(players, wrecks int) []Line {
	return []Line{
		{"Three views of one recorded game", Heading},
		{"left    the near player, as it drew it", Plain},
		{fmt.Sprintf("middle  the server's truth: %d tanks, %d wrecked", players, wrecks), Plain},
		{"right   the far player, as it drew it", Plain},
		{"The middle is rebuilt from the server's", Dim},
		{"recording at the newest tick either player", Dim},
		{"had received at this moment.", Dim},
		{"Keys", Heading},
		{"Space play  ←→ frame  Shift ←→ 5 s", Plain},
		{"↑↓ speed  Home start  bar: click to seek", Plain},
		{"P R I L B: the pane under the mouse", Plain},
		{"T strip  G ghosts  H HUD  E whole HUD", Plain},
		{"F1 help  Esc quit", Plain},
	}
}
