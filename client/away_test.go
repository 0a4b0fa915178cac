package client

import (
	"testing"
	"time"

	"tanknet/netcode"
	"tanknet/wire"
)

// awayLink is a scriptLink that also keeps the Aways sent.
type awayLink struct {
	scriptLink
	aways []wire.Away
}

func (l *awayLink) Send(m wire.GameMessage) error {
	if a, ok := m.(wire.Away); ok {
		l.aways = append(l.aways, a)
	}
	return l.scriptLink.Send(m)
}

// A server whose Welcome says how long it waits for an away client takes Away: GoAway sends
// one after the last move and stops the steps. A server whose Welcome says nothing of it
// (older than Away) would end the session for a message kind it does not know, so GoAway
// sends nothing there and the Game plays on.
func TestGoAway_OnlyToAServerThatTakesIt(t *testing.T) {
	for _, tc := range []struct {
		timeout   time.Duration
		wantAways int
	}{{2 * time.Minute, 1}, {0, 0}} {
		link := &awayLink{scriptLink: scriptLink{welcome: wire.Welcome{PlayerID: 1, Arena: netcode.DefaultArena(),
			Rules: netcode.DefaultRules(), AwayTimeout: tc.timeout}}}
		start := time.Unix(1000, 0)
		g := NewGame(link, DefaultOptions(), start)
		for i := range 4 {
			if err := g.Update(start.Add(time.Duration(i)*netcode.StepInterval), netcode.Input{Throttle: 1}); err != nil {
				t.Fatal(err)
			}
		}
		moves := len(link.sent)
		if err := g.GoAway(); err != nil {
			t.Fatal(err)
		}
		if err := g.GoAway(); err != nil { // a second call while away sends nothing more
			t.Fatal(err)
		}
		if len(link.aways) != tc.wantAways || g.Away() != (tc.wantAways > 0) {
			t.Errorf("away timeout %v: %d Aways sent, Away() %v; want %d", tc.timeout, len(link.aways), g.Away(), tc.wantAways)
		}
		last := uint32(0) // no move yet: the Game has not seen its tank
		if moves > 0 {
			last = link.sent[moves-1].Tick
		}
		if tc.wantAways > 0 && link.aways[0].LastMoveTick != last {
			t.Errorf("the Away names move tick %d, the last move sent was %d", link.aways[0].LastMoveTick, last)
		}
	}
}
