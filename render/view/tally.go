package view

import (
	"fmt"

	"tanknet/client"
)

// ShotTally counts a player's judged shots over a stretch of play, split by whether they
// asked for lag compensation: the tour's lag compensation scene shows it.
type ShotTally struct {
	OnJudged, OnHits   int // shots with lag compensation the server judged, and its hits
	OffJudged, OffHits int // and without
}

// TallyShots returns the shots judged between two readings of a Game's ShotStats.
func TallyShots(before, now client.ShotStats) ShotTally {
	on, onHits := now.LagCompJudged-before.LagCompJudged, now.LagCompHits-before.LagCompHits
	all, hits := now.Judged-before.Judged, now.Hits-before.Hits
	return ShotTally{OnJudged: on, OnHits: onHits, OffJudged: all - on, OffHits: hits - onHits}
}

// TallyLines are the tally for a panel, with which setting is in force now.
func TallyLines(t ShotTally, lagCompNow bool) []Line {
	row := func(judged, hits int) string {
		return fmt.Sprintf("%d shots: %d hits, %d misses", judged, hits, judged-hits)
	}
	now := "L is OFF now"
	if lagCompNow {
		now = "L is ON now"
	}
	return []Line{
		{Text: "L on  (server rewinds): " + row(t.OnJudged, t.OnHits), Style: Plain},
		{Text: "L off (no rewind):      " + row(t.OffJudged, t.OffHits), Style: Warn},
		{Text: now, Style: Plain},
	}
}

// TrailLines are the tick trail's figure for a panel: the share of the followed tank's
// moving ticks that moved unevenly since the scene began.
func TrailLines(t *TickTrail) []Line {
	r, ok := t.Ratio()
	if !ok {
		return []Line{{Text: "Uneven ticks: waiting for the far player to move", Style: Plain}}
	}
	style := Plain
	if r >= 0.1 {
		style = Warn
	}
	return []Line{
		{Text: fmt.Sprintf("Uneven ticks (motion_uneven_ratio): %.0f%% of %d moving", 100*r, t.Moving), Style: style},
		{Text: "Dots: the far player at each server tick; bars under the arena: how far it moved in each. Orange: uneven", Style: Plain},
	}
}
