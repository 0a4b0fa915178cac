package recording

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"time"

	"tanknet/netcode"
	tankv1 "tanknet/proto/tank/v1"
	"tanknet/wire"
)

// Divergence is the first difference found: at the end of Tick, Player's Field was Want
// in the first (recorded) world and Got in the second (re-simulated, or the other file).
type Divergence struct {
	Tick   uint32
	Player uint32 // 0 when the difference is not one player's
	Field  string
	Want   string
	Got    string
}

func (d *Divergence) String() string {
	who := ""
	if d.Player != 0 {
		who = " player " + strconv.FormatUint(uint64(d.Player), 10)
	}
	return fmt.Sprintf("tick %d%s %s: %s vs %s", d.Tick, who, d.Field, d.Want, d.Got)
}

// Report is what Verify found: what it compared, the first tick whose state hash differed
// (0: none) and the first field that differed in a keyframe from then on (nil: none).
type Report struct {
	Ticks, Keyframes, Moves int
	FirstTick               uint32
	First                   *Divergence
}

// String is "exact" or where the re-simulation first differed.
func (r Report) String() string {
	switch {
	case r.Exact():
		return "exact"
	case r.First == nil:
		return fmt.Sprintf("differs from tick %d (state hash), but the next keyframe matches", r.FirstTick)
	case r.FirstTick == 0 || r.FirstTick == r.First.Tick:
		return fmt.Sprintf("differs at %s (recorded vs re-simulated)", r.First)
	}
	return fmt.Sprintf("differs from tick %d (state hash); first keyframe after: %s (recorded vs re-simulated)", r.FirstTick, r.First)
}

// Exact reports whether nothing differed.
func (r Report) Exact() bool { return r.FirstTick == 0 && r.First == nil }

// tank is one tank of the re-simulated world.
type tank struct {
	id   uint32
	pose netcode.Pose
	ack  uint32
}

// Verify re-simulates the recording in r with the current netcode: from an empty world
// when it starts at tick 1, otherwise from its first keyframe, it applies each tick's
// placements, departures and inputs (and contact, when the recording had it) and compares
// every later keyframe, tank by tank. Combat (health, wrecks) is not re-simulated; the
// inputs a wreck was given are recorded as zero, and respawns as placements.
func Verify(r io.Reader) (Report, error) { return verify(r, netcode.Simulate) }

// simulator is netcode.Simulate's shape: the movement step Verify re-simulates with (a test
// gives it a changed one, to see Verify find where the change shows first).
type simulator func(a *netcode.Arena, p netcode.Pose, in netcode.Input, dt time.Duration) netcode.Pose

func verify(r io.Reader, simulate simulator) (Report, error) {
	rd, err := NewReader(r)
	if err != nil {
		return Report{}, err
	}
	arena, err := wire.ArenaFromProto(rd.Header.GetArena())
	if err != nil {
		return Report{}, fmt.Errorf("recording: header arena: %w", err)
	}
	var rep Report
	var tanks []tank
	known := rd.Header.GetFirstTick() == 1
	last := rd.Header.GetFirstTick() - 1
	for {
		at := rd.Offset()
		m, err := rd.Next()
		if errors.Is(err, io.EOF) {
			return rep, nil
		}
		if err != nil {
			return rep, err
		}
		switch k := m.GetKind().(type) {
		case *tankv1.Record_Header:
			return rep, fmt.Errorf("recording: at byte %d: a second header", at)
		case *tankv1.Record_Tick:
			t := k.Tick
			if t.GetTick() != last+1 {
				return rep, fmt.Errorf("recording: at byte %d: tick %d follows tick %d", at, t.GetTick(), last)
			}
			last = t.GetTick()
			rep.Ticks++
			rep.Moves += len(t.GetMoves())
			if known {
				if tanks, err = step(&arena, rd.Header.GetContact(), tanks, t, simulate); err != nil {
					return rep, fmt.Errorf("recording: at byte %d: %w", at, err)
				}
				if rep.FirstTick == 0 && t.GetStateHash() != hashOf(tanks) {
					rep.FirstTick = t.GetTick() // the keyframe at or after it names the field
				}
			}
		case *tankv1.Record_Keyframe:
			kf := k.Keyframe
			if kf.GetTick() != last {
				return rep, fmt.Errorf("recording: at byte %d: keyframe of tick %d after tick %d", at, kf.GetTick(), last)
			}
			if !known {
				tanks, known = tanksOf(kf), true
				continue
			}
			rep.Keyframes++
			if d := compare(kf.GetTick(), tanksOf(kf), tanks); d != nil {
				rep.First = d
				return rep, nil
			}
			if rep.FirstTick != 0 { // differed between keyframes and came back: say so
				return rep, nil
			}
		}
	}
}

// maxTanks is the most tanks a server holds (Config.MaxPlayers' limit); a recording with
// more is refused rather than re-simulated (contact costs the square of the count).
const maxTanks = 256

// step applies one recorded tick to tanks (in id order) and returns them.
func step(a *netcode.Arena, contact bool, tanks []tank, t *tankv1.RecordedTick, simulate simulator) ([]tank, error) {
	find := func(id uint32) int {
		i, ok := slices.BinarySearchFunc(tanks, id, func(t tank, id uint32) int { return int(int64(t.id) - int64(id)) })
		if !ok {
			return -1
		}
		return i
	}
	for _, e := range t.GetEvents() {
		id, i := e.GetPlayerId(), find(e.GetPlayerId())
		switch e.GetKind() {
		case tankv1.WorldEvent_KIND_LEFT:
			if i >= 0 {
				tanks = slices.Delete(tanks, i, i+1)
			}
		case tankv1.WorldEvent_KIND_PLACED:
			p := poseFrom(e.GetPose())
			if i >= 0 {
				tanks[i].pose = p
				continue
			}
			if len(tanks) >= maxTanks {
				return tanks, fmt.Errorf("tick %d: more than %d tanks", t.GetTick(), maxTanks)
			}
			j, _ := slices.BinarySearchFunc(tanks, id, func(t tank, id uint32) int { return int(int64(t.id) - int64(id)) })
			tanks = slices.Insert(tanks, j, tank{id: id, pose: p})
		default:
			return tanks, fmt.Errorf("tick %d: event of unknown kind %d", t.GetTick(), e.GetKind())
		}
	}
	for _, mv := range t.GetMoves() {
		i := find(mv.GetPlayerId())
		if i < 0 {
			return tanks, fmt.Errorf("tick %d: input for player %d, who is not in the world", t.GetTick(), mv.GetPlayerId())
		}
		in := netcode.Input{Turn: mv.GetTurn(), Throttle: mv.GetThrottle()}
		if in.Validate() != nil || mv.GetDurationNs() < 0 || mv.GetDurationNs() > int64(time.Second) {
			return tanks, fmt.Errorf("tick %d: player %d: input out of range", t.GetTick(), mv.GetPlayerId())
		}
		tanks[i].pose = simulate(a, tanks[i].pose, in, time.Duration(mv.GetDurationNs()))
		tanks[i].ack = mv.GetMoveTick()
	}
	if contact && len(tanks) > 1 {
		poses := make([]netcode.Pose, len(tanks))
		for i := range tanks {
			poses[i] = tanks[i].pose
		}
		netcode.ResolveContacts(a, poses)
		for i := range tanks {
			tanks[i].pose = poses[i]
		}
	}
	return tanks, nil
}

func tanksOf(kf *tankv1.Keyframe) []tank {
	out := make([]tank, 0, len(kf.GetTanks()))
	for _, t := range kf.GetTanks() {
		out = append(out, tank{id: t.GetPlayerId(), pose: poseFrom(t.GetPose()), ack: t.GetAck()})
	}
	return out
}

// compare returns the first difference between want and got at the end of tick, nil if none.
func compare(tick uint32, want, got []tank) *Divergence {
	for i := 0; i < max(len(want), len(got)); i++ {
		switch {
		case i >= len(want):
			return &Divergence{Tick: tick, Player: got[i].id, Field: "present", Want: "absent", Got: "present"}
		case i >= len(got):
			return &Divergence{Tick: tick, Player: want[i].id, Field: "present", Want: "present", Got: "absent"}
		case want[i].id != got[i].id:
			return &Divergence{Tick: tick, Field: "player id", Want: fmt.Sprint(want[i].id), Got: fmt.Sprint(got[i].id)}
		}
		w, g := want[i], got[i]
		for _, f := range []struct {
			name string
			a, b float64
		}{{"pose.x", w.pose.X, g.pose.X}, {"pose.y", w.pose.Y, g.pose.Y}, {"pose.heading", w.pose.Heading, g.pose.Heading}} {
			if f.a != f.b {
				return &Divergence{Tick: tick, Player: w.id, Field: f.name, Want: fmtFloat(f.a), Got: fmtFloat(f.b)}
			}
		}
		if w.ack != g.ack {
			return &Divergence{Tick: tick, Player: w.id, Field: "ack", Want: fmt.Sprint(w.ack), Got: fmt.Sprint(g.ack)}
		}
	}
	return nil
}

func fmtFloat(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

func poseFrom(p *tankv1.RecordedPose) netcode.Pose {
	return netcode.Pose{X: p.GetX(), Y: p.GetY(), Heading: p.GetHeading()}
}
