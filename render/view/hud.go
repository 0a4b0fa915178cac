package view

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"tanknet/client"
	"tanknet/wire"
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
// remote tanks' interpolation state and the counters (the switches are TechniqueLines). net describes
// the network conditions, a line each, shown under the connection.
func HUD(g *client.Game, t Techniques, net []string) []Line {
	var ls hudLines
	st := g.Stats()
	ls.connection(g, st, net)
	ls.local(g, st)
	ls.remote(g)
	return ls
}

// hudLines is the HUD's text as it is written, a section at a time.
type hudLines []Line

// add adds a line in style s.
func (ls *hudLines) add(s Style, format string, args ...any) {
	*ls = append(*ls, Line{Text: fmt.Sprintf(format, args...), Style: s})
}

// connection adds the Connection section: who we are, the round trips, the lane, the
// network (net) and the input buffer.
func (ls *hudLines) connection(g *client.Game, st client.Stats, net []string) {
	w := g.Welcome()
	ls.add(Heading, "Connection")
	if w.Room != "" && w.Room != "default" { // the server's default room needs no name
		ls.add(Plain, "player #%d %s in room %s", w.PlayerID, g.Name(w.PlayerID), w.Room)
	} else {
		ls.add(Plain, "player #%d %s", w.PlayerID, g.Name(w.PlayerID))
	}
	rtt := "-"
	if st.RTTSamples > 0 {
		rtt = ms(st.RTT)
	}
	ls.add(Plain, "RTT %s ping, %s KCP", rtt, ms(g.SmoothedRTT()))
	ls.add(Dim, "ping: game message; KCP: transport")
	ls.add(Plain, "server tick %d  snapshots %d", st.ServerTick, st.Snapshots)
	if st.Lane == wire.LaneReliable {
		ls.add(Plain, "lane reliable  HOL stalls %d", st.HOLStalls)
	} else {
		ls.add(Plain, "lane datagram  snapshots lost %d", st.SnapshotsLost)
	}
	for _, n := range net {
		ls.add(Dim, "%s", n)
	}
	if g.InputOnArrival() {
		ls.add(Warn, "inputs on arrival (U): no buffer")
	} else {
		r := g.InputReport()
		rate, _ := g.Dilation()
		wait := "-"
		if w, ok := g.InputWait(); ok {
			wait = ms(w)
		}
		ls.add(Plain, "buffer %d, wait %s, clock %+.1f%%", r.Waiting, wait, rate*100) // wait: the 2 s median
	}
}

// local adds the Local tank section: its inputs, correction and counters.
func (ls *hudLines) local(g *client.Game, st client.Stats) {
	ls.add(Heading, "Local tank")
	l := g.Local()
	if l == nil {
		ls.add(Warn, "waiting for the first snapshot")
		return
	}
	c := l.Counters()
	pend := l.Pending()
	move := l.Baseline().Ack
	if len(pend) > 0 {
		move = pend[len(pend)-1].Tick
	}
	ls.add(Plain, "move tick %d  acked %d  pending %d", move, st.LastAck, c.Pending)
	off := l.Offset()
	ls.add(Plain, "correction %.3f u  residual %.3f u", math.Hypot(off.X, off.Y), c.LastResidual)
	ls.add(Dim, "residual max %.3f u  nonzero %d", c.MaxResidual, c.NonZeroResiduals)
	ls.add(Dim, "corrections %d, folded %d, converged %d", c.CorrectionsStarted, c.CorrectionsFolded, c.CorrectionsConverged)
	ls.add(Dim, "escalated %d  snaps %d  stale %d", c.CorrectionsEscalated, c.Snaps, c.StaleRejects)
}

// remote adds the Remote tanks section: their interpolation, over all of them.
func (ls *hudLines) remote(g *client.Game) {
	ls.add(Heading, "Remote tanks")
	rs := g.Remotes()
	if len(rs) == 0 {
		ls.add(Dim, "none yet")
		return
	}
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
	ls.add(Plain, "%d remote  interp delay %s", len(rs), ms(delay))
	ls.add(Plain, "buffer depth %d..%d  holds %d/%d", depthMin, depthMax, holds, frames)
	ls.add(Dim, "stale snapshots %d", stale)
}

// TechniqueLines are the HUD's first lines: every technique switch and whether it acts, short
// enough for the narrowest panel, so no layout ever drops them. lagComp is the L switch.
func TechniqueLines(t Techniques, lagComp bool) []Line {
	recon := onOff(t.Reconciliation)
	if t.Reconciliation && !t.Prediction {
		recon = "waits" // for prediction
	}
	style := func(acting ...bool) Style {
		for _, a := range acting {
			if !a {
				return Warn
			}
		}
		return Plain
	}
	return []Line{
		{"Techniques", Heading},
		{fmt.Sprintf("P prediction %-4s R reconciliation %s", onOff(t.Prediction), recon), style(t.Prediction, t.Reconciling())},
		{fmt.Sprintf("I interpolation %-3s L lag comp %s", onOff(t.Interpolation), onOff(lagComp)), style(t.Interpolation, lagComp)},
	}
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

// Help returns the key help, one line each; demo adds the three-pane window's keys.
func Help(demo bool) []Line {
	ls := []Line{{"Keys", Heading}}
	if demo {
		ls = append(ls,
			Line{"W A S D      drive the near player (left pane)", Plain},
			Line{"arrows       drive the far player (right pane)", Plain},
			Line{"P R I N L B U act on the pane under the mouse;", Plain},
			Line{"             over the server pane, on both", Dim},
			Line{"Space        near player fires; Enter: far player", Plain},
			Line{"+ / -        add / remove a bot", Plain},
			Line{"M / Shift+M  slow motion: 1/4, 1/8, real time", Plain},
			Line{"             (server, both players, links, bots)", Dim},
			Line{"C            tank contact: predicted, server, off", Plain},
			Line{"             (the room's mode, sent to every player)", Dim},
		)
	} else {
		ls = append(ls,
			Line{"W / Up       drive forward", Plain},
			Line{"S / Down     reverse", Plain},
			Line{"A / Left     turn left", Plain},
			Line{"D / Right    turn right", Plain},
			Line{"Space        fire (held: at the cooldown's pace)", Plain},
		)
	}
	return append(ls,
		Line{"P            prediction on/off", Plain},
		Line{"             (reconciliation waits while it is off)", Dim},
		Line{"R            reconciliation on/off", Plain},
		Line{"I            interpolation on/off", Plain},
		Line{"N / Shift+N  next / previous network preset", Plain},
		Line{"B            next remote tank on the timeline", Plain},
		Line{"Tab          scoreboard, while held", Plain},
		Line{"L            lag compensation for your shots on/off", Plain},
		Line{"U            server input buffer on/off (off: on arrival)", Plain},
		Line{"T            timeline strip on/off", Plain},
		Line{"G            ghosts on/off", Plain},
		Line{"H            HUD and graph on/off", Plain},
		Line{"E            every HUD line over the pane, on/off", Plain},
		Line{"O            the guided tour on/off (. next, , back)", Plain},
		Line{"F1           this help", Plain},
		Line{escQuit, Plain},
		Line{"Ghosts", Heading},
		Line{"outline      last server state (yours and others')", Dim},
		Line{"translucent  your predicted pose", Dim},
		Line{"solid        what is drawn under the switches", Dim},
		Line{"white        where the server judged your last hit", Dim},
		Line{"Timeline strip (last second, newest right)", Heading},
		Line{"snapshots    green came, red missing (lost or late)", Dim},
		Line{"remote       buffered states, bracket and render cursor;", Dim},
		Line{"             orange: held, nothing to slide to", Dim},
		Line{"local        inputs: grey acknowledged, blue pending;", Dim},
		Line{"             pink: corrected, red: snapped,", Dim},
		Line{"             yellow below: your input pushed your tank", Dim},
		Line{"             (a respawn is marked RESPAWNED, not snapped)", Dim},
	)
}

// escQuit is the help's line for Esc in a window that quits on it.
const escQuit = "Esc          quit"

// FitHelp returns the help lines cut to at most n for a short window: all of them when they
// fit, else the keys alone (the first section, without the legends of ghosts and strip),
// and in a very short window the keys without their secondary lines.
func FitHelp(lines []Line, n int) []Line {
	if len(lines) <= n {
		return lines
	}
	keys := lines
	for i, l := range lines {
		if i > 0 && l.Style == Heading {
			keys = lines[:i]
			break
		}
	}
	return FitLines(keys, n)
}

// DemoLegend is the text under the demo's server pane: what the three panes are and the
// keys, for a server with players in its newest tick, wrecks of them destroyed and bots of
// them the demo's own (-1: the demo cannot add bots, and the legend does not mention them).
func DemoLegend(players, bots, wrecks int) []Line {
	ls := []Line{
		{"Three views of one game", Heading},
		{"O guided tour  F1 every key  Esc quit", Plain}, // first: a short panel hides the last lines
		{"left    the near player: a good network", Plain},
		{fmt.Sprintf("middle  the server's truth: %d tanks, %d wrecked, 20 ticks/s", players, wrecks), Plain},
	}
	if bots >= 0 {
		ls = append(ls, Line{fmt.Sprintf("bots    %d playing  (+ adds one, - removes one)", bots), Plain})
	}
	return append(ls, []Line{
		{"right   the far player: a slow, lossy network", Plain},
		{"Each client draws its own tank at once", Dim},
		{"(prediction) and the others a little in the", Dim},
		{"past (interpolation): compare with the middle.", Dim},
		{"Keys", Heading},
		{"WASD near player   arrows far player", Plain},
		{"P R I N L B U: the pane under the mouse", Plain},
		{"(over this pane: both)", Dim},
		{"T strip  G ghosts  H HUD  E whole HUD", Plain},
		{"M slow motion (1/4, 1/8)  C tank contact", Plain},
	}...)
}

// FitPanel fits lines into a panel of rows lines of cols characters without losing any
// silently: a line longer than cols wraps (its continuation indented), and when the lines
// still do not fit, the Dim ones go first, then the last ones, and the last row says how
// many are hidden and which key shows them all.
func FitPanel(lines []Line, cols, rows int) []Line {
	if rows <= 0 || cols <= 0 {
		return nil
	}
	var wrapped []Line
	for _, l := range lines {
		for i, part := range wrapText(l.Text, cols) {
			if i > 0 {
				part = "  " + part
			}
			wrapped = append(wrapped, Line{part, l.Style})
		}
	}
	if len(wrapped) <= rows {
		return wrapped
	}
	kept := FitLines(wrapped, rows-1)
	hidden := len(wrapped) - len(kept)
	return append(kept, Line{fmt.Sprintf("+%d lines hidden: E shows all", hidden), Warn})
}

// wrapText breaks s into pieces of at most cols characters, at spaces where it can (the
// continuation loses two to its indent).
func wrapText(s string, cols int) []string {
	rs := []rune(s)
	if len(rs) <= cols {
		return []string{s}
	}
	var out []string
	width := cols
	for len(rs) > width {
		cut := width
		for i := width; i > width/2; i-- {
			if rs[i] == ' ' {
				cut = i
				break
			}
		}
		out = append(out, strings.TrimRight(string(rs[:cut]), " "))
		rs = []rune(strings.TrimLeft(string(rs[cut:]), " "))
		width = max(1, cols-2)
	}
	if len(rs) > 0 {
		out = append(out, string(rs))
	}
	return out
}

// FitLines returns lines cut to at most n: when they do not fit, the Dim (secondary) lines
// go first, then the last lines. It returns lines itself when they fit.
func FitLines(lines []Line, n int) []Line {
	if len(lines) <= n {
		return lines
	}
	out := make([]Line, 0, len(lines))
	for _, l := range lines {
		if l.Style != Dim {
			out = append(out, l)
		}
	}
	return out[:max(0, min(n, len(out)))]
}
