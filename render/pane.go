package render

import (
	"image"
	"math"
	"slices"
	"time"

	"tanknet/client"
	"tanknet/linksim"
	"tanknet/netcode"
	"tanknet/render/view"
)

// eventMemory is how many recent holds, corrections and snaps a pane keeps for its timeline
// strip: more than a second's worth of each at 60 frames per second.
const eventMemory = 64

// clientPane is one client in the window: its session's game, the technique switches that
// choose what is drawn of it, and what its HUD, graph and timeline strip remember.
type clientPane struct {
	role string // "" in the single window; the demo's "near player" or "far player"
	// reportName names the pane in a frame report: "near", "far" or "player".
	reportName string
	game       *client.Game
	// runner advances a live pane's game between frames (client.Runner): the window holds its
	// lock while it drives or draws the pane. nil for a replay, which only the frames drive.
	runner *client.Runner
	pilot  *autopilot  // decides the input before each Update when Options.Bot drives the tank
	away   *AwaySwitch // the page's hidden or frozen tab (Options.Away); nil in a window
	tech   view.Techniques
	input  netcode.Input

	lagComp bool // this player's shots ask for lag compensation (key L)
	firing  bool // its fire key is held
	gunner  bool // it aims and fires by itself (Options.Gunner)
	// recorded is set when a recording drives the pane: it says what the client asked for,
	// so U does not switch it and the HUD shows no banner for it.
	recorded bool
	// contactKey is set when C switches the room's contact mode (the live demo): the HUD says so.
	contactKey bool

	shadow  view.Unreconciled
	history view.History
	net     *Network
	netBase linksim.Conditions // what the network preset adds at real time (net.Conn has it slowed: demo.go)
	slow    int                // the window's slow motion factor, 1 at real time
	netErr  error              // the last failed preset switch

	selected uint32 // remote tank the strip follows; 0 means the lowest id
	events   timelineEvents
	contact  paneContact // what contact did to this client under the room's mode (contact.go)

	hudText textLayer
	allText textLayer // the whole HUD over the pane, while E is on
	// hudLinesAll and hudHidden say how the HUD fitted its panel at the last refresh: the
	// lines it has (wrapped), and how many of them the panel hides and counts.
	hudLinesAll, hudHidden int
	hudLines               []view.Line // the HUD text, read every hudRefresh
	legend                 graphLegend // the graph's legend and scales, read with it
	hudAt                  time.Time
	titleText              textLayer
	hudRect                image.Rectangle // where the HUD panel was last drawn
	scratch                []view.Point
	strip                  view.TimelineState
	ticks                  []client.TickArrival
	marks                  []view.Mark
	// waits are the server's reports of how long this client's inputs waited in its buffer,
	// one per server tick, kept while a -frame-report run times its frames.
	waits      client.WaitLog
	resyncBase int // the clock's resyncs when the first was kept
}

// noteWait keeps the newest input report's wait, once per server tick.
func (p *clientPane) noteWait() {
	if p.waits.Note(p.game) && len(p.waits.Waits()) == 1 {
		_, p.resyncBase = p.game.Dilation()
	}
}

// timelineEvents remembers where recent holds, corrections and snaps happened.
type timelineEvents struct {
	holds              []float64 // server ticks (fractional) the selected remote was held at
	corrections, snaps []uint32  // acknowledged move ticks of the reconciliations
	started, snapped   int       // the local counters last seen
	// destroyed is whether our tank was a wreck at the last frame; respawnedAt is the game
	// time it last came back (0: never). The server places a respawned tank anew, which the
	// netcode snaps to: that snap is marked as the respawn it is, not as a snap.
	destroyed   bool
	respawnedAt time.Duration
	respawns    int
}

// respawnBanner is how long a respawn stays marked over its pane, in game time.
const respawnBanner = 2 * time.Second

// newClientPane is a pane on a live session's link, called reportName in a frame report.
func newClientPane(role, reportName string, link client.Link, opts Options, net *Network, now time.Time) *clientPane {
	p := &clientPane{role: role, reportName: reportName, game: client.NewGame(link, opts.Game, now), tech: opts.Techniques, net: net,
		lagComp: true, gunner: opts.Gunner, slow: 1}
	if net != nil {
		p.netBase = net.Conn.Conditions()
	}
	return p
}

// aim asks for a shot when the fire key is held, and as a gunner also steers toward the
// nearest tank drawn, drives at it until a shot would hit, and fires.
func (p *clientPane) aim() {
	if p.gunner {
		if a := p.game.Aim(); a.TargetID != 0 {
			p.input.Turn = a.Turn
			if a.Aligned {
				p.game.Fire(p.lagComp)
			} else {
				p.input.Throttle = max(p.input.Throttle, 1)
			}
		}
	}
	if p.firing {
		p.game.Fire(p.lagComp)
	}
}

// update runs the pane's game one Update with its input, from a frame or from its runner;
// it returns the session's end.
func (p *clientPane) update(now time.Time, a *netcode.Arena) error {
	if err := p.syncAway(); err != nil {
		return err
	}
	if p.pilot != nil {
		p.input = p.pilot.decide(p.game)
	}
	p.aim()
	if err := p.game.Update(now, p.input); err != nil {
		return err
	}
	p.observe(a)
	return nil
}

// observe records what the last Update changed for the shadow, the graph and the strip.
func (p *clientPane) observe(a *netcode.Arena) {
	if rm := p.selectedRemote(); rm != nil && !rm.Bracketed {
		p.events.holds = remember(p.events.holds, rm.Interp.View().Tick())
	}
	l := p.game.Local()
	if l == nil {
		return
	}
	p.shadow.Observe(a, l, p.input)
	respawned := p.events.destroyed && !p.game.Own().Destroyed
	p.events.destroyed = p.game.Own().Destroyed
	if respawned {
		p.events.respawnedAt = p.game.Now()
		p.events.respawns++
	}
	c := l.Counters()
	p.contact.observe(p.game.Rules().Contact, l)
	if n := c.CorrectionsStarted + c.CorrectionsFolded; n > p.events.started {
		p.events.started = n
		p.events.corrections = remember(p.events.corrections, l.Baseline().Ack)
	}
	if c.Snaps > p.events.snapped {
		p.events.snapped = c.Snaps
		if !respawned { // the respawn's placement, marked by its banner instead
			p.events.snaps = remember(p.events.snaps, l.Baseline().Ack)
		}
	}
	if p.game.Stats().RTTSamples == 0 {
		return // a graph starting at a made-up zero round trip would mislead
	}
	off := l.Offset()
	p.history.Add(view.Sample{At: p.game.Now(), RTT: p.game.Stats().RTT, Correction: math.Hypot(off.X, off.Y)})
}

// remember appends v to a list kept to the newest eventMemory values.
func remember[T any](list []T, v T) []T {
	if len(list) == eventMemory {
		list = list[:copy(list, list[1:])]
	}
	return append(list, v)
}

// selectedRemote returns the remote tank the strip follows: the selected one while it plays,
// else the one with the lowest id; nil when there is none.
func (p *clientPane) selectedRemote() *client.Remote {
	rs := p.game.Remotes()
	if rm := rs[p.selected]; rm != nil {
		return rm
	}
	var best *client.Remote
	for _, rm := range rs {
		if best == nil || rm.ID < best.ID {
			best = rm
		}
	}
	return best
}

// selectNext makes the strip follow the remote tank after the current one, by id.
func (p *clientPane) selectNext() {
	ids := make([]uint32, 0, len(p.game.Remotes()))
	for id := range p.game.Remotes() {
		ids = append(ids, id)
	}
	if len(ids) == 0 {
		return
	}
	slices.Sort(ids)
	cur := uint32(0)
	if rm := p.selectedRemote(); rm != nil {
		cur = rm.ID
	}
	i, _ := slices.BinarySearch(ids, cur+1)
	p.selected = ids[i%len(ids)]
}

// timeline reads the pane's client into the strip's state.
func (p *clientPane) timeline() *view.TimelineState {
	s := &p.strip
	p.ticks, s.NewestTick = p.game.SnapshotArrivals(p.ticks[:0], view.TimelineTicks)
	s.Arrivals = s.Arrivals[:0]
	for _, t := range p.ticks {
		a := view.ArrivalUnknown
		switch t {
		case client.TickMissing:
			a = view.ArrivalMissing
		case client.TickPartial:
			a = view.ArrivalPartial
		case client.TickComplete:
			a = view.ArrivalComplete
		}
		s.Arrivals = append(s.Arrivals, a)
	}
	s.HasRemote = false
	if rm := p.selectedRemote(); rm != nil {
		s.HasRemote = true
		s.Buffered = rm.Interp.BufferedTicks(s.Buffered[:0])
		s.View = rm.Interp.View()
		s.Holds = p.events.holds
	}
	s.HasLocal = false
	if l := p.game.Local(); l != nil {
		s.HasLocal = true
		s.MoveTick = l.Baseline().Ack
		if pend := l.Pending(); len(pend) > 0 {
			s.MoveTick = pend[len(pend)-1].Tick
		}
		s.Acked = l.Baseline().Ack
		s.Corrections, s.Snaps = p.events.corrections, p.events.snaps
		s.Pushes = p.contact.pushes
	}
	return s
}

// netLines describe the pane's link conditioner for the HUD.
func (p *clientPane) netLines() []string {
	if p.net == nil {
		if n := p.game.Network(); n != "" {
			return []string{n} // a replay: as the recorded window described it
		}
		return []string{"network conditioning unavailable"}
	}
	c := p.netBase
	switch {
	case c == (linksim.Conditions{}):
		return []string{"network " + p.net.Preset + ": nothing added"}
	case c.Outbound == c.Inbound:
		if line := p.net.Preset + " each way: " + c.Outbound.String(); len(line) <= hudColumns {
			return []string{line}
		}
		return []string{"network " + p.net.Preset + ", each way:", "  " + c.Outbound.String()}
	}
	return []string{"network " + p.net.Preset + ":", "  up   " + c.Outbound.String(), "  down " + c.Inbound.String()}
}

// title is a demo pane's title line: who it is, and over which network.
func (p *clientPane) title() string {
	return p.role + " — " + p.netTitle()
}

// midTitle is a pane title for a pane too narrow for title: the preset's name and, in
// brief, what it adds (view.BriefConditions), so every preset shows its figures.
func (p *clientPane) midTitle() string {
	if p.net == nil {
		return p.shortTitle()
	}
	return p.role + " — " + p.net.Preset + ": " + view.BriefConditions(p.netBase)
}

// shortTitle is a pane title for a narrow pane: who it is and the preset's name.
func (p *clientPane) shortTitle() string {
	if p.net == nil {
		return p.role
	}
	return p.role + " — " + p.net.Preset
}

// hudColumns is how many characters a HUD line holds beside the graph (PanelTextWidth): a
// longer one wraps, and a HUD of wrapped lines hides its details sooner.
const hudColumns = 40

// netTitle is the pane's network in a few words, for its title.
func (p *clientPane) netTitle() string {
	if p.net == nil {
		if n := p.game.Network(); n != "" {
			return n // a replay: as the recorded window described it
		}
		return "network unknown"
	}
	return linksim.Describe(p.net.Preset, p.netBase)
}

// cyclePreset switches the link conditioner to the next (step 1) or previous (-1) preset.
func (p *clientPane) cyclePreset(step int) {
	if p.net == nil {
		return
	}
	p.setPreset(view.CyclePreset(linksim.PresetNames(), p.net.Preset, step))
}

// setPreset switches the link conditioner to the preset called name.
func (p *clientPane) setPreset(name string) {
	if p.net == nil || name == p.net.Preset {
		return
	}
	c, err := linksim.Preset(name)
	if err == nil {
		err = p.net.Conn.SetConditions(view.SlowConditions(c, p.slow))
	}
	p.netErr = err
	if err == nil {
		p.net.Preset, p.netBase = name, c
		p.noteNetwork()
	}
}

// setSlow runs the pane's link factor times slower (view.SlowConditions), as the rest of
// the demo.
func (p *clientPane) setSlow(factor int) {
	p.slow = factor
	if p.net != nil {
		p.netErr = p.net.Conn.SetConditions(view.SlowConditions(p.netBase, factor))
	}
}

// noteNetwork tells the pane's game how its link is described now, for its recording.
func (p *clientPane) noteNetwork() {
	if p.net != nil {
		p.game.NoteNetwork(p.netTitle())
	}
}
