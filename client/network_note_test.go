package client

import (
	"bytes"
	"testing"
	"time"

	"tanknet/netcode"
	"tanknet/wire"
)

// What the window noted about its link (NoteNetwork) is kept in the recording when it
// changes, and a replay's Game says it from the frame it was noted on.
func TestRecording_KeepsTheNetworkNote(t *testing.T) {
	link := &scriptLink{welcome: wire.Welcome{PlayerID: 1, Arena: netcode.DefaultArena(), Rules: netcode.DefaultRules()}}
	start := time.Unix(1000, 0)
	g := NewGame(link, DefaultOptions(), start)
	var rec bytes.Buffer
	if err := g.RecordTo(&rec); err != nil {
		t.Fatal(err)
	}
	notes := []string{"network lan", "", "", "network mobile-3g", ""} // "": no change this frame
	for i, n := range notes {
		if n != "" {
			g.NoteNetwork(n)
		}
		if err := g.Update(start.Add(time.Duration(i)*time.Second/60), netcode.Input{}); err != nil {
			t.Fatal(err)
		}
	}
	if err := g.StopRecording(); err != nil {
		t.Fatal(err)
	}
	rep, err := OpenReplay(bytes.NewReader(rec.Bytes()), time.Unix(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"network lan", "network lan", "network lan", "network mobile-3g", "network mobile-3g"}
	for i, w := range want {
		if _, err := rep.Step(); err != nil {
			t.Fatal(err)
		}
		if got := rep.Game().Network(); got != w {
			t.Errorf("frame %d: the replayed Game says %q, the window had noted %q", i+1, got, w)
		}
		if i == 1 && rep.frame.Network != "" {
			t.Errorf("frame 2 repeats the note %q; a note is kept only when it changes", rep.frame.Network)
		}
	}
}
