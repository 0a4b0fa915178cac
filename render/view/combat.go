package view

import (
	"cmp"
	"fmt"
	"image/color"
	"slices"
	"time"

	"tanknet/client"
	"tanknet/netcode"
	"tanknet/wire"
)

// Colours of combat marks, opaque so screenshots can find them.
var (
	TracerColor  = color.RGBA{0xff, 0xf2, 0xa8, 0xff} // a shell's path: pale yellow, unlike any tank
	FlashColor   = color.RGBA{0xff, 0xff, 0xff, 0xff} // the muzzle flash
	HitMark      = color.RGBA{0xff, 0x30, 0x30, 0xff} // a hit the server confirmed
	MissMark     = color.RGBA{0xc8, 0xc8, 0xc8, 0xff} // a shot the server called a miss
	RewoundGhost = color.RGBA{0xff, 0xff, 0xff, 0xff} // the server's rewound target pose
	HealthGood   = color.RGBA{0x40, 0xe0, 0x60, 0xff}
	HealthLow    = color.RGBA{0xff, 0x50, 0x40, 0xff}
	HealthBack   = color.RGBA{0x20, 0x20, 0x20, 0xff}
	WreckColor   = color.RGBA{0x55, 0x55, 0x55, 0xff} // a destroyed tank
)

// Timings of combat marks.
const (
	FlashTime  = 100 * time.Millisecond  // a muzzle flash: six frames, long enough to see
	MarkerTime = 1500 * time.Millisecond // a hit or miss marker stays this long after the answer
)

// TracerAlpha returns how opaque a tracer age old is: 1 when fired, fading linearly to 0
// at life.
func TracerAlpha(age, life time.Duration) float64 {
	if age < 0 || life <= 0 || age >= life {
		return 0
	}
	return 1 - float64(age)/float64(life)
}

// HealthBar returns the filled share of a health bar and its colour; ok is false when no
// bar should be drawn (destroyed, or no rules yet).
func HealthBar(c wire.Combat, rules netcode.Rules) (share float64, clr color.RGBA, ok bool) {
	if c.Destroyed || rules.MaxHealth == 0 {
		return 0, HealthBack, false
	}
	share = min(1, float64(c.Health)/float64(rules.MaxHealth))
	if share <= 0.5 {
		return share, HealthLow, true
	}
	return share, HealthGood, true
}

// ShotMarks is what to draw for our newest shot: where its shell stopped, whether the server
// confirmed it, and (lag compensation shown) the target as we drew it and as the server
// rewound it.
type ShotMarks struct {
	Show bool
	// EndX, EndY is where the marker goes: the server's end point once it answered, our
	// predicted one before.
	EndX, EndY float64
	Answered   bool // the server's ShotResult has arrived
	Confirmed  bool // it says hit
	SawHit     bool // we saw a hit when we fired
	// Aimed is the tank we hit as we drew it when we fired (valid when SawHit); Rewound is
	// the pose the server tested its hit against (valid when HasGhost): with lag
	// compensation the same pose, without it where the tank was on the server.
	Aimed, Rewound netcode.Pose
	HasGhost       bool
}

// LastShotMarks decides the marks for g's newest shot at local time now: shown from the
// moment it is fired until MarkerTime after its answer (or after firing, if no answer
// comes).
func LastShotMarks(g *client.Game, now time.Duration) ShotMarks {
	s, ok := g.LastShot()
	if !ok || now-s.At > MarkerTime+time.Second {
		return ShotMarks{}
	}
	m := ShotMarks{Show: true, EndX: s.Trace.EndX, EndY: s.Trace.EndY, SawHit: s.Trace.Hit, Aimed: s.Aimed}
	if s.Result == nil {
		return m
	}
	if s.Result.Verdict == netcode.VerdictRefused {
		return ShotMarks{}
	}
	m.Answered = true
	m.EndX, m.EndY = s.Result.EndX, s.Result.EndY
	m.Confirmed = s.Result.Verdict == netcode.VerdictHit
	if p, ok := s.ServerTarget(); ok {
		m.Rewound, m.HasGhost = p, true
	}
	return m
}

// CombatLines returns the HUD section on shooting: health and score, shots, hits the server
// confirmed, shots we saw hit that the server called a miss, refusals, and whether our shots
// ask for lag compensation.
func CombatLines(g *client.Game, lagComp bool) []Line {
	var ls []Line
	add := func(s Style, format string, args ...any) {
		ls = append(ls, Line{Text: fmt.Sprintf(format, args...), Style: s})
	}
	own, rules, st := g.Own(), g.Rules(), g.ShotStats()
	add(Heading, "Combat")
	if own.Destroyed {
		add(Warn, "destroyed: respawn in %.1f s", RespawnIn(g).Seconds())
	} else {
		add(Plain, "health %d/%d  kills %d  deaths %d", own.Health, rules.MaxHealth, own.Kills, own.Deaths)
	}
	if own.SpawnProtected {
		add(Dim, "spawn protected")
	}
	lc := Plain
	state := "on"
	if !lagComp {
		lc, state = Warn, "OFF"
	}
	add(lc, "lag compensation %s (L)", state)
	add(Plain, "shots %d  hits confirmed %d", st.Fired, st.Hits)
	disagree := Plain
	if st.SawHitServerMiss > 0 {
		disagree = Warn
	}
	add(disagree, "saw a hit, server said miss: %d", st.SawHitServerMiss)
	if st.SawHitMoved > 0 {
		// On a perfect link with lag compensation this is the only cause: the shell left
		// from where the server had our tank, not where we predicted it.
		add(Warn, "  %d of them: the server had your tank elsewhere (pushed by a tank)", st.SawHitMoved)
	}
	refused := 0
	for _, n := range st.Refused {
		refused += n
	}
	add(Dim, "agreement %s  refused %d", agreement(st), refused)
	return ls
}

func agreement(st client.ShotStats) string {
	if st.Judged == 0 {
		return "-"
	}
	return fmt.Sprintf("%.0f%%", 100*st.Agreement())
}

// RespawnIn returns how long until our destroyed tank respawns, from the newest Kill that
// destroyed it and the newest server tick; 0 when unknown or due.
func RespawnIn(g *client.Game) time.Duration {
	me := g.Welcome().PlayerID
	kills := g.Kills()
	for i := len(kills) - 1; i >= 0; i-- {
		if kills[i].VictimID == me {
			due := kills[i].ServerTick + netcode.Ticks(g.Rules().RespawnDelay)
			now := g.Stats().ServerTick
			if due <= now {
				return 0
			}
			return time.Duration(due-now) * netcode.StepInterval
		}
	}
	return 0
}

// ScoreRow is one line of the scoreboard.
type ScoreRow struct {
	ID            uint32
	Name          string
	Kills, Deaths uint32
	Health        uint32
	Destroyed     bool
	You           bool
}

// Scoreboard returns every player we know, best first: most kills, then fewest deaths,
// then lowest id.
func Scoreboard(g *client.Game) []ScoreRow {
	me := g.Welcome().PlayerID
	own := g.Own()
	rows := []ScoreRow{{ID: me, Name: g.Name(me), Kills: own.Kills, Deaths: own.Deaths, Health: own.Health, Destroyed: own.Destroyed, You: true}}
	for _, rm := range SortedRemotes(g) {
		c := rm.Combat
		rows = append(rows, ScoreRow{ID: rm.ID, Name: rm.Name, Kills: c.Kills, Deaths: c.Deaths, Health: c.Health, Destroyed: c.Destroyed})
	}
	sortScores(rows)
	return rows
}

// sortScores puts rows best first: most kills, then fewest deaths, then lowest id.
func sortScores(rows []ScoreRow) {
	slices.SortFunc(rows, func(a, b ScoreRow) int {
		return cmp.Or(cmp.Compare(b.Kills, a.Kills), cmp.Compare(a.Deaths, b.Deaths), cmp.Compare(a.ID, b.ID))
	})
}

// ScoreLines formats rows as fixed-width text, a header first.
func ScoreLines(rows []ScoreRow) []Line {
	ls := []Line{{Text: fmt.Sprintf("%-18s %5s %6s %6s", "player", "kills", "deaths", "health"), Style: Heading}}
	for _, r := range rows {
		name := r.Name
		if r.You {
			name += " (you)"
		}
		if r := []rune(name); len(r) > 18 {
			name = string(r[:18])
		}
		health := fmt.Sprint(r.Health)
		style := Plain
		if r.Destroyed {
			health, style = "down", Dim
		}
		ls = append(ls, Line{Text: fmt.Sprintf("%-18s %5d %6d %6s", name, r.Kills, r.Deaths, health), Style: style})
	}
	return ls
}

// Screenshot moments a -screenshot run can wait for, after its frames.
const (
	MomentAny       = ""          // right after the frames
	MomentHit       = "hit"       // our newest shot is a confirmed hit whose tracer still shows
	MomentDestroyed = "destroyed" // our tank is a wreck waiting to respawn
)

// ValidMoment reports whether when names a screenshot moment.
func ValidMoment(when string) bool {
	return when == MomentAny || when == MomentHit || when == MomentDestroyed
}

// MomentReached reports whether g, at local time now, shows the moment when names.
func MomentReached(when string, g *client.Game, now time.Duration) bool {
	switch when {
	case MomentHit:
		s, ok := g.LastShot()
		m := LastShotMarks(g, now)
		return ok && m.Confirmed && m.SawHit && m.HasGhost && now-s.At < client.TracerLife()/2
	case MomentDestroyed:
		return g.Own().Destroyed
	}
	return true
}

// RespawnTag is the server pane's name tag for a wreck: its name and the time until it
// respawns at tick respawn, seen at tick now (one tick a netcode.StepInterval).
func RespawnTag(name string, respawn, now uint32) string {
	left := time.Duration(0)
	if respawn > now {
		left = time.Duration(respawn-now) * netcode.StepInterval
	}
	return fmt.Sprintf("%s  respawn %.1f s", name, left.Seconds())
}
