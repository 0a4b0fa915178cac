package view

import (
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"tanknet/internal/servertest"
	"tanknet/linksim"
	"tanknet/netcode"
	"tanknet/server"
	"tanknet/wire"
)

func TestTracerAlpha(t *testing.T) {
	life := 400 * time.Millisecond
	for _, tt := range []struct {
		age  time.Duration
		want float64
	}{{0, 1}, {100 * time.Millisecond, 0.75}, {life, 0}, {time.Second, 0}, {-time.Millisecond, 0}} {
		if got := TracerAlpha(tt.age, life); got != tt.want {
			t.Errorf("TracerAlpha(%v, %v) = %v, want %v", tt.age, life, got, tt.want)
		}
	}
}

func TestHealthBar(t *testing.T) {
	rules := netcode.DefaultRules()
	if s, c, ok := HealthBar(wire.Combat{Health: 100}, rules); !ok || s != 1 || c != HealthGood {
		t.Errorf("full health: %v %v %v", s, c, ok)
	}
	if s, c, ok := HealthBar(wire.Combat{Health: 25}, rules); !ok || s != 0.25 || c != HealthLow {
		t.Errorf("a quarter: %v %v %v", s, c, ok)
	}
	if _, _, ok := HealthBar(wire.Combat{Destroyed: true}, rules); ok {
		t.Error("a wreck gets a health bar")
	}
}

func TestScoreboard_BestFirst(t *testing.T) {
	rows := []ScoreRow{{ID: 4, Kills: 2}, {ID: 3, Name: "c", Kills: 1}, {ID: 1, Name: "a", Kills: 2, Deaths: 1, You: true}, {ID: 2, Kills: 2, Deaths: 1}}
	sortScores(rows)
	var ids []uint32
	for _, r := range rows {
		ids = append(ids, r.ID)
	}
	if want := []uint32{4, 1, 2, 3}; !slices.Equal(ids, want) { // most kills, fewest deaths, lowest id
		t.Errorf("sorted ids %v, want %v", ids, want)
	}
}

func TestScoreLines(t *testing.T) {
	rows := []ScoreRow{{ID: 3, Name: "c", Kills: 1}, {ID: 1, Name: "a", Kills: 2, Deaths: 1, You: true}, {ID: 2, Name: "bééééééééééééééééééééééé", Kills: 2, Destroyed: true}}
	ls := ScoreLines(rows)
	if len(ls) != 4 || ls[0].Style != Heading || !strings.Contains(ls[2].Text, "a (you)") || !strings.Contains(ls[3].Text, "down") {
		t.Errorf("ScoreLines = %q", ls)
	}
	if strings.Contains(ls[3].Text, "\uFFFD") {
		t.Errorf("a long name was cut inside a rune: %q", ls[3].Text)
	}
}

// TestShotMarks_RewoundGhostIsTheAimedPose plays two clients on a loopback server with no
// obstacles and 40 ms each way: the gunner turns toward the other tank, drives until a
// shot would hit what it draws, fires with lag compensation, and waits for the answer. The
// marks must show a confirmed hit, and the server's rewound target must be exactly the
// pose the gunner drew: the ghost sits on the aimed tank.
func TestShotMarks_RewoundGhostIsTheAimedPose(t *testing.T) {
	if testing.Short() {
		t.Skip("loopback end-to-end test")
	}
	addr := servertest.Start(t, func(c *server.Config) {
		c.Arena.Obstacles = nil
		c.Rules.SpawnProtection = 0
	}).Addr
	cond := linksim.Symmetric(linksim.Link{Latency: 40 * time.Millisecond})
	gunner, target := join(t, addr, "gunner", cond), join(t, addr, "target", cond)
	ps := []player{{g: gunner}, {g: target}}
	run(t, ps, func(int) bool {
		aim := gunner.Aim()
		ps[0].in = netcode.Input{Turn: aim.Turn, Throttle: 1}
		if aim.TargetID == 0 {
			if len(gunner.Remotes()) > 0 && gunner.Local() != nil { // out of range: drive at it
				for _, rm := range gunner.Remotes() {
					p := gunner.Local().Predicted()
					ps[0].in.Turn = max(-1, min(1, netcode.WrapAngle(angle(p, rm.Pose)-p.Heading)))
				}
			}
			return true
		}
		if gunner.ShotStats().Fired == 0 {
			if aim.Aligned {
				gunner.Fire(true) // fired by the next Update
			}
			return true
		}
		s, ok := gunner.LastShot()
		return !(ok && s.Result != nil)
	})
	m := LastShotMarks(gunner, gunner.Now())
	if !m.Show || !m.Answered || !m.SawHit || !m.Confirmed || !m.HasGhost {
		t.Fatalf("LastShotMarks = %+v, want a confirmed hit with a ghost", m)
	}
	if m.Rewound != m.Aimed {
		t.Errorf("the server rewound the target to %v, the gunner drew it at %v: lag compensation is not exact", m.Rewound, m.Aimed)
	}
	lines := CombatLines(gunner, true)
	text := ""
	for _, l := range lines {
		text += l.Text + "\n"
	}
	for _, want := range []string{"shots 1  hits confirmed 1", "saw a hit, server said miss: 0", "lag compensation on"} {
		if !strings.Contains(text, want) {
			t.Errorf("CombatLines lack %q:\n%s", want, text)
		}
	}
	if CombatLines(gunner, false)[2].Style != Warn {
		t.Error("lag compensation off is not shown as a warning")
	}
	if rows := Scoreboard(gunner); len(rows) != 2 || rows[0].Kills != 0 {
		t.Errorf("Scoreboard = %+v, want both players, nobody destroyed yet", rows)
	}
}

// angle is the heading from one pose's position to another's.
func angle(from, to netcode.Pose) float64 { return math.Atan2(to.Y-from.Y, to.X-from.X) }

func TestRespawnTag(t *testing.T) {
	for _, tt := range []struct {
		respawn, now uint32
		want         string
	}{
		{130, 100, "bot3  respawn 1.5 s"},
		{100, 100, "bot3  respawn 0.0 s"},
		{90, 100, "bot3  respawn 0.0 s"}, // late: never negative
	} {
		if got := RespawnTag("bot3", tt.respawn, tt.now); got != tt.want {
			t.Errorf("RespawnTag(bot3, %d, %d) = %q, want %q", tt.respawn, tt.now, got, tt.want)
		}
	}
}
