package client

import "tanknet/netcode"

// prediction is our own tank: its netcode.Local, which predicts each step at once and
// reconciles with the server's states (replaying the inputs not yet acknowledged, and
// smoothing or snapping the difference), and the newest move tick sent.
type prediction struct {
	local    *netcode.Local // nil until the first snapshot that contains us
	cfg      netcode.LocalConfig
	lastMove uint32 // newest move tick sent
}

// take applies the server's state st of our tank: the first one places the tank, every later
// one reconciles with it, snapping to it if respawn says the tank came back from being
// destroyed. maxLead is how many inputs ahead the server takes (the Welcome's MaxInputLead);
// the Local keeps enough pending inputs for it.
func (p *prediction) take(arena *netcode.Arena, maxLead uint32, st netcode.State, respawn bool) {
	if p.local != nil {
		if respawn {
			p.local.ReconcileRespawn(st)
		} else {
			p.local.Reconcile(st)
		}
		return
	}
	lc := p.cfg // a server with a longer input lead than the default needs more kept
	lc.MaxPending = max(lc.MaxPending, int(maxLead)+netcode.AckReturnSteps)
	p.local = netcode.NewLocal(arena, lc, st)
}

// step predicts the next step with input in among the other tanks' reaches (contact.go).
func (p *prediction) step(in netcode.Input, others []netcode.Reach) netcode.PendingInput {
	return p.local.PredictAmong(in, others)
}

// sent notes that the step of move tick tick went to the server.
func (p *prediction) sent(tick uint32) { p.lastMove = tick }

// pending returns the inputs sent and not yet acknowledged, oldest first; nil before the tank
// exists.
func (p *prediction) pending() []netcode.PendingInput {
	if p.local == nil {
		return nil
	}
	return p.local.Pending()
}
