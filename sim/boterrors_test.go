package sim

import (
	"errors"
	"strings"
	"testing"
)

// Bots that fail alike are reported once, counted: a server that does not answer is one
// line, not one per bot; different failures each keep their line.
func TestBotErrors_OnceEach(t *testing.T) {
	noAnswer := errors.New("client: no answer from 127.0.0.1:7999 within 5s")
	bots := make([]botRun, 4)
	for i := range bots {
		bots[i].err = noAnswer
	}
	got := botErrors(bots).Error()
	if got != "every bot (4): "+noAnswer.Error() {
		t.Errorf("four bots without a server: %q, want one line counting them", got)
	}
	bots[3].err = errors.New("tanksim: -record: disk full")
	bots[2].err = nil
	got = botErrors(bots).Error()
	if lines := strings.Split(got, "\n"); len(lines) != 2 || lines[0] != "2 bots: "+noAnswer.Error() || lines[1] != "tanksim: -record: disk full" {
		t.Errorf("mixed failures: %q", got)
	}
	if botErrors(make([]botRun, 3)) != nil {
		t.Error("bots without errors reported an error")
	}
}
