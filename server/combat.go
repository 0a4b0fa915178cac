package server

import (
	"slices"

	"tanknet/netcode"
	tankv1 "tanknet/proto/tank/v1"
)

// spawn puts p at a free spawn point, whole and protected for Rules.SpawnProtection.
func (w *world) spawn(p *player) {
	p.pose = w.spawnPose()
	p.health, p.destroyed = w.cfg.Rules.MaxHealth, false
	p.protectedUntil = w.tick + netcode.Ticks(w.cfg.Rules.SpawnProtection)
	w.events = append(w.events, WorldEvent{Player: p.id, Pose: p.pose})
}

// protected reports whether hits on p do no damage this tick.
func (w *world) protected(p *player) bool { return w.tick < p.protectedUntil }

// respawn brings back every destroyed player whose delay is over. It runs at the top of a
// tick, before inputs, so the new pose is in this tick's snapshot.
func (w *world) respawn() {
	for _, p := range w.players {
		if p.destroyed && w.tick >= p.respawnAt {
			w.spawn(p)
			w.stats.respawns.Add(1)
		}
	}
}

// damage applies one hit of shooter on the player with id victim and returns the health it
// took: none when the victim is gone, already destroyed or spawn protected. A hit that takes
// the last health destroys the victim and tells everyone.
func (w *world) damage(shooter *player, victim uint32) uint32 {
	i := slices.IndexFunc(w.players, func(p *player) bool { return p.id == victim })
	if i < 0 {
		return 0
	}
	v := w.players[i]
	if v.destroyed || w.protected(v) {
		return 0
	}
	d := min(w.cfg.Rules.Damage, v.health)
	v.health -= d
	if v.health > 0 {
		return d
	}
	v.destroyed = true
	v.respawnAt = w.tick + max(1, netcode.Ticks(w.cfg.Rules.RespawnDelay))
	v.deaths++
	shooter.kills++
	w.stats.kills.Add(1)
	kill := w.encode(&tankv1.ServerMessage{Kind: &tankv1.ServerMessage_Kill{Kill: &tankv1.Kill{
		KillerId: shooter.id, VictimId: v.id, ServerTick: w.tick,
	}}})
	for _, o := range w.players {
		o.peer.send(kill)
	}
	return d
}
