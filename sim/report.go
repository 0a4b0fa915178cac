package sim

import (
	"math"
	"time"

	"tanknet/client"
)

// Report is one run's result, printed as text (WriteText) or as JSON with the field names in
// the tags. Counts are totals over all bots; distances are world units; times carry their
// unit in the JSON name (_ms, _s) and in the doc; a null metric could not be measured (see
// notes). A new metric gets a doc comment with its unit and a snake_case JSON name.
type Report struct {
	Bots            int     `json:"bots"`       // bots that played at once
	DurationSeconds float64 `json:"duration_s"` // how long each bot played (s)
	Profile         string  `json:"profile"`    // network preset, or "custom"
	// Link is the conditioner under every bot's socket: "out" is bot to server, "in"
	// server to bot; latency and jitter are one-way.
	Link   string `json:"link"`
	Interp string `json:"interp"` // "receive" or "adaptive" (netcode.ServerTimeline)
	// Lane is where snapshots travelled: "datagram" or "reliable" (what the server's
	// Welcome said).
	Lane    string `json:"lane"`
	Contact string `json:"contact"` // "predicted", "server" or "off"; "" against an external server, which decides
	Seed    uint64 `json:"seed"`    // Config.Seed
	Server  string `json:"server"`  // "in-process" or the -server address
	// Transport is how the bots reached the server: "udp" (KCP over UDP), or "webrtc" (a
	// data channel each, through the -web page named by Web).
	Transport string `json:"transport"`
	Web       string `json:"web,omitempty"`
	// WindowSeconds is the measured span [from, to] in seconds since the run started:
	// every bot playing, the warm-up over. Remote, holds and RTT metrics come from it only.
	WindowSeconds [2]float64 `json:"window_s"`

	// Own-tank prediction over the whole run (netcode.LocalCounters).
	Reconciliations int     `json:"reconciliations"`
	ResidualNonZero int     `json:"residual_nonzero"` // reconciliations whose replay moved the prediction
	ResidualMax     float64 `json:"residual_max"`     // largest such move (world units)
	Corrections     int     `json:"corrections"`      // smoothed corrections started
	Snaps           int     `json:"snaps"`            // visible jumps
	// ResidualRatio is ResidualNonZero over Reconciliations (null before any), and
	// SnapsPerBotMinute the snaps of every bot over the bots' playing time: the figures
	// contact is judged by.
	ResidualRatio     *float64 `json:"residual_ratio"`
	SnapsPerBotMinute float64  `json:"snaps_per_bot_minute"`
	// ContactFigures is tank contact as the in-process server's ticks showed it: overlaps,
	// pushes (null against an external server).
	ContactFigures *ContactFigures `json:"contact_figures"`
	// Holds and StaleRejects are the interpolators' own counters over the whole run, all
	// remote tanks of all bots (StaleRejects adds the own tank's).
	Holds        int `json:"holds"`
	StaleRejects int `json:"stale_rejects"`

	// RemoteFrames is how many (bot frame, remote tank) pairs the window holds, counted
	// frame by frame even when the samples behind the other remote metrics are thinned.
	RemoteFrames int `json:"remote_frames"`
	// HoldsRatio is the share of RemoteFrames drawn with no bracketing pair of snapshots.
	HoldsRatio *float64 `json:"holds_ratio"`
	// RTT is the Ping/Pong round trip each bot measured, from send to receive, for the
	// pongs that arrived in the window (ms).
	RTT *Quantiles `json:"rtt_ms"`
	// InputToVisible is, for each change of a bot's input in the window, the time from the
	// frame whose Update first got it to the first frame whose drawn own tank moved with it
	// (netcode.Local.VisibleInput): 0 means the same frame shows it (ms).
	InputToVisible *Quantiles `json:"input_to_visible_ms"`
	// RemoteError is the distance between the drawn remote pose and the server's pose at
	// the drawn server tick (Interpolator.RenderTick), the history lerped between the two
	// ticks around it. A hold draws a real server state, so its error is zero; holds show
	// up as delay instead.
	RemoteError *ErrorSummary `json:"remote_error"`
	// RemotePlaybackError is the distance between the drawn remote pose and the server's
	// pose a steady remote_delay_ms.p50 behind the server's present: what uneven playback
	// and holds cost in position once the constant part of the delay is taken out.
	RemotePlaybackError *ErrorSummary `json:"remote_playback_error"`
	// RemoteDelay is how far behind the server's present the drawn remote pose is: server
	// time at the frame minus the server time of the drawn tick (ms).
	RemoteDelay *Quantiles `json:"remote_delay_ms"`
	// OneWayMillis is the profile's server-to-bot latency, before jitter (ms).
	OneWayMillis float64 `json:"one_way_ms"`
	// ConfiguredDelayMillis is the mean over measured frames of Interpolator.Delay(): for
	// receive exactly InterpConfig.Delay; for adaptive the delay the server timeline chose
	// behind its estimate of server time (MinDelay plus jitter allowance) (ms).
	ConfiguredDelayMillis *float64 `json:"configured_delay_ms"`
	// RemoteDelayRatio is remote_delay_ms.p50 / (one_way_ms + configured_delay_ms): 1 means
	// remote tanks are as old as latency plus interpolation delay promise, above 1 means
	// extra lag (retransmissions, processing, holds).
	RemoteDelayRatio *float64 `json:"remote_delay_ratio"`
	// RemoteUnmatched counts remote frames whose drawn tick had left the server history.
	RemoteUnmatched int `json:"remote_unmatched"`
	// BytesPerSecond is the mean over clients of their UDP payload rates (bytes/s), each
	// from the client's first frame to its last (see Rates).
	BytesPerSecond Rates `json:"bytes_per_s"`
	// ServerTick is the wall time of one server tick: simulate, contact, encode (ms).
	ServerTick *Quantiles `json:"server_tick_ms"`
	// InputLateTicks is how many ticks after its due time the server applied each MoveInput
	// in the window, rounded down. An input is due the shortest time after it was sent that
	// any input of the same bot took to be applied: the earliest this link ever delivered.
	// 0 means on time; jitter costs a tick or two, and a lost packet the datagram lane's
	// redundancy does not cover a retransmission's worth.
	InputLateTicks *Quantiles `json:"input_late_ticks"`
	// InputStarvedRatio is the share of player-ticks in the window in which the server had
	// no input waiting for a playing tank (its tank stood still for want of input).
	InputStarvedRatio *float64 `json:"input_starved_ratio"`
	// InputBuffer is "on" when the server applied each bot's inputs one per tick from its
	// input buffer, "off" when it applied them as they arrived (tanksim -input-buffer).
	InputBuffer string `json:"input_buffer"`
	// InputWait is how long each input applied in the window waited at the server, from its
	// first copy's arrival to the tick that applied it (ms).
	InputWait *Quantiles `json:"input_wait_ms"`
	// InputDoubleRatio is the share of player-ticks in the window that applied more than one
	// input: the lurch after a stand.
	InputDoubleRatio *float64 `json:"input_double_ratio"`
	// MotionUnevenRatio sees the stutter from outside, on the server's poses alone: of the
	// player-ticks in the window in which a tank moved (in that tick or the one before), the
	// share whose displacement differs from the tick before's by more than 30% of the
	// larger. A tank that stands for a tick or moves twice counts; steering does not.
	MotionUnevenRatio *float64 `json:"motion_uneven_ratio"`
	// Dilation is how fast each bot's prediction clock ran, over its frames in the window:
	// the median and 99th percentile of the rate offset and the largest offset either way
	// (%, + fast, - slow; 0 with the buffer off).
	Dilation *DilationSummary `json:"dilation"`
	// HOLStalls counts head-of-line stalls over the run, all bots: snapshot arrivals that
	// came as a burst of three or more within 10 ms after a gap above 1.5 ticks. Detected on
	// the reliable lane only; on the datagram lane a missing snapshot is a gap, never a
	// stall, and counts in SnapshotsLost instead.
	HOLStalls int `json:"hol_stalls"`
	// HOLStallMillis is the gap before each stall (ms), null without stalls.
	HOLStallMillis *Quantiles `json:"hol_stall_ms"`
	// SnapshotsLost counts server ticks of which a bot received no chunk at all, all bots,
	// over the run (each bot's last 0.5 s excepted: those could still have come).
	SnapshotsLost int `json:"snapshots_lost"`
	// AllocsPerTick is the heap allocations of one tick of a synthetic world with as many
	// players (server.TickAllocs), measured after the run when the process is quiet.
	AllocsPerTick *float64 `json:"allocs_per_tick"`
	// Arena is the in-process server's arena ("default" or "large"); "" for an external
	// server, which chooses its own.
	Arena string `json:"arena"`
	// BotFPS is each bot's frame rate (frames/s).
	BotFPS int `json:"bot_fps"`
	// SnapshotsRatioMin is the smallest, over bots, of snapshots received divided by the
	// server ticks that passed while the bot played (first frame to last).
	SnapshotsRatioMin *float64 `json:"snapshots_ratio_min"`
	// ServerCPUCores is the server process's CPU time per wall second over the window
	// (process_cpu_seconds_total from a separate tankserver's -metrics endpoint): 1.0 is one
	// core busy. Null for an in-process server, which shares its process with the bots.
	ServerCPUCores *float64 `json:"server_cpu_cores"`
	// BytesPerTank is the mean size of one tank's entry in a snapshot, over the window
	// (bytes), for tanks that moved in that tick and tanks that did not.
	BytesPerTank *TankBytes `json:"bytes_per_tank"`

	// Shots, with -fire. Shots counts Fires the bots sent; ClientHits those whose shooter
	// saw a hit on what it drew; Hits those the server judged a hit. HitAgreement is, over
	// the shots the server accepted, the share where its verdict equals the shooter's (both
	// missed, or both hit the same tank). ShotsRefused counts refusals by reason. RewindMs
	// is how far back the server judged lag-compensated shots (ms); Kills counts tanks
	// destroyed.
	Fire         bool           `json:"fire"`
	LagComp      bool           `json:"lagcomp"`
	Shots        int            `json:"shots"`
	Hits         int            `json:"hits"`
	ClientHits   int            `json:"client_hits"`
	HitAgreement *float64       `json:"hit_agreement"`
	ShotsRefused map[string]int `json:"shots_refused"`
	RewindMs     *Quantiles     `json:"rewind_ms"`
	Kills        int            `json:"kills"`

	// Rooms holds, for a run with -rooms, the same report for each room's bots alone, named
	// by Room, with RoomTick its own tick times; the top-level figures are the whole run's.
	Rooms []Report `json:"rooms,omitempty"`
	// Room names a room's report.
	Room string `json:"room,omitempty"`
	// RoomTick is the tick wall time of the run's rooms over the window (ms; a room's report:
	// that room's), estimated from the server's tick histogram of each room (buckets 0.05,
	// 0.1, 0.25, 0.5, 1, 2, 5, 10, 25, 50 ms; linear inside a bucket); its max is the upper
	// bound of the highest bucket reached. It reads an external server too.
	RoomTick *Quantiles `json:"room_tick_ms,omitempty"`
	// Groups holds, for a run with -group, the same report for each group's bots alone
	// (without their clients, which are listed above); the top-level figures are the whole
	// run's and its link is "per group".
	Groups []Report `json:"groups,omitempty"`

	Notes   []string       `json:"notes,omitempty"`
	Clients []ClientReport `json:"clients"`
}

// DilationSummary is the distribution of a clock's rate offset (%).
type DilationSummary struct {
	P50       float64 `json:"p50"`
	P99       float64 `json:"p99"`
	MaxAbsPct float64 `json:"max_abs_pct"`
}

// dilationSummary summarizes rate offsets, or returns nil when there are none.
func dilationSummary(xs []float64) *DilationSummary {
	q := quantiles(xs)
	if q == nil {
		return nil
	}
	s := &DilationSummary{P50: q.P50, P99: q.P99}
	for _, x := range xs {
		s.MaxAbsPct = max(s.MaxAbsPct, math.Abs(x))
	}
	return s
}

// TankBytes is what one tank's snapshot entry costs (bytes), moving or idle; null where no
// such entry was sent.
type TankBytes struct {
	Moving *float64 `json:"moving"`
	Idle   *float64 `json:"idle"`
}

// ClientReport is one bot's counters plus its traffic.
type ClientReport struct {
	client.Report
	BytesPerSecond Rates `json:"bytes_per_s"`
}

// Rates is traffic each way in UDP payload bytes per second while the bot played: bytes
// and time both from its first frame to its last, so neither the join nor the goodbye
// counts. Up is what the bot's KCP wrote and down what the server sent it, both counted
// before simulated loss, so retransmissions and acknowledgements are in and UDP/IP headers
// are not.
type Rates struct {
	Up   float64 `json:"up"`
	Down float64 `json:"down"`
}

// buildReport turns a run's measurements into its Report.
func buildReport(d *runData) Report {
	cpu, perTank := d.serverCosts() // first: it may add notes
	r := d.reportHeader()
	r.ServerCPUCores, r.BytesPerTank = cpu, perTank
	r.SnapshotsRatioMin = d.snapshotsRatioMin()
	if d.truth != nil {
		r.ContactFigures = d.truth.contactFigures(d.start.Add(d.windowStart), d.start.Add(d.windowEnd))
	}
	r.Dilation = dilationSummary(d.dilationInWindow())
	var s windowSamples
	for _, b := range d.bots {
		d.addBot(&r, &s, b)
	}
	d.summarize(&r, &s)
	if d.truth != nil {
		d.addInputFigures(&r)
		r.ServerTick = d.serverTick()
	}
	return r
}

// reportHeader is the Report with what the run was: its configuration, window and notes so
// far, before any bot's figures.
func (d *runData) reportHeader() Report {
	cfg := d.spec.cfg
	r := Report{
		Bots: cfg.Bots, DurationSeconds: cfg.Duration.Seconds(),
		Profile: d.spec.profile, Link: linkLabel(d.spec), Interp: d.spec.interp, Lane: d.spec.lane.String(),
		Contact: cfg.Contact.String(), Seed: cfg.Seed, Server: "in-process",
		WindowSeconds: [2]float64{d.windowStart.Seconds(), d.windowEnd.Seconds()},
		OneWayMillis:  millis(d.spec.cond.Inbound.Latency),
		AllocsPerTick: d.allocsPerTick,
		Notes:         d.notes,
		Arena:         cfg.Arena, BotFPS: cfg.BotFPS,
		Fire: cfg.Fire, LagComp: cfg.LagComp, ShotsRefused: map[string]int{},
		InputBuffer: cfg.InputBuffer,
	}
	if cfg.Server != "" {
		r.Server = cfg.Server
		r.Contact = ""
		r.Arena = ""
	}
	r.Transport, r.Web = "udp", cfg.Web
	if cfg.Web != "" {
		r.Transport = "webrtc"
	}
	return r
}

// dilationInWindow is every bot's clock dilation sampled in the window.
func (d *runData) dilationInWindow() []float64 {
	var dilation []float64
	for _, b := range d.bots {
		for _, s := range b.probe.dilation {
			if d.inWindow(s.at) {
				dilation = append(dilation, s.v)
			}
		}
	}
	return dilation
}

// windowSamples is what buildReport gathers from every bot before it summarizes: the
// samples in the window (milliseconds, or world units for errs) and the sums behind ratios.
type windowSamples struct {
	errs, delays, rtts, inputs, rewinds, stalls []float64

	judged, agreed int
	configured     float64 // sum over nConfigured samples
	nConfigured    int
	holds          int64
	sampled        bool // a probe kept a random subset of its frames
	inexact        bool // a probe's window edge fell among frames it no longer kept
}

// addBot adds one bot's counts to r, its client report to r.Clients and its samples to s.
func (d *runData) addBot(r *Report, s *windowSamples, b botRun) {
	c := b.report
	r.Reconciliations += c.Reconciliations
	r.ResidualNonZero += c.ResidualNonZero
	r.ResidualMax = max(r.ResidualMax, c.ResidualMax)
	r.Corrections += c.Corrections
	r.Snaps += c.Snaps
	r.Holds += c.Holds
	r.StaleRejects += c.StaleRejects
	r.Shots += c.Shots
	r.Hits += c.Hits
	r.ClientHits += c.ClientHits
	r.Kills += int(c.Kills)
	s.judged += c.ShotsJudged
	s.agreed += c.ShotsAgreed
	for k, n := range c.ShotsRefused {
		r.ShotsRefused[k] += n
	}
	s.rewinds = append(s.rewinds, c.RewindsMs...)
	r.HOLStalls += c.HOLStalls
	r.SnapshotsLost += c.SnapshotsLost
	s.stalls = append(s.stalls, c.HOLStallMillis...)
	if c.Lane != "" && d.spec.cfg.Server != "" {
		r.Lane = c.Lane // an external server chose
	}
	p := b.probe
	cr := ClientReport{Report: c, BytesPerSecond: p.rates()}
	r.BytesPerSecond.Up += cr.BytesPerSecond.Up / float64(len(d.bots))
	r.BytesPerSecond.Down += cr.BytesPerSecond.Down / float64(len(d.bots))
	r.Clients = append(r.Clients, cr)
	r.RemoteUnmatched += p.unmatched
	r.RemoteFrames += int(d.addProbe(s, p))
}

// addProbe adds what one bot's probe saw in the window to s, and returns how many remote
// tank frames it counted there.
func (d *runData) addProbe(s *windowSamples, p *probe) int64 {
	s.sampled = s.sampled || p.remote.sampled() || p.rtts.sampled()
	n, h, exact := p.counted.between(d.windowStart, d.windowEnd)
	s.holds += h
	s.inexact = s.inexact || !exact
	for _, x := range p.rtts.items {
		if d.inWindow(x.at) {
			s.rtts = append(s.rtts, millis(x.rtt))
		}
	}
	for _, x := range p.inputs.items {
		if d.inWindow(x.at) {
			s.inputs = append(s.inputs, millis(x.latency))
		}
	}
	for _, x := range p.remote.items {
		if !d.inWindow(x.at) {
			continue
		}
		s.configured += millis(x.configured)
		s.nConfigured++
		if !math.IsNaN(x.err) {
			s.errs = append(s.errs, x.err)
			s.delays = append(s.delays, millis(x.delay))
		}
	}
	return n
}

// summarize turns every bot's sums and samples into r's ratios, quantiles and notes.
func (d *runData) summarize(r *Report, s *windowSamples) {
	if r.Reconciliations > 0 {
		r.ResidualRatio = ptr(float64(r.ResidualNonZero) / float64(r.Reconciliations))
	}
	if botMinutes := float64(len(d.bots)) * d.spec.cfg.Duration.Minutes(); botMinutes > 0 {
		r.SnapsPerBotMinute = float64(r.Snaps) / botMinutes
	}
	if s.sampled {
		r.Notes = append(r.Notes, "long run: remote and RTT metrics come from a uniform random subset of frames; remote_frames and holds_ratio count every frame")
	}
	if s.inexact {
		r.Notes = append(r.Notes, "remote_frames and holds_ratio are approximate: a bot's window edge fell among frames it no longer kept")
	}
	if s.nConfigured > 0 {
		r.ConfiguredDelayMillis = ptr(s.configured / float64(s.nConfigured))
	}
	if r.RemoteFrames > 0 {
		r.HoldsRatio = ptr(float64(s.holds) / float64(r.RemoteFrames))
	} else {
		r.Notes = append(r.Notes, "no remote tank frames measured: holds_ratio and remote metrics need at least 2 bots")
	}
	if s.judged > 0 {
		r.HitAgreement = ptr(float64(s.agreed) / float64(s.judged))
	}
	r.RewindMs = quantiles(s.rewinds)
	r.RTT = quantiles(s.rtts)
	r.InputToVisible = quantiles(s.inputs)
	r.RemoteError = errorSummary(s.errs)
	r.RemoteDelay = quantiles(s.delays)
	if r.RemoteDelay != nil && r.ConfiguredDelayMillis != nil && len(d.spec.groups) == 0 { // groups: each has its own one-way
		if want := r.OneWayMillis + *r.ConfiguredDelayMillis; want > 0 {
			r.RemoteDelayRatio = ptr(r.RemoteDelay.P50 / want)
		}
	}
	if r.RemoteDelay != nil && d.truth != nil {
		r.RemotePlaybackError = playbackError(d, r.RemoteDelay.P50)
	}
	r.HOLStallMillis = quantiles(s.stalls)
}

// addInputFigures adds to r how the in-process server's buffer treated this report's
// bots' inputs in the window (needs d.truth).
func (d *runData) addInputFigures(r *Report) {
	start, ok := d.truth.wallOffset()
	if !ok {
		return
	}
	inWindow := func(now time.Duration) bool { return d.inWindow(start.Add(now).Sub(d.start)) }
	sent := map[uint32]map[uint32]time.Duration{} // player id -> move tick -> server time sent
	full := false                                 // a bot stopped recording send times (maxSentInputs)
	for _, b := range d.bots {
		sent[b.report.PlayerID] = b.probe.sent
		full = full || len(b.probe.sent) >= maxSentInputs
	}
	sentAt := func(player, moveTick uint32) (time.Duration, bool) {
		t, ok := sent[player][moveTick]
		return t, ok
	}
	// The figures of this report's bots (a group's, or all of them) in the window.
	in := func(now time.Duration, player uint32) bool {
		_, ours := sent[player]
		return ours && inWindow(now)
	}
	m, truncated := d.truth.inputMetrics(in, sentAt)
	r.InputLateTicks, r.InputStarvedRatio = quantiles(m.late), m.starved
	r.InputWait, r.InputDoubleRatio, r.MotionUnevenRatio = quantiles(m.waits), m.doubles, m.uneven
	if truncated || full {
		r.Notes = append(r.Notes, "long run: input_late_ticks covers only the first inputs recorded")
	}
}

// serverTick is the in-process server's tick durations (needs d.truth): this report's
// room's.
func (d *runData) serverTick() *Quantiles {
	var ticks []float64
	room := d.room // a room's report: its own; a run in one room: that room's, not the idle default's
	if room == "" && d.spec.cfg.Rooms <= 1 {
		room = d.spec.cfg.roomNames()[0]
	}
	for _, t := range d.truth.tickDurations(room) {
		ticks = append(ticks, millis(t))
	}
	return quantiles(ticks)
}

// playbackError summarizes eachPlaybackError.
func playbackError(d *runData, delayMillis float64) *ErrorSummary {
	var errs []float64
	eachPlaybackError(d, delayMillis, func(_ time.Duration, v float64) { errs = append(errs, v) })
	return errorSummary(errs)
}

// timedValue is one measurement at a time since the run started.
type timedValue struct {
	at time.Duration
	v  float64
}

// eachPlaybackError compares every measured remote frame with the server's pose a steady
// delayMillis behind the server's present at that frame, and calls f with the frame's
// time and the distance. Without ground truth it does nothing.
func eachPlaybackError(d *runData, delayMillis float64, f func(at time.Duration, v float64)) {
	if d.truth == nil {
		return
	}
	delay := time.Duration(delayMillis * float64(time.Millisecond))
	for _, b := range d.bots {
		for _, s := range b.probe.remote.items {
			if !d.inWindow(s.at) || math.IsNaN(s.err) {
				continue
			}
			ft, ok := d.truth.tickAt(s.id, s.serverNow-delay)
			if !ok {
				continue
			}
			if truth, _, ok := d.truth.at(s.id, ft); ok {
				f(s.at, s.pose.Distance(truth))
			}
		}
	}
}

func millis(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func ptr[T any](v T) *T { return &v }
