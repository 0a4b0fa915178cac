package view

import (
	"strings"
	"testing"
)

// The replay's legend counts the server's tanks and wrecks, and names the playback keys, not
// the driving ones nothing listens to in a replay.
func TestReplaySetLegend(t *testing.T) {
	var text []string
	for _, l := range ReplaySetLegend(8, 2) {
		text = append(text, l.Text)
	}
	all := strings.Join(text, "\n")
	for _, want := range []string{"8 tanks, 2 wrecked", "Space play", "bar: click to seek"} {
		if !strings.Contains(all, want) {
			t.Errorf("the replay legend does not say %q:\n%s", want, all)
		}
	}
	for _, live := range []string{"WASD", "arrows far player", "bots"} {
		if strings.Contains(all, live) {
			t.Errorf("the replay legend names %q, a live demo's key:\n%s", live, all)
		}
	}
}
