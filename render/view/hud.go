package view

import (
	"fmt"
	"math"
	"slices"
	"time"

	"tanknet/client"
	"tanknet/transport"
)

// Style says how a HUD line is drawn.
type Style int

const (
	Plain   Style = iota // ordinary text
	Heading              // a section title
	Dim                  // secondary detail
	Warn                 // something worth noticing (a technique off, a lossy link)
)

// Line is one line of HUD text.
type Line struct {
	Text  string
	Style Style
}

// HUD returns the HUD's text for g: the connection, the local tank's prediction state, the
// remote tanks' interpolation state, the counters and the technique switches. net describes
// the network conditions, a line each, shown under the connection.
func HUD(g *client.Game, t Techniques, net []string) []Line {
	st := g.Stats()
	w := g.Welcome()
	var ls []Line
	add := func(s Style, format string, args ...any) {
		ls = append(ls, Line{Text: fmt.Sprintf(format, args...), Style: s})
	}

	add(Heading, "Connection")
	add(Plain, "player #%d %s", w.PlayerID, g.Name(w.PlayerID))
	rtt := "-"
	if st.RTTSamples > 0 {
		rtt = ms(st.RTT)
	}
	add(Plain, "RTT %s  (KCP %s)", rtt, ms(g.Session().SmoothedRTT()))
	add(Plain, "server tick %d  snapshots %d", st.ServerTick, st.Snapshots)
	if st.Lane == transport.LaneReliable {
		add(Plain, "lane reliable  HOL stalls %d", st.HOLStalls)
	} else {
		add(Plain, "lane datagram  snapshots lost %d", st.SnapshotsLost)
	}
	for _, n := range net {
		add(Dim, "%s", n)
	}

	add(Heading, "Local tank")
	l := g.Local()
	if l == nil {
		add(Warn, "waiting for the first snapshot")
	} else {
		c := l.Counters()
		pend := l.Pending()
		move := l.Baseline().Ack
		if len(pend) > 0 {
			move = pend[len(pend)-1].Tick
		}
		add(Plain, "move tick %d  acked %d  pending %d", move, st.LastAck, c.Pending)
		off := l.Offset()
		add(Plain, "correction %.3f u  residual %.3f u", math.Hypot(off.X, off.Y), c.LastResidual)
		add(Dim, "residual max %.3f u, nonzero %d times", c.MaxResidual, c.NonZeroResiduals)
		add(Dim, "corrections %d, folded %d, converged %d", c.CorrectionsStarted, c.CorrectionsFolded, c.CorrectionsConverged)
		add(Dim, "escalated %d  snaps %d  stale %d", c.CorrectionsEscalated, c.Snaps, c.StaleRejects)
	}

	add(Heading, "Remote tanks")
	rs := g.Remotes()
	if len(rs) == 0 {
		add(Dim, "none yet")
	} else {
		var delay time.Duration
		depthMin, depthMax, holds, frames, stale := math.MaxInt, 0, 0, 0, 0
		for _, id := range sortedIDs(rs) {
			c := rs[id].Interp.Counters()
			delay = max(delay, c.Delay)
			depthMin, depthMax = min(depthMin, c.Depth), max(depthMax, c.Depth)
			holds += c.Holds
			frames += c.Frames
			stale += c.StaleRejects
		}
		add(Plain, "%d remote  interp delay %s", len(rs), ms(delay))
		add(Plain, "buffer depth %d..%d  holds %d/%d", depthMin, depthMax, holds, frames)
		add(Dim, "stale snapshots %d", stale)
	}

	add(Heading, "Techniques")
	for _, s := range []struct {
		name string
		on   bool
	}{{"prediction", t.Prediction}, {"reconciliation", t.Reconciliation}, {"interpolation", t.Interpolation}} {
		style := Plain
		if !s.on {
			style = Warn
		}
		add(style, "%-15s %s", s.name, onOff(s.on))
	}
	return ls
}

// sortedIDs returns the remote ids in increasing order, so the HUD and the draw order do
// not flicker with map iteration.
func sortedIDs(rs map[uint32]*client.Remote) []uint32 {
	ids := make([]uint32, 0, len(rs))
	for id := range rs {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

// SortedRemotes returns g's remote tanks in increasing id order.
func SortedRemotes(g *client.Game) []*client.Remote {
	rs := g.Remotes()
	out := make([]*client.Remote, 0, len(rs))
	for _, id := range sortedIDs(rs) {
		out = append(out, rs[id])
	}
	return out
}

// ms formats d in whole milliseconds.
func ms(d time.Duration) string {
	return fmt.Sprintf("%d ms", d.Round(time.Millisecond).Milliseconds())
}

// Help returns the key help, one line each.
func Help() []Line {
	return []Line{
		{"Keys", Heading},
		{"W / Up       drive forward", Plain},
		{"S / Down     reverse", Plain},
		{"A / Left     turn left", Plain},
		{"D / Right    turn right", Plain},
		{"P            prediction on/off", Plain},
		{"R            reconciliation on/off", Plain},
		{"I            interpolation on/off", Plain},
		{"G            ghosts on/off", Plain},
		{"H            HUD and graph on/off", Plain},
		{"N / Shift+N  next / previous network preset", Plain},
		{"F1           this help", Plain},
		{"Esc          quit", Plain},
		{"Ghosts", Heading},
		{"outline      last server state (yours and others')", Dim},
		{"translucent  your predicted pose", Dim},
		{"solid        what is drawn under the switches", Dim},
	}
}
