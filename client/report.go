package client

import (
	"time"

	"tanknet/netcode"
)

// Report is a bot's summary, as tanksim prints it.
type Report struct {
	PlayerID uint32 `json:"player_id"`
	Room     string `json:"room,omitempty"` // the room the server seated the player in
	// RecordError is why the bot's recording stopped early (BotConfig.Record), if it did.
	RecordError string `json:"record_error,omitempty"`
	Name        string `json:"name"`
	InputsSent  int    `json:"inputs_sent"`
	Snapshots   int    `json:"snapshots"`
	LastAck     uint32 `json:"last_ack"`
	PlayersSeen int    `json:"players_seen"`

	Reconciliations  int     `json:"reconciliations"`
	ReplayedSubsteps int     `json:"replayed_substeps"`
	ResidualNonZero  int     `json:"residual_nonzero"`
	ResidualMax      float64 `json:"residual_max"`
	Corrections      int     `json:"corrections"`
	CorrectionsFold  int     `json:"corrections_folded"`
	Converged        int     `json:"corrections_converged"`
	Escalated        int     `json:"corrections_escalated"`
	Snaps            int     `json:"snaps"`
	// PendingDropped counts unacknowledged inputs forgotten because the client kept too
	// many (netcode.LocalConfig.MaxPending); the server may still apply them, and then
	// the replay misses them. It should be 0.
	PendingDropped int     `json:"pending_dropped"`
	StaleRejects   int     `json:"stale_rejects"`
	Holds          int     `json:"holds"`
	InterpFrames   int     `json:"interp_frames"`
	RTTMillis      float64 `json:"rtt_ms"` // the newest round trip
	// RTTMedianMillis is the median round trip of the session (its newest 4,096 Pongs).
	RTTMedianMillis float64 `json:"rtt_p50_ms"`

	Lane          string `json:"lane"`
	Chunks        int    `json:"chunks"`
	SnapshotsLost int    `json:"snapshots_lost"`
	UnknownStates int    `json:"unknown_states"`
	HOLStalls     int    `json:"hol_stalls"`
	BadDatagrams  uint64 `json:"bad_datagrams"`
	// Interest management and delta snapshots (Stats.LeftView, Reentered, DeltaUnusable).
	LeftView      int `json:"left_view"`
	Reentered     int `json:"reentered"`
	DeltaUnusable int `json:"delta_unusable"`
	// Shots (client.ShotStats) and the score in our newest state.
	Shots            int            `json:"shots"`
	ClientHits       int            `json:"client_hits"`
	ShotsJudged      int            `json:"shots_judged"`
	Hits             int            `json:"hits"`
	ShotsAgreed      int            `json:"shots_agreed"`
	SawHitServerMiss int            `json:"saw_hit_server_miss"`
	ShotsRefused     map[string]int `json:"shots_refused,omitempty"`
	Kills            uint32         `json:"kills"`
	Deaths           uint32         `json:"deaths"`
	// RewindsMs is the server's rewind of each lag-compensated judged shot (ms).
	RewindsMs []float64 `json:"-"`
	// HOLStallMillis is the gap before each head-of-line stall (Game.HOLStallDurations),
	// in ms, for tanksim's quantiles; not in the JSON.
	HOLStallMillis []float64 `json:"-"`
}

// Report summarises the Game's counters so far.
func (g *Game) Report() Report {
	st := g.Stats()
	r := Report{
		PlayerID:    g.welcome.PlayerID,
		Room:        g.welcome.Room,
		Name:        g.Name(g.welcome.PlayerID),
		InputsSent:  st.InputsSent,
		Snapshots:   st.Snapshots,
		LastAck:     st.LastAck,
		PlayersSeen: st.PlayersSeen,
		RTTMillis:   float64(st.RTT.Microseconds()) / 1000,
	}
	r.RTTMedianMillis = float64(g.stats.rttMedian().Microseconds()) / 1000
	r.Lane, r.Chunks, r.SnapshotsLost = st.Lane.String(), st.Chunks, st.SnapshotsLost
	r.UnknownStates, r.HOLStalls = st.UnknownStates, st.HOLStalls
	r.LeftView, r.Reentered, r.DeltaUnusable = st.LeftView, st.Reentered, st.DeltaUnusable
	r.BadDatagrams, _ = g.DatagramStats()
	for _, d := range g.HOLStallDurations() {
		r.HOLStallMillis = append(r.HOLStallMillis, float64(d)/float64(time.Millisecond))
	}
	if g.pred.local != nil {
		r.addLocal(g.pred.local.Counters())
	}
	g.others.counters(func(c netcode.InterpCounters) {
		r.StaleRejects += c.StaleRejects
		r.Holds += c.Holds
		r.InterpFrames += c.Frames
	})
	s := g.combat.shots
	r.Shots, r.ClientHits, r.ShotsJudged, r.Hits = s.Fired, s.ClientHits, s.Judged, s.Hits
	r.ShotsAgreed, r.SawHitServerMiss, r.ShotsRefused = s.Agreed, s.SawHitServerMiss, s.Refused
	r.Kills, r.Deaths = g.combat.own.Kills, g.combat.own.Deaths
	r.RewindsMs = append([]float64(nil), g.combat.rewinds...)
	return r
}

// addLocal copies our own tank's prediction counters into r.
func (r *Report) addLocal(c netcode.LocalCounters) {
	r.Reconciliations = c.Reconciliations
	r.ReplayedSubsteps = c.ReplayedSubsteps
	r.ResidualNonZero = c.NonZeroResiduals
	r.ResidualMax = c.MaxResidual
	r.Corrections = c.CorrectionsStarted
	r.CorrectionsFold = c.CorrectionsFolded
	r.Converged = c.CorrectionsConverged
	r.Escalated = c.CorrectionsEscalated
	r.Snaps = c.Snaps
	r.PendingDropped = c.PendingDropped
	r.StaleRejects = c.StaleRejects
}
