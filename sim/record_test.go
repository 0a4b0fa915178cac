package sim

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tanknet/client"
	"tanknet/netcode"
)

// TestRun_RecordsEveryBot: with RecordDir, each bot of a run leaves a client recording
// named after the run, which replays through a Game to its end and names the bot's network
// (so its replay does not say network conditioning was unavailable).
func TestRun_RecordsEveryBot(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Bots, cfg.Duration, cfg.Contact = 2, 1500*time.Millisecond, netcode.ContactOff
	cfg.RecordDir = filepath.Join(t.TempDir(), "recs") // created by Run
	if _, err := Run(context.Background(), cfg, nil); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(cfg.RecordDir, "*.tnrec"))
	if len(files) != 2 || filepath.Base(files[0]) != "broadband-datagram-receive-bot-1.tnrec" {
		t.Fatalf("recordings %q, want one per bot named after the run", files)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		p, err := client.OpenReplay(bytes.NewReader(data), time.Unix(0, 0))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if err := p.StepToEnd(); err != nil {
			t.Fatalf("%s: frame %d: %v", f, p.Frames(), err)
		}
		if n := p.Game().Network(); !strings.HasPrefix(n, "network broadband: ") {
			t.Errorf("%s: the recording names its network %q, want broadband's", f, n)
		}
		if p.Frames() < 30 || p.Game().Local() == nil {
			t.Errorf("%s: %d frames replayed; want the bot's 1.5 s at 60 frames a second, with its tank", f, p.Frames())
		}
	}
}
