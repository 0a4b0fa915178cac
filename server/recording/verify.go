package recording

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"

	"tanknet/netcode"
	tankv1 "tanknet/proto/tank/v1"
	"tanknet/wire"
	"tanknet/world"
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

// Report is what Verify found: what it compared, the first tick whose state hash or a
// judged shot differed (0: none) and the first field that differed in a keyframe from then
// on, or in that shot (nil: none).
type Report struct {
	Ticks, Keyframes, Moves int
	Shots                   int // shots judged again
	FirstTick               uint32
	First                   *Divergence
	// CameBack says a keyframe after FirstTick matched: the state differed between two
	// keyframes and was the recorded one again by the next.
	CameBack bool
}

// String is "exact" or where the re-simulation first differed.
func (r Report) String() string {
	switch {
	case r.Exact():
		return "exact"
	case r.First == nil && r.CameBack:
		return fmt.Sprintf("differs from tick %d (state hash), but the next keyframe matches", r.FirstTick)
	case r.First == nil:
		return fmt.Sprintf("differs from tick %d (state hash); the recording ends before a keyframe names the player and field", r.FirstTick)
	case r.FirstTick == 0 || r.FirstTick == r.First.Tick:
		return fmt.Sprintf("differs at %s (recorded vs re-simulated)", r.First)
	}
	return fmt.Sprintf("differs from tick %d (state hash); first keyframe after: %s (recorded vs re-simulated)", r.FirstTick, r.First)
}

// Exact reports whether nothing differed.
func (r Report) Exact() bool { return r.FirstTick == 0 && r.First == nil }

// Verify re-simulates the recording in r with the current code: from an empty world when
// it starts at tick 1, otherwise from its first keyframe, it replays each tick's placements,
// departures and inputs through package world (World.Replay), with contact when the
// recording had it, and compares every later keyframe, tank by tank. From an empty world,
// in a recording that keeps its shots (the header's shots), each shot that was not refused
// is judged again and must get the recorded verdict, target, damage and end point, and the
// keyframes' health, wrecks and respawn ticks are compared too; otherwise the combat each
// tick recorded is applied as it is. A wreck's inputs are recorded as zero and its respawn
// as a placement.
func Verify(r io.Reader) (Report, error) {
	rd, err := NewReader(r)
	if err != nil {
		return Report{}, err
	}
	cfg, err := replayConfig(rd.Header)
	if err != nil {
		return Report{}, err
	}
	v := verifier{known: rd.Header.GetFirstTick() == 1, last: rd.Header.GetFirstTick() - 1}
	v.judge = v.known && rd.Header.GetShots()
	if _, err := wire.RulesFromProto(rd.Header.GetRules()); v.judge && err != nil {
		return Report{}, fmt.Errorf("recording: header rules: %w", err) // no rules to judge by
	}
	v.w = world.New(cfg)
	for {
		at := rd.Offset()
		m, err := rd.Next()
		if errors.Is(err, io.EOF) {
			return v.rep, v.nothingCompared(rd.Header.GetFirstTick())
		}
		if err != nil {
			return v.rep, err
		}
		var done bool
		switch k := m.GetKind().(type) {
		case *tankv1.Record_Header:
			return v.rep, fmt.Errorf("recording: at byte %d: a second header", at)
		case *tankv1.Record_Tick:
			done, err = v.tick(k.Tick)
		case *tankv1.Record_Keyframe:
			done, err = v.keyframe(k.Keyframe)
		}
		if err != nil {
			return v.rep, fmt.Errorf("recording: at byte %d: %w", at, err)
		}
		if done {
			return v.rep, nil
		}
	}
}

// verifier is Verify's world and what it has found so far.
type verifier struct {
	w     *world.World
	known bool // the world holds the recording's state: it started at tick 1, or a keyframe came
	judge bool // shots are judged again (from an empty world, with the header's shots)
	last  uint32
	tanks []world.TankState // the world's state after the last tick replayed
	rep   Report
}

// nothingCompared is the error for a recording that ended with nothing compared, as Load
// refuses it: no tick at all, or ticks from first on with no keyframe to start from. Neither
// is exact, only empty.
func (v *verifier) nothingCompared(first uint32) error {
	switch {
	case v.rep.Ticks == 0:
		return errors.New("recording: no tick recorded")
	case !v.known:
		return fmt.Errorf("recording: starts at tick %d and has no keyframe to start from", first)
	}
	return nil
}

// tick replays one recorded tick and checks its shots and state hash; done is true once a
// difference is named.
func (v *verifier) tick(t *tankv1.RecordedTick) (done bool, err error) {
	if t.GetTick() != v.last+1 {
		return false, fmt.Errorf("tick %d follows tick %d", t.GetTick(), v.last)
	}
	v.last = t.GetTick()
	v.rep.Ticks++
	v.rep.Moves += len(t.GetMoves())
	if !v.known {
		return false, nil
	}
	r := replayed(t)
	r.Judge = v.judge
	shots, err := v.w.Replay(r)
	if err != nil {
		return false, err
	}
	v.rep.Shots += len(shots)
	// A shot names the difference only when it is the first: after a state hash differed,
	// shots differ too, and the next keyframe names the cause.
	if v.judge && v.rep.FirstTick == 0 {
		if d := compareShots(t.GetTick(), r.Shots, shots); d != nil {
			v.rep.First, v.rep.FirstTick = d, d.Tick
			return true, nil
		}
	}
	v.tanks = v.w.State(v.tanks[:0])
	if v.rep.FirstTick == 0 && t.GetStateHash() != hashOf(v.tanks) {
		v.rep.FirstTick = t.GetTick() // the keyframe at or after it names the field
	}
	return false, nil
}

// keyframe starts the world from kf when it holds no state yet, and otherwise compares kf
// with it; done is true once a difference is named, or the state came back after one.
func (v *verifier) keyframe(kf *tankv1.Keyframe) (done bool, err error) {
	if kf.GetTick() != v.last || v.rep.Ticks == 0 { // a keyframe follows its tick, as Load reads it
		return false, fmt.Errorf("keyframe of tick %d after tick %d", kf.GetTick(), v.last)
	}
	if !v.known {
		if err := v.w.Restore(kf.GetTick(), tanksOf(kf)); err != nil {
			return false, err
		}
		v.known = true
		return false, nil
	}
	v.rep.Keyframes++
	if d := compare(kf.GetTick(), tanksOf(kf), v.tanks, v.judge); d != nil {
		v.rep.First = d
		return true, nil
	}
	v.rep.CameBack = v.rep.FirstTick != 0
	return v.rep.CameBack, nil // differed between keyframes and came back: say so
}

// maxTanks is the most tanks a server holds (Config.MaxPlayers' limit); a recording with
// more is refused rather than re-simulated (contact costs the square of the count).
const maxTanks = 256

// replayConfig is the world a recording with header h replays in: its arena, rules and
// contact, room for every tank a server holds. Rules a header lacks (or gets wrong) stay
// zero: Verify takes such a file when it judges no shot (it then compares no combat), and
// refuses it otherwise; Load always refuses it.
func replayConfig(h *tankv1.RecordingHeader) (world.Config, error) {
	arena, err := wire.ArenaFromProto(h.GetArena())
	if err != nil {
		return world.Config{}, fmt.Errorf("recording: header arena: %w", err)
	}
	rules, _ := wire.RulesFromProto(h.GetRules())
	// The header's contact says whether the server pushed tanks apart each tick; pushes that
	// clients predicted are in the moves, and a replay applies them as recorded.
	switch {
	case h.GetContact():
		rules.Contact = netcode.ContactServer
	case rules.Contact != netcode.ContactPredicted:
		rules.Contact = netcode.ContactOff
	}
	return world.Config{Arena: arena, Rules: rules, MaxPlayers: maxTanks}, nil
}

// replayed is recorded tick t as the world replays it.
func replayed(t *tankv1.RecordedTick) *world.Recorded {
	r := &world.Recorded{Tick: t.GetTick()}
	if c := t.GetContact(); c > 0 && c <= tankv1.Contact_CONTACT_PREDICTED {
		r.Contact = netcode.ContactMode(c)
	}
	for _, e := range t.GetEvents() {
		r.Events = append(r.Events, world.Event{Player: e.GetPlayerId(), Left: e.GetKind() == tankv1.WorldEvent_KIND_LEFT, Pose: poseFrom(e.GetPose())})
	}
	for _, mv := range t.GetMoves() {
		r.Moves = append(r.Moves, world.AppliedInput{Player: mv.GetPlayerId(), MoveTick: mv.GetMoveTick(),
			Input: netcode.Input{Turn: mv.GetTurn(), Throttle: mv.GetThrottle()}, Duration: time.Duration(mv.GetDurationNs()),
			Push: netcode.Push{X: mv.GetPushX(), Y: mv.GetPushY()}})
	}
	for _, c := range t.GetCombat() {
		r.Combat = append(r.Combat, world.CombatChange{Player: c.GetPlayerId(),
			TankCombat: world.TankCombat{Health: c.GetHealth(), Destroyed: c.GetDestroyed(), RespawnTick: c.GetRespawnTick()}})
	}
	for _, s := range t.GetShots() {
		r.Shots = append(r.Shots, world.JudgedShot{Shooter: s.GetShooterId(), Request: wire.FireFromProto(s.GetFire(), nil),
			Result: wire.ShotResultFromProto(s.GetResult()), Sighted: s.GetSighted()})
	}
	return r
}

// compareShots returns the first difference between the recorded shots of tick that were
// not refused and the same shots judged again (World.Replay judges each of them, in order),
// nil if none.
func compareShots(tick uint32, recorded, judged []world.JudgedShot) *Divergence {
	i := 0
	for _, again := range judged {
		for recorded[i].Result.Verdict == netcode.VerdictRefused {
			i++
		}
		want := recorded[i]
		i++
		w, g := want.Result, again.Result
		switch {
		case w.Verdict != g.Verdict:
			return &Divergence{Tick: tick, Player: want.Shooter, Field: "shot verdict", Want: verdictName(w), Got: verdictName(g)}
		case w.TargetID != g.TargetID:
			return &Divergence{Tick: tick, Player: want.Shooter, Field: "shot target", Want: fmt.Sprint(w.TargetID), Got: fmt.Sprint(g.TargetID)}
		case w.Damage != g.Damage:
			return &Divergence{Tick: tick, Player: want.Shooter, Field: "shot damage", Want: fmt.Sprint(w.Damage), Got: fmt.Sprint(g.Damage)}
		case w.EndX != g.EndX:
			return &Divergence{Tick: tick, Player: want.Shooter, Field: "shot end.x", Want: fmtFloat(w.EndX), Got: fmtFloat(g.EndX)}
		case w.EndY != g.EndY:
			return &Divergence{Tick: tick, Player: want.Shooter, Field: "shot end.y", Want: fmtFloat(w.EndY), Got: fmtFloat(g.EndY)}
		}
	}
	return nil
}

// verdictName is a shot's verdict as a person reads it: "hit", "miss" or "refused
// (cooldown)".
func verdictName(r netcode.ShotResult) string {
	switch r.Verdict {
	case netcode.VerdictHit:
		return "hit"
	case netcode.VerdictMiss:
		return "miss"
	case netcode.VerdictRefused:
		return "refused (" + r.Refusal.Label() + ")"
	}
	return fmt.Sprint("verdict ", int(r.Verdict))
}

// tanksOf is every tank of keyframe kf.
func tanksOf(kf *tankv1.Keyframe) []world.TankState {
	out := make([]world.TankState, 0, len(kf.GetTanks()))
	for _, t := range kf.GetTanks() {
		out = append(out, world.TankState{ID: t.GetPlayerId(), Pose: poseFrom(t.GetPose()), Ack: t.GetAck(),
			TankCombat: world.TankCombat{Health: t.GetHealth(), Destroyed: t.GetDestroyed(), RespawnTick: t.GetRespawnTick()}})
	}
	return out
}

// compare returns the first difference between want and got at the end of tick, nil if
// none; with combat, the tanks' health, wreck and respawn tick are compared too.
func compare(tick uint32, want, got []world.TankState, combat bool) *Divergence {
	for i := 0; i < max(len(want), len(got)); i++ {
		switch {
		case i >= len(want):
			return &Divergence{Tick: tick, Player: got[i].ID, Field: "present", Want: "absent", Got: "present"}
		case i >= len(got):
			return &Divergence{Tick: tick, Player: want[i].ID, Field: "present", Want: "present", Got: "absent"}
		case want[i].ID != got[i].ID:
			return &Divergence{Tick: tick, Field: "player id", Want: fmt.Sprint(want[i].ID), Got: fmt.Sprint(got[i].ID)}
		}
		w, g := want[i], got[i]
		for _, f := range []struct {
			name string
			a, b float64
		}{{"pose.x", w.Pose.X, g.Pose.X}, {"pose.y", w.Pose.Y, g.Pose.Y}, {"pose.heading", w.Pose.Heading, g.Pose.Heading}} {
			if f.a != f.b {
				return &Divergence{Tick: tick, Player: w.ID, Field: f.name, Want: fmtFloat(f.a), Got: fmtFloat(f.b)}
			}
		}
		if w.Ack != g.Ack {
			return &Divergence{Tick: tick, Player: w.ID, Field: "ack", Want: fmt.Sprint(w.Ack), Got: fmt.Sprint(g.Ack)}
		}
		if !combat {
			continue
		}
		for _, f := range []struct {
			name string
			a, b uint32
		}{{"health", w.Health, g.Health}, {"respawn tick", w.RespawnTick, g.RespawnTick}} {
			if f.a != f.b {
				return &Divergence{Tick: tick, Player: w.ID, Field: f.name, Want: fmt.Sprint(f.a), Got: fmt.Sprint(f.b)}
			}
		}
		if w.Destroyed != g.Destroyed {
			return &Divergence{Tick: tick, Player: w.ID, Field: "destroyed", Want: fmt.Sprint(w.Destroyed), Got: fmt.Sprint(g.Destroyed)}
		}
	}
	return nil
}

func fmtFloat(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

func poseFrom(p *tankv1.RecordedPose) netcode.Pose {
	return netcode.Pose{X: p.GetX(), Y: p.GetY(), Heading: p.GetHeading()}
}
