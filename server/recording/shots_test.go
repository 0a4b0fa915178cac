package recording

import (
	"bytes"
	"io"
	"log/slog"
	"math"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/encoding/protodelim"
	"google.golang.org/protobuf/proto"

	"tanknet/netcode"
	tankv1 "tanknet/proto/tank/v1"
	"tanknet/server"
	"tanknet/world"
)

// shooterClient answers for a test tank's client: a round trip, and with interest
// management every tank sent but player 3.
type shooterClient struct{}

func (shooterClient) InputMode() world.InputMode           { return world.ModeServerDefault }
func (shooterClient) RTT() time.Duration                   { return 150 * time.Millisecond }
func (shooterClient) Sent(id, _ uint32) bool               { return id != 3 }
func (shooterClient) Arrival(uint32) (time.Duration, bool) { return 0, false }

// recordDuel runs a world as a server would for 160 ticks, with interest management:
// player 1 stands at (6, 12.5) facing east and fires at player 2, who drives back and forth
// across its line of fire 6 units away. Player 3 stands in that line, halfway, but is never
// sent to player 1, so no shot may strike it. Every third shot is without lag compensation;
// the others name views of player 2 from 2 to 14 ticks old; now and then a second Fire
// comes a tick after the first (refused: cooldown). Player 2 is destroyed and respawns. It
// returns the recording, with a keyframe every 20 ticks.
func recordDuel(t testing.TB) []byte {
	t.Helper()
	scfg := server.DefaultConfig()
	scfg.Rules.Contact = netcode.ContactOff
	w := scriptedWorld(scfg, true)
	var buf bytes.Buffer
	rec := NewRecorder(&buf, scfg, 20, slog.New(slog.NewTextHandler(io.Discard, nil)))
	shooter, err := w.Join(1, shooterClient{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	target, err := w.Join(2, shooterClient{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Join(3, shooterClient{}, 0); err != nil {
		t.Fatal(err)
	}
	w.Place(1, netcode.Pose{X: 6, Y: 12.5})
	w.Place(2, netcode.Pose{X: 12, Y: 12.5, Heading: math.Pi / 2})
	w.Place(3, netcode.Pose{X: 9, Y: 12.5, Heading: math.Pi / 2})
	for tick := uint32(1); tick <= 160; tick++ {
		throttle := 0.3
		if tick/10%2 == 1 {
			throttle = -0.3
		}
		w.Queue(shooter, netcode.PendingInput{Tick: tick, Duration: netcode.StepInterval})
		w.Queue(target, netcode.PendingInput{Tick: tick, Input: netcode.Input{Throttle: throttle}, Duration: netcode.StepInterval})
		if tick > 35 && tick%12 == 0 || tick > 35 && tick%36 == 1 {
			req := netcode.ShotRequest{MoveTick: tick, LagCompensation: tick%36 != 0}
			if req.LagCompensation {
				age := 2 + tick/12%4*4
				req.Views = []netcode.TankView{{ID: 2, View: netcode.View{From: tick - age - 1, To: tick - age, Fraction: 0.5}}}
			}
			w.Fire(shooter, req)
		}
		out := w.Tick(time.Duration(tick) * netcode.StepInterval)
		rec.Tick(server.TickRecord{Outcome: *out})
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// shotsIn tallies the recorded shots by verdict, and counts the ticks that recorded a wreck.
func shotsIn(t *testing.T, data []byte) (verdicts map[tankv1.ShotVerdict]int, wrecks int) {
	t.Helper()
	rd, err := NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	verdicts = map[tankv1.ShotVerdict]int{}
	for {
		m, err := rd.Next()
		if err == io.EOF {
			return verdicts, wrecks
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range m.GetTick().GetShots() {
			verdicts[s.GetResult().GetVerdict()]++
		}
		for _, c := range m.GetTick().GetCombat() {
			if c.GetDestroyed() {
				wrecks++
			}
		}
	}
}

// withHeader returns data with its header changed by edit.
func withHeader(t *testing.T, data []byte, edit func(h *tankv1.RecordingHeader)) []byte {
	t.Helper()
	rd, err := NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	h := proto.Clone(rd.Header).(*tankv1.RecordingHeader)
	edit(h)
	var buf bytes.Buffer
	if _, err := protodelim.MarshalTo(&buf, &tankv1.Record{Kind: &tankv1.Record_Header{Header: h}}); err != nil {
		t.Fatal(err)
	}
	buf.Write(data[rd.Offset():])
	return buf.Bytes()
}

// A recording keeps every shot, and Verify judges each that was not refused again, with
// lag compensation and without: the same verdicts, and the same health at every keyframe.
func TestVerify_JudgesTheShotsAgain(t *testing.T) {
	data := recordDuel(t)
	verdicts, wrecks := shotsIn(t, data)
	if verdicts[tankv1.ShotVerdict_SHOT_VERDICT_HIT] < 4 || verdicts[tankv1.ShotVerdict_SHOT_VERDICT_REFUSED] == 0 || wrecks == 0 {
		t.Fatalf("the duel recorded %v and %d wrecks; the test wants 4 hits or more, a refusal and a wreck", verdicts, wrecks)
	}
	rep, err := Verify(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	judged := verdicts[tankv1.ShotVerdict_SHOT_VERDICT_HIT] + verdicts[tankv1.ShotVerdict_SHOT_VERDICT_MISS]
	t.Logf("recorded %v, %d wrecks; verify: %s, %d judged again", verdicts, wrecks, rep, rep.Shots)
	if !rep.Exact() || rep.Shots != judged || rep.Keyframes < 7 {
		t.Fatalf("verify: %s, %d shots judged again (%d were hits or misses), %d keyframes", rep, rep.Shots, judged, rep.Keyframes)
	}
}

// A changed combat rule is found at the first shot it changes, naming the shooter and what
// changed; a recording without its shots (written before they were kept) applies the combat
// it recorded and finds nothing.
func TestVerify_AChangedCombatRuleIsFoundAtTheShot(t *testing.T) {
	data := recordDuel(t)
	first := uint32(0) // the first hit's tick
	rd, err := NewReader(bytes.NewReader(data))
	var rep Report
	if err != nil {
		t.Fatal(err)
	}
	for first == 0 {
		m, err := rd.Next()
		if err != nil {
			t.Fatalf("no hit recorded: %v", err)
		}
		for _, s := range m.GetTick().GetShots() {
			if s.GetResult().GetVerdict() == tankv1.ShotVerdict_SHOT_VERDICT_HIT {
				first = m.GetTick().GetTick()
			}
		}
	}
	for _, tc := range []struct {
		name  string
		edit  func(h *tankv1.RecordingHeader)
		field string
	}{
		{"more damage", func(h *tankv1.RecordingHeader) { h.Rules.Damage++ }, "shot damage"},
		{"a shorter range", func(h *tankv1.RecordingHeader) { h.Rules.ShotRange = 3 }, "shot verdict"},
	} {
		changed := withHeader(t, data, tc.edit)
		rep, err := Verify(bytes.NewReader(changed))
		if err != nil {
			t.Fatal(err)
		}
		if rep.Exact() || rep.First == nil || rep.First.Tick != first || rep.First.Player != 1 || rep.First.Field != tc.field {
			t.Errorf("%s: %s; want it found at tick %d, player 1's %s", tc.name, rep, first, tc.field)
		}
		old := withHeader(t, changed, func(h *tankv1.RecordingHeader) { h.Shots = false })
		if rep, err := Verify(bytes.NewReader(old)); err != nil || !rep.Exact() || rep.Shots != 0 {
			t.Errorf("%s, shots not kept: %s, %d judged, %v; want exact with none judged (combat as recorded)", tc.name, rep, rep.Shots, err)
		}
	}
	// A changed input shows first in the state hash; the shot that follows differs too, but
	// the keyframe after it names the cause: player 2's input at tick 34 reversed moves it
	// out of tick 36's line of fire, and the keyframe of tick 40 has it elsewhere.
	moved := rewriteData(t, data, func(m *tankv1.Record) {
		for _, mv := range m.GetTick().GetMoves() {
			if m.GetTick().GetTick() == 34 && mv.GetPlayerId() == 2 {
				mv.Throttle = -mv.Throttle
			}
		}
	})
	rep, err = Verify(bytes.NewReader(moved))
	if err != nil || rep.FirstTick != 34 || rep.First == nil || rep.First.Tick != 40 || rep.First.Player != 2 || !strings.HasPrefix(rep.First.Field, "pose.") {
		t.Errorf("an input changed at tick 34: %s, %v; want the state hash from tick 34, then tick 40's keyframe naming player 2's pose", rep, err)
	}
	if !strings.Contains((&Divergence{Tick: 3, Player: 1, Field: "shot verdict", Want: "hit", Got: "miss"}).String(), "shot verdict: hit vs miss") {
		t.Error("a shot's divergence does not read as the others do")
	}
}

// A refused shot is recorded without its views, however many its Fire named: a client
// whose Fires are refused cannot grow the recording by naming every tank in each.
func TestRecording_ARefusedShotKeepsNoViews(t *testing.T) {
	views := make([]netcode.TankView, 255)
	for i := range views {
		views[i] = netcode.TankView{ID: uint32(i + 2), View: netcode.View{From: 1 << 20, To: 1<<20 + 1, Fraction: 0.3}}
	}
	shot := world.JudgedShot{Shooter: 1, Request: netcode.ShotRequest{MoveTick: 1 << 20, LagCompensation: true, Views: views},
		Result: netcode.ShotResult{MoveTick: 1 << 20, Verdict: netcode.VerdictRefused, Refusal: netcode.RefusalCooldown, ServerTick: 1<<20 + 3}}
	var kept server.TickRecord
	copyTick(&kept, &server.TickRecord{Outcome: world.Outcome{Tick: 1<<20 + 3, Shots: []world.JudgedShot{shot}}})
	if n := proto.Size(TickOf(kept).GetShots()[0]); n >= 40 || len(kept.Shots) != 1 || kept.Shots[0].Result.Refusal != netcode.RefusalCooldown {
		t.Errorf("a refused shot naming 255 views took %d bytes (kept %+v); want under 40, its verdict kept", n, kept.Shots)
	}
	shot.Result.Verdict = netcode.VerdictMiss // an accepted shot keeps them: it is judged again
	copyTick(&kept, &server.TickRecord{Outcome: world.Outcome{Tick: 1<<20 + 3, Shots: []world.JudgedShot{shot}}})
	if got := len(TickOf(kept).GetShots()[0].GetFire().GetViews()); got != len(views) {
		t.Errorf("an accepted shot kept %d of its %d views", got, len(views))
	}
}

// A recorded shot that cannot be judged again is named, not followed: one of a player who
// is not in the world stops Verify with the byte offset, as do rules that do not validate,
// and one whose views are nonsense is judged (refused) and reported as differing from its
// recorded verdict.
func TestVerify_BadShotsAreFoundNotFollowed(t *testing.T) {
	data := recordDuel(t)
	firstShot := func(edit func(s *tankv1.RecordedShot)) []byte {
		done := false
		return rewriteData(t, data, func(m *tankv1.Record) {
			for _, s := range m.GetTick().GetShots() {
				if !done && s.GetResult().GetVerdict() != tankv1.ShotVerdict_SHOT_VERDICT_REFUSED {
					edit(s)
					done = true
				}
			}
		})
	}
	stranger := firstShot(func(s *tankv1.RecordedShot) { s.ShooterId = 99 })
	if _, err := Verify(bytes.NewReader(stranger)); err == nil || !strings.Contains(err.Error(), "shot of player 99") || !strings.Contains(err.Error(), "at byte") {
		t.Errorf("a shot of a player not in the world: %v", err)
	}
	noRules := withHeader(t, data, func(h *tankv1.RecordingHeader) { h.Rules.MaxHealth = 0 })
	if _, err := Verify(bytes.NewReader(noRules)); err == nil || !strings.Contains(err.Error(), "header rules") {
		t.Errorf("shots to judge by rules that do not validate: %v; want the header's rules named", err)
	}
	nonsense := firstShot(func(s *tankv1.RecordedShot) {
		s.Fire.LagCompensation = true
		s.Fire.Views = []*tankv1.TankView{{PlayerId: 2, FromTick: 1 << 31, ToTick: 1<<31 + 2, Fraction: math.NaN()}}
	})
	rep, err := Verify(bytes.NewReader(nonsense))
	if err != nil || rep.First == nil || rep.First.Field != "shot verdict" || !strings.HasPrefix(rep.First.Got, "refused") {
		t.Errorf("a shot with nonsense views: %s, %v; want its verdict found to differ (refused)", rep, err)
	}
}

// Diff compares the shots two recordings judged, shot by shot.
func TestDiff_NamesTheShotThatDiffers(t *testing.T) {
	data := recordDuel(t)
	changed, at := false, uint32(0)
	other := rewriteData(t, data, func(m *tankv1.Record) {
		if s := m.GetTick().GetShots(); len(s) > 0 && !changed {
			s[0].Result.Damage++
			changed, at = true, m.GetTick().GetTick()
		}
	})
	d, err := Diff(bytes.NewReader(data), bytes.NewReader(other))
	if err != nil || d == nil || d.Tick != at || d.Player != 1 || d.Field != "shot 0" ||
		!strings.Contains(d.Want, "hit target 2 damage 25") || !strings.Contains(d.Got, "hit target 2 damage 26") {
		t.Errorf("a shot's damage changed at tick %d: %v, %v; want that tick's shot 0 of player 1, its damage 25 vs 26", at, d, err)
	}
	if d, err := Diff(bytes.NewReader(data), bytes.NewReader(data)); err != nil || d != nil {
		t.Errorf("a recording against itself: %v, %v", d, err)
	}
}

// scriptedWorld is the world a server running scfg runs, for a test that scripts its inputs
// and records its ticks itself; interest turns on interest management.
func scriptedWorld(scfg server.Config, interest bool) *world.World {
	return world.New(world.Config{Arena: scfg.Arena, Rules: scfg.Rules, MaxPlayers: 16, InputLead: 120, Interest: interest,
		MaxInputDuration: scfg.MaxInputDuration, TimeSlack: scfg.TimeSlack, MaxSimPerTick: scfg.MaxSimPerTick,
		MaxSimPerSecond: scfg.MaxSimPerSecond})
}
