package main

import "time"

// roomLedger decides the count tankserver gives the Agones rooms counter, so a fleet can
// use rooms as its allocation unit ("high density" game servers, docs/DEPLOY.md): an
// allocation that picks this server adds one to the counter for the match it is about to
// send, before any player of that match has joined. Were tankserver to write the rooms it
// has open, it would take that room back at once, and the next allocation could pick the
// same server for a room it no longer has. So the ledger holds each room an allocation
// added until a room opens to use it, or for hold at most (a match that never came), and
// the count is the rooms open plus the rooms held, at most the capacity.
type roomLedger struct {
	hold   time.Duration
	held   []time.Time // when each room held for an allocation is given back, oldest first
	open   int         // rooms open at the last count
	wanted int64       // the count last asked of the counter
}

// count returns the rooms counter's count at now with open rooms open, out of capacity:
// rooms that opened since the last count use the oldest rooms held, and rooms held past
// their time are given back.
func (l *roomLedger) count(now time.Time, open, capacity int) int64 {
	if opened := open - l.open; opened > 0 {
		l.held = l.held[min(opened, len(l.held)):]
	}
	l.open = open
	for len(l.held) > 0 && !now.Before(l.held[0]) {
		l.held = l.held[1:]
	}
	l.wanted = int64(min(open+len(l.held), capacity))
	return l.wanted
}

// seen takes in the count Agones shows for the counter at now: what it shows above the
// count last asked is rooms allocations added, held from now. A count below it is one
// that was asked before (or a room given back): nothing to hold.
func (l *roomLedger) seen(now time.Time, count int64) {
	for range count - l.wanted {
		l.held = append(l.held, now.Add(l.hold))
	}
	l.wanted = max(l.wanted, count)
}
