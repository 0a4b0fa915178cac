package world

import (
	"testing"
	"time"

	"tanknet/netcode"
)

// rapidFire is a world with an attacker that fires behind every move it sends, an honest
// player that fires whenever its cooldown in 50 ms moves allows, and a bystander to aim at.
// sessionFires is how many Fires the server's session hands on a tick (its maxFiresPerTick).
const sessionFires = 4

type rapidFire struct {
	t                      *testing.T
	w                      *World
	attacker, honest       *Tank
	attackMove, honestMove uint32
	accepted               []uint32 // server ticks of the attacker's accepted shots
	honestFired            int
}

func newRapidFire(t *testing.T) *rapidFire {
	cfg := testConfig()
	cfg.Rules.SpawnProtection = 0
	r := &rapidFire{t: t, w: New(cfg)}
	// What an attacker asks for: every move it sends, at once.
	r.attacker = mustJoin(t, r.w, 1, &testClient{mode: ModeOnArrival})
	r.honest = mustJoin(t, r.w, 2, &testClient{})
	mustJoin(t, r.w, 3, &testClient{}) // the bystander
	return r
}

// tick runs one server tick in which the attacker sends moves of d ms adding up to spend
// (nothing when spend is 0) with a Fire behind each of the last sessionFires (what a
// session passes on; the pose of older moves would be forgotten by the time they are
// judged), and the honest player one 50 ms move, firing every cooldown's worth of moves. It
// checks every honest shot is judged in its tick and accepted.
func (r *rapidFire) tick(d, spend time.Duration) {
	r.t.Helper()
	n := int(spend / d)
	for i := range n {
		r.attackMove++
		mustQueue(r.t, r.w, r.attacker, netcode.PendingInput{Tick: r.attackMove, Duration: d})
		if i >= n-sessionFires {
			r.w.Fire(r.attacker, netcode.ShotRequest{MoveTick: r.attackMove}) // dropped unjudged if too many wait
		}
	}
	r.honestMove++
	mustQueue(r.t, r.w, r.honest, netcode.PendingInput{Tick: r.honestMove, Duration: netcode.StepInterval})
	honestFires := r.honestMove%netcode.Ticks(r.w.cfg.Rules.Cooldown) == 1
	if honestFires {
		r.w.Fire(r.honest, netcode.ShotRequest{MoveTick: r.honestMove})
	}
	out := runTick(r.w)
	for _, js := range out.Shots {
		if js.Shooter == r.attacker.id && js.Result.Verdict != netcode.VerdictRefused {
			r.accepted = append(r.accepted, out.Tick)
		}
	}
	if honestFires {
		r.honestFired++
		if js, ok := shotOf(out, r.honest.id); !ok || js.Result.Verdict == netcode.VerdictRefused {
			r.t.Errorf("tick %d: the honest player's shot was refused or not judged: %+v (judged %v)", out.Tick, js.Result, ok)
		}
	}
}

// checkRate fails when the attacker's accepted shots break the documented rate: at most
// three in any second of server time, and at most 1 + (S + shotJitter) / Cooldown in the
// span S from the first to the last; and when the attacker got fewer than least (the
// attack, not the rate, is then what failed to test).
func (r *rapidFire) checkRate(what string, least int) {
	r.t.Helper()
	perSecond := netcode.Ticks(time.Second)
	for i, at := range r.accepted {
		n := 0
		for _, b := range r.accepted[i:] {
			if b-at < perSecond {
				n++
			}
		}
		if n > 3 {
			r.t.Fatalf("%s: %d shots accepted within a second from tick %d (all: %v)", what, n, at, r.accepted)
		}
	}
	if len(r.accepted) < least {
		r.t.Fatalf("%s: %d shots accepted; the attacker should get %d", what, len(r.accepted), least)
	}
	span := time.Duration(r.accepted[len(r.accepted)-1]-r.accepted[0]) * netcode.StepInterval
	if most := 1 + int((span+shotJitter)/r.w.cfg.Rules.Cooldown); len(r.accepted) > most {
		r.t.Fatalf("%s: %d shots accepted in %v, more than %d (ticks %v)", what, len(r.accepted), span, most, r.accepted)
	}
}

// A client that sends tiny moves with a Fire behind each gets no more than the documented
// rate, because the cooldown is counted in granted game time and server time, not in moves.
// (It gets far fewer: a tick applies at most 4 of its moves, 4 to 20 ms of game time, so
// its cooldown takes 25 to 125 ticks of game time to pass.) Its moves are sent within the
// input lead, as an attacker that means to stay would.
func TestCooldown_TinyMovesDoNotFireFaster(t *testing.T) {
	for _, tc := range []struct {
		d     time.Duration
		least int
	}{{time.Millisecond, 1}, {5 * time.Millisecond, 2}} {
		t.Run(tc.d.String(), func(t *testing.T) {
			r := newRapidFire(t)
			for range 200 { // 10 s
				r.tick(tc.d, time.Duration(r.w.cfg.MaxInputsPerTick())*tc.d)
			}
			r.checkRate("moves of "+tc.d.String(), tc.least)
			if r.honestFired < 7 {
				t.Fatalf("the honest player fired %d times", r.honestFired)
			}
		})
	}
}

// Time saved by sending nothing is granted back at up to MaxSimPerSecond, twice real time;
// the shots behind it still keep the rate in server time.
func TestCooldown_SavedTimeIsNoBurst(t *testing.T) {
	r := newRapidFire(t)
	for range 60 { // 3 s of silence from the attacker
		r.tick(netcode.StepInterval, 0)
	}
	for range 60 { // then as much as the server grants in one tick, with a Fire behind each move
		r.tick(netcode.StepInterval, r.w.cfg.MaxSimPerTick)
	}
	r.checkRate("after saving time", 2)
}
