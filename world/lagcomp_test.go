package world

import (
	"math"
	"testing"
	"time"

	"tanknet/netcode"
)

// inFlightState is a snapshot state of the mark on its way to the shooter's client.
type inFlightState struct {
	at       time.Duration
	state    netcode.State
	teleport bool // the jump's state: the client pushes it as a teleport, as it does a respawn
}

// TestLagComp_RewoundPoseIsTheDrawnPoseBitForBit drives a world tick by tick and a client's
// Interpolator frame by frame (60 Hz) in one loop, with the mark's snapshots delayed by a
// jittery link, a burst of them lost (holds) and one teleport. At every frame the world's
// rewound pose for the client's View must equal what the client drew, bit for bit. Then the
// shooter fires at the drawn mark once from a bracketed, a held and a teleported frame: the
// world's verdict and target pose must be the client's own.
func TestLagComp_RewoundPoseIsTheDrawnPoseBitForBit(t *testing.T) {
	d := newDuel(t, nil)
	ip := netcode.NewInterpolator(netcode.DefaultInterpConfig())
	var inFlight []inFlightState
	frame := time.Second / 60
	fired := map[string]bool{}
	seen := map[string]int{}
	readyAt := uint32(0) // first move tick the cooldown allows

	for f := 0; f < 60*8 && len(fired) < 3; f++ {
		now := time.Duration(f) * frame
		for time.Duration(d.w.tick+1)*netcode.StepInterval <= now {
			markIn := netcode.Input{Turn: 0.4 * math.Sin(float64(d.w.tick)/7), Throttle: 1}
			if d.w.tick == 60 {
				d.mark.pose = d.w.cfg.Arena.Snap(netcode.Pose{X: 8, Y: 15, Heading: 1}) // a respawn-like jump, in tick 61's state
			}
			d.tick(markIn)
			k := d.w.tick
			if k >= 30 && k < 36 { // a burst of loss: the client holds
				continue
			}
			// The mark's state as the tick's snapshot carries it (the server sends the
			// outcome's pose and ack: TestWorld_AppliesInputsInOrderLikeReplay in server).
			if d.out.IDs[1] != d.mark.id {
				t.Fatalf("tick %d: outcome ids %v, want the mark second", k, d.out.IDs)
			}
			state := netcode.State{Tick: k, Pose: d.out.Poses[1], Ack: d.out.Acks[1]}
			latency := 40*time.Millisecond + time.Duration(k%5)*7*time.Millisecond
			inFlight = append(inFlight, inFlightState{at: time.Duration(k)*netcode.StepInterval + latency, state: state, teleport: k == 61})
		}
		n := 0
		for _, a := range inFlight {
			switch {
			case a.at <= now && a.teleport:
				ip.PushTeleport(now, a.state)
			case a.at <= now:
				ip.Push(now, a.state)
			default:
				inFlight[n] = a
				n++
			}
		}
		inFlight = inFlight[:n]
		if ip.Len() == 0 {
			continue
		}
		drawn, bracketed := ip.Sample(now)
		v := ip.View()
		kind := "bracketed"
		switch {
		case v.Held() && bracketed:
			kind = "teleported"
		case v.Held():
			kind = "held"
		}
		seen[kind]++
		rewound, ok := d.w.hist.rewound(d.mark.id, v)
		if !ok || rewound != drawn {
			t.Fatalf("frame %d (%s, view %v): world rewound %v (%v), client drew %v", f, kind, v, rewound, ok, drawn)
		}
		if fired[kind] || d.move+1 < readyAt {
			continue
		}
		// Aim from 1.5 units toward the arena's centre, as the client sees it.
		cx, cy := 20-drawn.X, 12.5-drawn.Y
		l := math.Hypot(cx, cy)
		shooter := netcode.Pose{X: drawn.X + 1.5*cx/l, Y: drawn.Y + 1.5*cy/l}
		shooter.Heading = math.Atan2(drawn.Y-shooter.Y, drawn.X-shooter.X)
		shooter = d.w.cfg.Arena.Snap(shooter) // as the client predicts it: on the wire grid
		verdict := netcode.Hitscan(&d.w.cfg.Arena, shooter, d.w.cfg.Rules.ShotRange, []netcode.Target{{ID: d.mark.id, Pose: drawn}})
		if !verdict.Hit {
			continue
		}
		d.shooter.pose = shooter
		r := d.fire(true, netcode.TankView{ID: d.mark.id, View: v})
		if r.Verdict != netcode.VerdictHit || r.TargetPose != drawn || r.EndX != verdict.EndX || r.EndY != verdict.EndY {
			t.Errorf("%s shot at view %v: world said %+v, the client drew the mark at %v and saw the shell stop at (%v, %v)",
				kind, v, r, drawn, verdict.EndX, verdict.EndY)
		}
		fired[kind] = true
		readyAt = d.move + netcode.Ticks(d.w.cfg.Rules.Cooldown)
	}
	for _, kind := range []string{"bracketed", "held", "teleported"} {
		if !fired[kind] {
			t.Errorf("no %s shot was fired (frames seen: %v)", kind, seen)
		}
	}
}
