package netcode

import (
	"fmt"
	"math"
	"time"
)

// ContactMode says who separates tanks that overlap (Rules.Contact, the Welcome's
// Rules.contact).
type ContactMode uint8

const (
	// ContactUnspecified is a server that does not say: a client sends no push, and the
	// server may resolve contact itself.
	ContactUnspecified ContactMode = iota
	// ContactOff lets tanks pass through each other.
	ContactOff
	// ContactServer has the server push overlapping tanks apart after every tick
	// (ResolveContacts): clients cannot predict it, so contact costs corrections.
	ContactServer
	// ContactPredicted has each client push its own tank away from the tanks it knows, as
	// part of its input (PendingInput.Push, computed by ContactPush), and the server apply
	// that push within the rules (PushAllowance): prediction stays exact.
	ContactPredicted
)

// String returns the mode as the flags spell it: "off", "server", "predicted", or
// "unspecified".
func (m ContactMode) String() string {
	switch m {
	case ContactOff:
		return "off"
	case ContactServer:
		return "server"
	case ContactPredicted:
		return "predicted"
	}
	return "unspecified"
}

// Push is a contact push in wire grid units (GridUnit): how far a tank moves after its
// input's movement to get out of the tanks it overlaps. It travels in the MoveInput, so the
// server applies exactly what the client predicted.
type Push struct{ X, Y int32 }

// IsZero reports whether p moves nothing.
func (p Push) IsZero() bool { return p.X == 0 && p.Y == 0 }

// Length returns p's length in world units.
func (p Push) Length() float64 {
	x, y := float64(p.X)*GridUnit, float64(p.Y)*GridUnit
	return math.Sqrt(float64(x*x) + float64(y*y))
}

// MaxPush returns the longest push one input of duration d may carry: the distance a tank
// drives in d at full throttle. A push never moves a tank faster than it can drive.
func MaxPush(a *Arena, d time.Duration) float64 { return a.Speed * d.Seconds() }

// Overlap returns how deep two tanks at p and q overlap (2 * TankRadius minus the distance
// between their centres), 0 when they do not touch.
func Overlap(a *Arena, p, q Pose) float64 {
	dx, dy := q.X-p.X, q.Y-p.Y
	return max(float64(2*a.TankRadius)-math.Sqrt(float64(dx*dx)+float64(dy*dy)), 0)
}

// PushHorizon is how many ticks past a state of another tank a client may carry that tank
// on, at the motion of its last tick, when it computes its push (Ahead): its own predicted
// pose is that far ahead of the states it was sent (a round trip and the server's input
// buffer), and a tank driving into it is nearer than its newest state shows. 10 ticks
// (500 ms) cover a 300 ms round trip and a full input buffer.
const PushHorizon = 10

// carriesOn reports whether a tank seen at prev and then at cur one tick later moved as a
// tank can (at most two ticks' worth of top speed: driving and a push), so that carrying it
// on makes sense; a respawn or a placement does not.
func carriesOn(a *Arena, prev, cur Pose) bool {
	dx, dy := cur.X-prev.X, cur.Y-prev.Y
	most := 2 * MaxPush(a, StepInterval)
	return float64(dx*dx)+float64(dy*dy) <= float64(most*most)
}

// Ahead returns where a tank seen at cur, and at prev one tick earlier, is ticks later
// (at most PushHorizon) if it moves on as it did in that tick: what a client pushes against.
// A tank that jumped (a respawn) is taken to stay at cur.
func Ahead(a *Arena, prev, cur Pose, ticks uint32) Pose {
	if !carriesOn(a, prev, cur) {
		return cur
	}
	k := float64(min(ticks, PushHorizon))
	return Pose{X: cur.X + float64((cur.X-prev.X)*k), Y: cur.Y + float64((cur.Y-prev.Y)*k), Heading: cur.Heading}
}

// Reach is where a client takes another tank to be when it computes its push: somewhere on
// the way from its newest state, From, to To, where Ahead carries that state on. A tank taken
// to stand still has From and To the same (Stay). ContactPush pushes against the first place
// on the way where the tank meets ours (meets).
type Reach struct{ From, To Pose }

// Stay is the Reach of a tank taken to stay at p.
func Stay(p Pose) Reach { return Reach{From: p, To: p} }

// PushTarget returns where a client takes another tank to be when it computes its push: from
// its newest state cur on to where Ahead carries it for lead ticks (how far the client's
// prediction runs ahead of cur: its inputs not yet acknowledged in the snapshot cur came in,
// and the ticks since) when prev, the state before cur, is of the tick just before; cur's
// pose alone otherwise. It returns false when cur is too old to push against: the server,
// which takes pushes against the states of the last window ticks (Rules.RewindWindow), would
// no longer hold it, give or take pushStale ticks of jitter.
func PushTarget(a *Arena, prev, cur State, hasPrev bool, lead, window uint32) (Reach, bool) {
	if lead+pushStale > window {
		return Reach{}, false
	}
	if !hasPrev || prev.Tick+1 != cur.Tick {
		return Stay(cur.Pose), true
	}
	return Reach{From: cur.Pose, To: Ahead(a, prev.Pose, cur.Pose, lead)}, true
}

// MeetDepth is how deep a tank seen driving at ours is taken to overlap it at most, when a
// client carries it on (Reach.meets): two steps of top speed, as deep as two tanks driving
// head on get while both clients push (each push takes back at most its own tank's step).
func MeetDepth(a *Arena) float64 { return 2 * MaxPush(a, StepInterval) }

// meets returns where the tank r describes is taken to be against our tank at p: the first
// place on the way from r.From to r.To where it overlaps p by MeetDepth (or by as much as at
// r.From, if that is deeper), and r.To when it never gets that deep. Carried on the whole way,
// a tank driving at ours would come out on its far side and turn our push toward it; its own
// client stops it at about that depth.
func (r Reach) meets(a *Arena, p Pose) Pose {
	sx, sy := r.To.X-r.From.X, r.To.Y-r.From.Y
	qa := float64(sx*sx) + float64(sy*sy)
	if qa == 0 {
		return r.To
	}
	// The smallest f in [0, 1] with |From + f*s - p| = 2*TankRadius - depth, if any.
	depth := max(MeetDepth(a), Overlap(a, p, r.From))
	within := max(float64(2*a.TankRadius)-depth, 0)
	cx, cy := r.From.X-p.X, r.From.Y-p.Y
	qc := float64(cx*cx) + float64(cy*cy) - float64(within*within)
	if qc <= 0 {
		return r.From
	}
	qb := 2 * (float64(cx*sx) + float64(cy*sy))
	disc := float64(qb*qb) - float64(4*qa*qc)
	if disc < 0 {
		return r.To
	}
	f := (-qb - math.Sqrt(disc)) / (2 * qa)
	if f < 0 || f > 1 {
		return r.To
	}
	return Pose{X: r.From.X + float64(sx*f), Y: r.From.Y + float64(sy*f), Heading: r.To.Heading}
}

// pushStale is how many ticks short of the server's window a client stops pushing against a
// state: the jitter its estimate of the state's age allows for.
const pushStale = 3

// ReachDepth returns the deepest overlap a tank at p has with any place Ahead may put a
// tank seen at cur (and at prev one tick earlier, when hasPrev): 2 * TankRadius minus the
// distance from p to the segment from cur to Ahead(prev, cur, PushHorizon), or to cur alone
// without prev; 0 when they do not touch. The server bounds a push by it.
func ReachDepth(a *Arena, p, prev, cur Pose, hasPrev bool) float64 {
	if !hasPrev || !carriesOn(a, prev, cur) {
		return Overlap(a, p, cur)
	}
	end := Ahead(a, prev, cur, PushHorizon)
	sx, sy := end.X-cur.X, end.Y-cur.Y
	l2 := float64(sx*sx) + float64(sy*sy)
	if l2 == 0 {
		return Overlap(a, p, cur)
	}
	f := max(0, min(1, (float64((p.X-cur.X)*sx)+float64((p.Y-cur.Y)*sy))/l2))
	return Overlap(a, p, Pose{X: cur.X + float64(sx*f), Y: cur.Y + float64(sy*f)})
}

// ContactPush returns the push a client claims for its tank at p, after an input of
// duration d moved it there, among the other tanks others (where it takes them to be:
// PushTarget, each met where it meets p): away from each tank it overlaps by half the
// overlap, as the server's ResolveContacts moves each of a pair, summed, then shortened to
// MaxPush(d). Each axis is rounded toward zero onto the grid, so the push never claims more
// than that. A tank at the exact spot of another is pushed along -x. A tank that touches
// nobody gets the zero Push.
func ContactPush(a *Arena, p Pose, others []Reach, d time.Duration) Push {
	var fx, fy float64
	for _, r := range others {
		q := r.meets(a, p)
		depth := Overlap(a, p, q)
		if depth == 0 {
			continue
		}
		dx, dy := p.X-q.X, p.Y-q.Y
		nx, ny := -1.0, 0.0
		if dist := math.Sqrt(float64(dx*dx) + float64(dy*dy)); dist > 0 {
			nx, ny = dx/dist, dy/dist
		}
		fx += float64(nx * depth / 2)
		fy += float64(ny * depth / 2)
	}
	if length, most := math.Sqrt(float64(fx*fx)+float64(fy*fy)), MaxPush(a, d); length > most {
		fx, fy = fx*(most/length), fy*(most/length)
	}
	return Push{X: int32(math.Trunc(fx * GridPerUnit)), Y: int32(math.Trunc(fy * GridPerUnit))}
}

// ApplyPush returns p moved by push and contained by the arena's walls and obstacles, on the
// grid; the heading is kept. The zero Push returns p unchanged.
func ApplyPush(a *Arena, p Pose, push Push) Pose {
	if push.IsZero() {
		return p
	}
	x, y := a.Contain(p.X+float64(float64(push.X)*GridUnit), p.Y+float64(float64(push.Y)*GridUnit))
	return a.Snap(Pose{X: x, Y: y, Heading: p.Heading})
}

// PushAllowance returns the longest push the server accepts for a tank after an input of
// duration d, given for each other tank the deepest overlap the tank has with anywhere its
// client may take that tank to be (depths, one per tank touched: ReachDepth over the states
// it may have been sent): their sum, at most MaxPush(d). An honest client claims at most half of it
// (ContactPush), so a push within it is one the tanks it was sent could have caused; a push
// beyond it is refused whole.
func PushAllowance(a *Arena, depths []float64, d time.Duration) float64 {
	sum := 0.0
	for _, depth := range depths {
		sum += depth
	}
	return min(sum, MaxPush(a, d))
}

// ParseContactMode reads a mode as the flags spell it: "predicted", "server" or "off"; "true"
// and "false" stand for predicted and off, as the boolean -contact flag of earlier versions
// wrote them.
func ParseContactMode(s string) (ContactMode, error) {
	switch s {
	case "predicted", "true":
		return ContactPredicted, nil
	case "server":
		return ContactServer, nil
	case "off", "false":
		return ContactOff, nil
	}
	return ContactUnspecified, fmt.Errorf("netcode: contact %q is not one of predicted, server and off", s)
}
