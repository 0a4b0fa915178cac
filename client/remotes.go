package client

import (
	"slices"
	"time"

	"tanknet/netcode"
	"tanknet/wire"
)

// Remote is another player's tank as this client sees it.
type Remote struct {
	ID     uint32
	Name   string
	Interp *netcode.Interpolator
	// Pose is where to draw the tank this frame, sampled by the last Update; Bracketed is
	// false when no pair of snapshots surrounded the render time (a hold).
	Pose      netcode.Pose
	Bracketed bool
	// Combat is the tank's health and score in the newest snapshot.
	Combat wire.Combat
	alive  aliveAt
	lastAt time.Duration // local time its newest state arrived
}

// Interest management on the client. The server sends only the tanks near ours and names
// the ones that left (Snapshot.left_view); a tank it names, or stops sending, is forgotten,
// and one that comes back is new: its interpolation starts afresh, so it is drawn where it
// is at once instead of sliding from where it was last seen.
const (
	// reenterGap is the smallest gap in a remote's server ticks that counts as leaving and
	// coming back: leaving and re-entering the view takes 0.4 s (8 ticks) at the least,
	// while loss alone seldom swallows 8 ticks in a row.
	reenterGap = 8
	// forgetAfter drops a remote the server has said nothing of for this long, in case every
	// repeat of its left_view was lost: longer than any stall on the stream we see.
	forgetAfter = 2 * time.Second
)

// timeline is the other tanks, each interpolated between the states the server sent of it,
// and the players' names from the roster.
type timeline struct {
	tanks  map[uint32]*Remote
	interp netcode.InterpConfig
	// clock is the server timeline's clock of our link, shared by every remote's
	// interpolator; nil on the receive timeline.
	clock    *netcode.ServerClock
	names    map[uint32]string
	departed []netcode.InterpCounters // counters of remotes that left, for reports
	reach    []netcode.Reach          // scratch: the tanks our contact pushes answer (contact.go)
}

// newTimeline returns an empty timeline whose tanks interpolate by cfg.
func newTimeline(cfg netcode.InterpConfig) timeline {
	t := timeline{tanks: map[uint32]*Remote{}, interp: cfg, names: map[uint32]string{}}
	if cfg.Timeline == netcode.ServerTimeline {
		t.clock = netcode.NewServerClock(cfg)
	}
	return t
}

// roster applies who joined and who left.
func (t *timeline) roster(m wire.Roster) {
	for _, j := range m.Joined { // joins first: one may also be in left
		t.names[j.ID] = j.Name
		if rm := t.tanks[j.ID]; rm != nil {
			rm.Name = j.Name
		}
	}
	for _, l := range m.Left {
		t.forget(l.ID)
		delete(t.names, l.ID)
	}
}

// known reports whether the roster has announced player id.
func (t *timeline) known(id uint32) bool { return t.names[id] != "" }

// push takes state st of tank id, with its health and score c, which arrived at local time
// at. It reports whether the tank came back after leaving our view, and so starts afresh.
func (t *timeline) push(at time.Duration, id uint32, st netcode.State, c wire.Combat) (reentered bool) {
	rm := t.tanks[id]
	if rm != nil {
		if newest, ok := rm.Interp.Newest(); ok && st.Tick >= newest.Tick+reenterGap {
			t.forget(id) // back after leaving our view: start afresh, no slide
			rm = nil
			reentered = true
		}
	}
	if rm == nil {
		rm = &Remote{ID: id, Name: t.names[id], Interp: t.newInterpolator()}
		t.tanks[id] = rm
	}
	rm.alive.record(st.Tick, !c.Destroyed)
	push := rm.Interp.Push
	if _, seen := rm.Interp.Newest(); seen && cameBack(rm.Combat, c) {
		push = rm.Interp.PushTeleport // drawn where it came back at once, never slid there
	}
	if push(at, st) {
		rm.Combat = c
		rm.lastAt = at
	}
	return reentered
}

// newInterpolator returns the interpolator for a tank coming into view: on the server
// timeline one on the link's clock, so it starts at the delay the link has shown.
func (t *timeline) newInterpolator() *netcode.Interpolator {
	if t.clock != nil {
		return t.clock.NewInterpolator()
	}
	return netcode.NewInterpolator(t.interp)
}

// leftView forgets tank id, which left our view at server tick tick, unless a newer state of
// it has come since (it is back). It reports whether it forgot one.
func (t *timeline) leftView(id, tick uint32) bool {
	rm := t.tanks[id]
	if rm == nil {
		return false
	}
	if newest, ok := rm.Interp.Newest(); ok && newest.Tick >= tick {
		return false
	}
	t.forget(id)
	return true
}

// forget stops drawing tank id, keeping its interpolation counters for the report.
func (t *timeline) forget(id uint32) {
	if rm := t.tanks[id]; rm != nil {
		t.departed = append(t.departed, rm.Interp.Counters())
		delete(t.tanks, id)
	}
}

// sample places every tank where it is drawn at local time now, and forgets the ones the
// server has said nothing of for forgetAfter (out of view, and every notice of it lost); it
// returns how many it forgot.
func (t *timeline) sample(now time.Duration) (forgotten int) {
	for id, rm := range t.tanks {
		if now-rm.lastAt > forgetAfter {
			t.forget(id)
			forgotten++
			continue
		}
		rm.Pose, rm.Bracketed = rm.Interp.Sample(now)
	}
	return forgotten
}

// targets appends the tanks that are targets as last drawn (Remote.target) to dst.
func (t *timeline) targets(dst []netcode.Target) []netcode.Target {
	for _, rm := range t.tanks {
		if rm.target() {
			dst = append(dst, netcode.Target{ID: rm.ID, Pose: rm.Pose})
		}
	}
	return dst
}

// drawn appends to views how every tank with a state was drawn this frame, and to targets
// those of them that are targets, in id order: what a Fire lists and judges.
func (t *timeline) drawn(views []netcode.TankView, targets []netcode.Target) ([]netcode.TankView, []netcode.Target) {
	ids := make([]uint32, 0, len(t.tanks))
	for id := range t.tanks {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		rm := t.tanks[id]
		if rm.Interp.Len() == 0 {
			continue
		}
		views = append(views, netcode.TankView{ID: id, View: rm.Interp.View()})
		if rm.target() {
			targets = append(targets, netcode.Target{ID: id, Pose: rm.Pose})
		}
	}
	return views, targets
}

// counters calls add with the interpolation counters of every tank drawn now or before.
func (t *timeline) counters(add func(netcode.InterpCounters)) {
	for _, rm := range t.tanks {
		add(rm.Interp.Counters())
	}
	for _, c := range t.departed {
		add(c)
	}
}
