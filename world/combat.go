package world

import (
	"tanknet/netcode"
)

// spawn puts t at a free spawn point, whole and protected for Rules.SpawnProtection.
func (w *World) spawn(t *Tank) { w.place(t, w.spawnPose()) }

// place puts t at pose, whole and protected for Rules.SpawnProtection, and notes it in the
// journal: a join, a respawn, or a recording's placement.
func (w *World) place(t *Tank, pose netcode.Pose) {
	t.pose = pose
	t.health, t.destroyed = w.cfg.Rules.MaxHealth, false
	// Protection counts from the first tick the tank is placed in: the tick running (a
	// respawn), or, for a join between ticks, the next one.
	t.protectedUntil = max(w.tick, t.firstTick) + netcode.Ticks(w.cfg.Rules.SpawnProtection)
	w.events = append(w.events, Event{Player: t.id, Pose: t.pose})
}

// Protected reports whether hits on t do no damage this tick (spawn protection).
func (w *World) Protected(t *Tank) bool { return w.tick < t.protectedUntil }

// respawn brings back every destroyed tank whose delay is over. It runs at the top of a
// tick, before inputs, so the new pose is in this tick's snapshot.
func (w *World) respawn() {
	for _, t := range w.tanks {
		if t.destroyed && w.tick >= t.respawnAt {
			w.spawn(t)
			w.counts.Respawns++
		}
	}
}

// damage applies one hit of shooter on the tank with id victim and returns the health it
// took, and the kill when it took the last: none when the victim is gone, already destroyed
// or spawn protected.
func (w *World) damage(shooter *Tank, victim uint32) (uint32, *netcode.Kill) {
	v := w.Find(victim)
	if v == nil || v.destroyed || w.Protected(v) {
		return 0, nil
	}
	d := min(w.cfg.Rules.Damage, v.health)
	v.health -= d
	if v.health > 0 {
		return d, nil
	}
	v.destroyed = true
	v.respawnAt = w.tick + max(1, netcode.Ticks(w.cfg.Rules.RespawnDelay))
	v.deaths++
	shooter.kills++
	return d, &netcode.Kill{KillerID: shooter.id, VictimID: v.id, ServerTick: w.tick}
}
