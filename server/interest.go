package server

import (
	"slices"

	"tanknet/netcode"
)

// Interest management: on an arena larger than a window's view, each client is sent its own
// tank and the tanks near it, not the whole world. A tank enters a client's view within
// enter units of the client's tank and leaves beyond leave units (hysteresis), and the
// client is told which tanks left (Snapshot.left_view) for leftRepeat ticks, so a lost
// datagram does not leave a ghost behind.
//
// Finding the tanks near each client uses a grid of square cells leave units wide: every
// tank within leave of a client is in the 3 x 3 cells around the client's, so the work per
// tick is linear in players at a given density, never quadratic.

const (
	leftRepeat  = 10 // ticks a departure is repeated: half a second of lost datagrams
	maxLeftView = 64 // departures one snapshot lists at most (the newest)
)

// view is what one client is being sent.
type view struct {
	visible []uint32    // ids of the other tanks sent in the last tick, increasing
	next    []uint32    // scratch: the ones sent this tick
	left    []departure // tanks that left the view, oldest first
	members []int32     // this tick's tanks for the client, itself included: indexes into the players placed, increasing (so in id order)
	shown   shownLog    // the other tanks each recent snapshot sent, for judging shots' views
}

// departure is a tank that left a client's view at tick.
type departure struct {
	id   uint32
	tick uint32
}

// interest finds, each tick, the tanks every client is sent.
type interest struct {
	enter, leave float64 // radii in world units; leave >= enter
	keep         int     // ticks of what each client was sent to remember (view.shown)
	cellSize     float64
	cols, rows   int
	cells        [][]int32 // cols*rows cells, row by row: indexes into players
	players      []*player // as placed, in id order
}

// newInterest returns the interest manager for arena a with the given enter radius, or nil
// when every client is to be sent every tank (radius 0).
func newInterest(a *netcode.Arena, enter, hysteresis float64, keep int) *interest {
	if enter <= 0 {
		return nil
	}
	leave := enter + hysteresis
	cols, rows := int(a.Width/leave)+1, int(a.Height/leave)+1
	return &interest{enter: enter, leave: leave, keep: keep, cellSize: leave, cols: cols, rows: rows, cells: make([][]int32, cols*rows)}
}

// cell returns the column and row of the cell holding position (x, y), clamped to the grid.
func (in *interest) cell(p netcode.Pose) (int, int) {
	c := min(max(int(p.X/in.cellSize), 0), in.cols-1)
	r := min(max(int(p.Y/in.cellSize), 0), in.rows-1)
	return c, r
}

// place puts every player (in id order) in its cell. The slice must not change until the
// last update of the tick.
func (in *interest) place(players []*player) {
	in.players = players
	for i := range in.cells {
		in.cells[i] = in.cells[i][:0]
	}
	for i, p := range players {
		c, r := in.cell(p.tank.Pose())
		in.cells[r*in.cols+c] = append(in.cells[r*in.cols+c], int32(i))
	}
}

// update works out, after place, which tanks the player at index self is sent at tick: it
// and the tanks in its view, in id order, in its view.members. Tanks that left the view are
// noted in view.left.
func (in *interest) update(self int32, tick uint32) {
	p := in.players[self]
	v := &p.view
	v.members = append(v.members[:0], self)
	enter2, leave2 := in.enter*in.enter, in.leave*in.leave
	at := p.tank.Pose()
	c0, r0 := in.cell(at)
	for r := max(r0-1, 0); r <= min(r0+1, in.rows-1); r++ {
		for c := max(c0-1, 0); c <= min(c0+1, in.cols-1); c++ {
			for _, i := range in.cells[r*in.cols+c] {
				if i == self {
					continue
				}
				q := in.players[i]
				there := q.tank.Pose()
				dx, dy := there.X-at.X, there.Y-at.Y
				d2 := dx*dx + dy*dy
				if d2 <= enter2 || (d2 <= leave2 && has(v.visible, q.tank.ID())) {
					v.members = append(v.members, i)
				}
			}
		}
	}
	slices.Sort(v.members)
	v.next = v.next[:0]
	for _, i := range v.members {
		if i != self {
			v.next = append(v.next, in.players[i].tank.ID())
		}
	}
	j := 0 // both lists increase: walk them side by side
	for _, id := range v.visible {
		for j < len(v.next) && v.next[j] < id {
			j++
		}
		if j == len(v.next) || v.next[j] != id {
			v.left = append(v.left, departure{id: id, tick: tick})
		}
	}
	// Forget departures that are old enough, or undone by the tank coming back.
	v.left = slices.DeleteFunc(v.left, func(d departure) bool { return tick-d.tick >= leftRepeat || has(v.next, d.id) })
	if len(v.left) > maxLeftView {
		v.left = v.left[len(v.left)-maxLeftView:]
	}
	v.shown.record(tick, v.next, in.keep)
	v.visible, v.next = v.next, v.visible
}

// has reports whether the increasing ids hold id.
func has(ids []uint32, id uint32) bool {
	_, ok := slices.BinarySearch(ids, id)
	return ok
}

// leftIDs appends the ids in p's departures to dst and returns it.
func (v *view) leftIDs(dst []uint32) []uint32 {
	for _, d := range v.left {
		dst = append(dst, d.id)
	}
	return dst
}
