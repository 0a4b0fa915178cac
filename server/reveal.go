package server

import (
	tankv1 "tanknet/proto/tank/v1"
)

// With interest management a client learns where other tanks are only within its view:
// snapshots carry the tanks within the view radius (and keep them until the radius plus
// hysteresis), and the messages about shots follow the same rule. A Shot goes to the
// shooter and to every client whose tank is within the radius plus hysteresis of both the
// shell's origin and where it ended; the rest are told nothing of it. A hit without lag
// compensation can only strike a tank the shooter was sent. Kills name players and carry
// no position, so every client hears of them.

// withinView reports whether both points lie within the distance at which o is still sent
// a tank: always true without interest management.
func (w *world) withinView(o *player, points ...*tankv1.Vec2) bool {
	if w.interest == nil {
		return true
	}
	r2 := w.interest.leave * w.interest.leave
	for _, q := range points {
		dx, dy := q.GetX()-o.pose.X, q.GetY()-o.pose.Y
		if dx*dx+dy*dy > r2 {
			return false
		}
	}
	return true
}

// inView reports whether p was sent o's tank in the newest snapshot p could have drawn
// (the previous tick's): always true without interest management.
func (w *world) inView(p, o *player) bool {
	return w.interest == nil || w.wasSent(p, o.id, w.tick-1)
}
