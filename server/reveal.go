package server

import (
	"tanknet/netcode"
	"tanknet/wire"
	"tanknet/world"
)

// With interest management a client learns where other tanks are only within its view:
// snapshots carry the tanks within the view radius (and keep them until the radius plus
// hysteresis), and the messages about shots follow the same rule. A Shot goes to the
// shooter and to every client whose tank is within the radius plus hysteresis of both the
// shell's origin and where it ended; the rest are told nothing of it. Kills name players and
// carry no position, so every client hears of them.
//
// A player who said it is away (PROTOCOL.md §6b) is told no other players' shots and no
// kills but its own (as killer or victim): a hidden page draws none of them, and a frozen
// one acknowledges nothing, so each would wait in its stream's window until the window is
// full and the server has to drop it. What it missed is in the snapshots it reads back.

// tellShots tells the clients about this tick's judged shots, in order: a Kill to everyone,
// the ShotResult to its shooter, and the tracer to the shooter and the clients near it.
func (g *game) tellShots(shots []world.JudgedShot) {
	if len(shots) == 0 {
		return
	}
	players := g.players()
	for i := range shots {
		js := &shots[i]
		shooter := g.find(js.Shooter)
		r := &js.Result
		if r.Verdict == netcode.VerdictRefused {
			g.stats.shotsRefused.add(r.Refusal.Label())
		} else {
			g.stats.shots.Add(1)
		}
		if r.Verdict == netcode.VerdictHit {
			g.stats.hits.Add(1)
		}
		if js.Kill != nil {
			g.stats.kills.Add(1)
			kill := g.encode(wire.Kill(*js.Kill))
			for _, o := range players {
				if !o.tank.Away() || o.tank.ID() == js.Kill.KillerID || o.tank.ID() == js.Kill.VictimID {
					o.peer.send(kill)
				}
			}
		}
		if shooter == nil {
			continue
		}
		shooter.peer.send(g.encode(wire.ShotResult(*r)))
		tracer, ok := js.Tracer()
		if !ok {
			continue
		}
		shot := g.encode(wire.Shot(tracer))
		for _, o := range players {
			if o == shooter || !o.tank.Away() && g.withinView(o, tracer.OriginX, tracer.OriginY, tracer.EndX, tracer.EndY) {
				o.peer.send(shot)
			}
		}
	}
}

// withinView reports whether both points (x0, y0) and (x1, y1) lie within the distance at
// which o is still sent a tank: always true without interest management.
func (g *game) withinView(o *player, x0, y0, x1, y1 float64) bool {
	if g.interest == nil {
		return true
	}
	r2 := g.interest.leave * g.interest.leave
	pose := o.tank.Pose()
	for _, q := range [2][2]float64{{x0, y0}, {x1, y1}} {
		dx, dy := q[0]-pose.X, q[1]-pose.Y
		if dx*dx+dy*dy > r2 {
			return false
		}
	}
	return true
}
