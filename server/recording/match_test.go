package recording

import (
	"bytes"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"strings"
	"tanknet/world"
	"testing"

	"tanknet/netcode"
	"tanknet/server"
)

// hashOfStates is the state hash of tanks as At returns them.
func hashOfStates(ts []world.TankState) uint64 {
	ids, poses, acks := make([]uint32, len(ts)), make([]netcode.Pose, len(ts)), make([]uint32, len(ts))
	for i, t := range ts {
		ids[i], poses[i], acks[i] = t.ID, t.Pose, t.Ack
	}
	return stateHash(ids, poses, acks)
}

// TestMatch_AtAnyTickInAnyOrder: the golden recording rebuilt at every tick, visited in a
// shuffled order (so each one is reached from a keyframe, from the start or from a tick
// before it), has the state hash the server recorded for that tick, and at a keyframe's
// tick the keyframe's health.
func TestMatch_AtAnyTickInAnyOrder(t *testing.T) {
	data, err := os.ReadFile(goldenPath)
	if err != nil {
		t.Fatal(err)
	}
	m, err := Load(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if m.First() != 1 || m.Last() < 50 || len(m.keys) < 3 {
		t.Fatalf("golden: ticks %d..%d, %d keyframes; want a few seconds from tick 1 with keyframes", m.First(), m.Last(), len(m.keys))
	}
	order := rand.New(rand.NewPCG(1, 2)).Perm(int(m.Last()))
	var ts []world.TankState
	for _, i := range order {
		tick := uint32(i) + 1
		var got uint32
		if ts, got, err = m.At(tick, ts[:0]); err != nil || got != tick {
			t.Fatalf("At(%d) = tick %d, %v", tick, got, err)
		}
		if h, want := hashOfStates(ts), m.ticks[tick-1].GetStateHash(); h != want {
			t.Fatalf("At(%d): state hash %x, the server recorded %x", tick, h, want)
		}
	}
	for _, kf := range m.keys {
		ts, _, _ = m.At(kf.GetTick(), ts[:0])
		for i, kt := range kf.GetTanks() {
			if c := ts[i].TankCombat; c.Health != kt.GetHealth() || c.Destroyed != kt.GetDestroyed() || ts[i].ID != kt.GetPlayerId() {
				t.Errorf("At(%d) tank %d: %+v, keyframe has health %d destroyed %v", kf.GetTick(), ts[i].ID, c, kt.GetHealth(), kt.GetDestroyed())
			}
		}
	}
	// Between the start and the first keyframe every tank has just joined: it is whole.
	ts, _, _ = m.At(m.keys[0].GetTick()-1, ts[:0])
	for _, tk := range ts {
		if tk.Health != m.Rules().MaxHealth || tk.Destroyed {
			t.Errorf("tank %d before the first keyframe: %+v, want a whole tank (health %d)", tk.ID, tk.TankCombat, m.Rules().MaxHealth)
		}
	}
	if _, got, _ := m.At(m.Last()+100, nil); got != m.Last() {
		t.Errorf("At past the end shows tick %d, want the last, %d", got, m.Last())
	}
}

// TestLoad_BadFiles: a truncated recording, an empty one and a client recording each get an
// error saying what is wrong, never a panic.
func TestLoad_BadFiles(t *testing.T) {
	data, err := os.ReadFile(goldenPath)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"cut inside a record", data[:len(data)-3], "truncated record"},
		{"empty", nil, "empty file"},
		{"header only", data[:headerLen(t, data)], "no tick"},
		{"a client recording", []byte("\x20\x0a\x18tanknet client recording"), "client recording"},
	} {
		if _, err := Load(bytes.NewReader(c.data)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error saying %q", c.name, err, c.want)
		}
	}
}

// headerLen returns the length in bytes of a recording's header record.
func headerLen(t *testing.T, data []byte) int {
	rd, err := NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	return int(rd.Offset())
}

// TestMatch_CombatBetweenKeyframes: a hit, a wreck and a respawn between keyframes are in the
// recording (RecordedTick.combat), so At shows each tank's health and wreck as the server had
// them at every tick, reached forward or back.
func TestMatch_CombatBetweenKeyframes(t *testing.T) {
	whole := world.TankCombat{Health: 100}
	combat := func(tick uint32) world.TankCombat { // player 2's story; player 1 stays whole
		switch {
		case tick >= 20:
			return whole // respawned
		case tick >= 8:
			return world.TankCombat{Destroyed: true, RespawnTick: 20}
		case tick >= 5:
			return world.TankCombat{Health: 75}
		}
		return whole
	}
	var buf bytes.Buffer
	cfg := server.DefaultConfig()
	rec := NewRecorder(&buf, cfg, 100, slog.New(slog.NewTextHandler(io.Discard, nil)))
	at := netcode.Pose{X: 5, Y: 5}
	for tick := uint32(1); tick <= 30; tick++ {
		r := server.TickRecord{Outcome: world.Outcome{Tick: tick, IDs: []uint32{1, 2}, Poses: []netcode.Pose{at, at}, Acks: []uint32{0, 0},
			Combat: []world.TankCombat{whole, combat(tick)}}}
		switch tick {
		case 1:
			r.Events = []world.Event{{Player: 1, Pose: at}, {Player: 2, Pose: at}}
		case 20:
			r.Events = []world.Event{{Player: 2, Pose: at}}
		}
		rec.Tick(r)
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	m, err := Load(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	for _, tick := range []uint32{30, 4, 5, 12, 7, 8, 19, 20, 1, 25} {
		ts, _, err := m.At(tick, nil)
		if err != nil || len(ts) != 2 {
			t.Fatalf("At(%d): %v, %v", tick, ts, err)
		}
		want := combat(tick)
		if got := ts[1].TankCombat; got != (world.TankCombat{Health: want.Health, Destroyed: want.Destroyed, RespawnTick: want.RespawnTick}) || ts[0].Health != 100 {
			t.Errorf("At(%d): player 2 %+v (player 1 health %d), the server had %+v", tick, got, ts[0].Health, want)
		}
	}
}

// FuzzMatch: whatever bytes Load accepts, At rebuilds any tick of without a panic or a hang.
func FuzzMatch(f *testing.F) {
	golden, err := os.ReadFile(goldenPath)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(golden, uint32(7))
	f.Add(golden[:300], uint32(1))
	f.Fuzz(func(t *testing.T, data []byte, tick uint32) {
		m, err := Load(bytes.NewReader(data))
		if err != nil {
			return
		}
		for _, at := range []uint32{tick, m.First(), m.Last(), tick / 2} {
			m.At(at, nil)
		}
	})
}
