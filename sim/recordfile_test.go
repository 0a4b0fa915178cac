package sim

import (
	"testing"

	"tanknet/wire"
)

// A bot's recording is named after its own network (with -group, its group's, not the run's
// label of every group) in characters any file system takes, and numbered across the run.
func TestRecordFile_NamesTheBotsOwnNetwork(t *testing.T) {
	plain := DefaultConfig()
	plain.Bots = 2
	spec, err := newSpec(plain, "wifi-bad", "adaptive", wire.LaneDatagram.String())
	if err != nil {
		t.Fatal(err)
	}
	if got, want := recordFile(spec, 1), "wifi-bad-datagram-adaptive-bot-2.tnrec"; got != want {
		t.Errorf("recordFile = %q, want %q", got, want)
	}
	grouped := DefaultConfig()
	grouped.Bots = 3
	grouped.Groups = []Group{{Bots: 1, Net: "lan"}, {Bots: 2, Net: "up=mobile-3g,down=lan"}}
	grouped.InputBuffer = "off"
	spec, err = newSpec(grouped, grouped.Net, "receive", wire.LaneReliable.String())
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{
		"lan-reliable-receive-buffer-off-bot-1.tnrec",
		"up-mobile-3g-down-lan-reliable-receive-buffer-off-bot-2.tnrec",
		"up-mobile-3g-down-lan-reliable-receive-buffer-off-bot-3.tnrec",
	} {
		if got := recordFile(spec, i); got != want {
			t.Errorf("recordFile(bot %d) = %q, want %q", i+1, got, want)
		}
	}
}
