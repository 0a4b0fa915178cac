package recording

import (
	"bytes"
	"errors"
	"io"
	"os"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protodelim"

	tankv1 "tanknet/proto/tank/v1"
)

// rewrite returns the golden recording with edit applied to every record.
func rewrite(t *testing.T, edit func(*tankv1.Record)) []byte {
	t.Helper()
	data, err := os.ReadFile(goldenPath)
	if err != nil {
		t.Fatal(err)
	}
	return rewriteData(t, data, edit)
}

// rewriteData is the recording data with every record (the header first) changed by edit.
func rewriteData(t *testing.T, data []byte, edit func(*tankv1.Record)) []byte {
	t.Helper()
	return keepData(t, data, func(m *tankv1.Record) bool { edit(m); return true })
}

// keepData is the recording data with every record (the header first) changed by edit, and
// only the records after the header for which edit reports true.
func keepData(t *testing.T, data []byte, edit func(*tankv1.Record) bool) []byte {
	t.Helper()
	rd, err := NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	h := &tankv1.Record{Kind: &tankv1.Record_Header{Header: rd.Header}}
	edit(h)
	protodelim.MarshalTo(&out, h)
	for {
		m, err := rd.Next()
		if errors.Is(err, io.EOF) {
			return out.Bytes()
		}
		if err != nil {
			t.Fatal(err)
		}
		if edit(m) {
			protodelim.MarshalTo(&out, m)
		}
	}
}

// One input changed between keyframes: verify names that tick by its state hash, and the
// next keyframe names the player and field.
func TestVerifyNamesTheTickOfAChangedInput(t *testing.T) {
	var player uint32
	data := rewrite(t, func(m *tankv1.Record) {
		if tk := m.GetTick(); tk.GetTick() == 13 && len(tk.GetMoves()) > 0 {
			mv := tk.GetMoves()[0]
			player = mv.GetPlayerId()
			mv.Throttle, mv.Turn = -mv.GetThrottle()-0.5, -mv.GetTurn()-0.5
		}
	})
	rep, err := Verify(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if rep.FirstTick != 13 || rep.First == nil || rep.First.Tick != 20 || rep.First.Player != player {
		t.Fatalf("got %s (first tick %d), want tick 13 and player %d at keyframe 20", rep, rep.FirstTick, player)
	}
	t.Log(rep)
}

// A wrong magic, a newer version, truncation and garbage each give an error naming what
// was wrong, never a panic.
func TestBadFiles(t *testing.T) {
	golden, err := os.ReadFile(goldenPath)
	if err != nil {
		t.Fatal(err)
	}
	newer := rewrite(t, func(m *tankv1.Record) {
		if h := m.GetHeader(); h != nil {
			h.FormatVersion = FormatVersion + 1
		}
	})
	foreign := rewrite(t, func(m *tankv1.Record) {
		if h := m.GetHeader(); h != nil {
			h.Magic = "something-else"
		}
	})
	crowded := rewrite(t, func(m *tankv1.Record) {
		if tk := m.GetTick(); tk.GetTick() == 2 {
			for id := uint32(100); id < 400; id++ {
				tk.Events = append(tk.Events, &tankv1.WorldEvent{Kind: tankv1.WorldEvent_KIND_PLACED, PlayerId: id, Pose: &tankv1.RecordedPose{}})
			}
		}
	})
	for name, c := range map[string]struct {
		data []byte
		want string
	}{
		"empty":     {nil, "empty file"},
		"garbage":   {[]byte("\x05hello world, not a recording"), "at byte 0"},
		"text":      {[]byte("hello world this is text\n"), "truncated record: want 104 bytes, file has 24 (not a tanknet recording"},
		"foreign":   {foreign, "not a tanknet recording"},
		"newer":     {newer, "newer than this tanknet reads"},
		"truncated": {golden[:len(golden)-7], "truncated record"},
		"huge":      {[]byte{0xff, 0xff, 0xff, 0xff, 0x0f}, "record length"},
		"crowded":   {crowded, "more than 256 tanks"},
	} {
		_, err := Verify(bytes.NewReader(c.data))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got error %v, want one saying %q", name, err, c.want)
		}
	}
}

// FuzzReader: no byte string panics or hangs the reader or Verify, which judges a
// recording's shots again when its header says it keeps them (the duel's does).
func FuzzReader(f *testing.F) {
	golden, err := os.ReadFile(goldenPath)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(golden)
	f.Add(golden[:200])
	f.Add(recordDuel(f))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		Verify(bytes.NewReader(data))
	})
}

// Diff names the first tick, player and field where two recordings part.
func TestDiffNamesTheChangedInput(t *testing.T) {
	golden, err := os.ReadFile(goldenPath)
	if err != nil {
		t.Fatal(err)
	}
	changed := rewrite(t, func(m *tankv1.Record) {
		if tk := m.GetTick(); tk.GetTick() == 13 && len(tk.GetMoves()) > 1 {
			tk.GetMoves()[1].Throttle += 0.25
		}
	})
	d, err := Diff(bytes.NewReader(golden), bytes.NewReader(changed))
	if err != nil {
		t.Fatal(err)
	}
	if d == nil || d.Tick != 13 || d.Field != "input throttle" {
		t.Fatalf("got %v, want tick 13's input throttle", d)
	}
	if d, err := Diff(bytes.NewReader(golden), bytes.NewReader(golden)); d != nil || err != nil {
		t.Fatalf("a file against itself: %v, %v", d, err)
	}
}

// TestNewReader_SaysWhatAClientRecordingIs: a client recording given to the server
// recording's reader is named for what it is, with the command that plays it.
func TestNewReader_SaysWhatAClientRecordingIs(t *testing.T) {
	var b bytes.Buffer
	protodelim.MarshalTo(&b, &tankv1.ClientRecordingHeader{Magic: clientRecordingMagic, FormatVersion: 1})
	_, err := NewReader(bytes.NewReader(b.Bytes()))
	if err == nil || !strings.Contains(err.Error(), "client recording") || !strings.Contains(err.Error(), "tankclient -replay") {
		t.Errorf("a client recording: %v, want it named, with tankclient -replay", err)
	}
}

// A recording with no tick, or one that starts after tick 1 with no keyframe to start from,
// has nothing verify could compare: it is refused as Load refuses it, not called exact. So is
// a keyframe before the first tick, which belongs to a tick the file does not hold.
func TestVerifyRefusesARecordingWithNothingToCompare(t *testing.T) {
	golden, err := os.ReadFile(goldenPath)
	if err != nil {
		t.Fatal(err)
	}
	only := func(first uint32, keep func(*tankv1.Record) bool) []byte {
		return keepData(t, golden, func(m *tankv1.Record) bool {
			if h := m.GetHeader(); h != nil {
				h.FirstTick = first
				return true
			}
			return keep(m)
		})
	}
	for _, tc := range []struct {
		name, want string
		data       []byte
	}{
		{"header only", "no tick recorded", only(1, func(*tankv1.Record) bool { return false })},
		{"a keyframe before any tick", "keyframe of tick 10 after tick 10", only(11, func(m *tankv1.Record) bool {
			return m.GetKeyframe().GetTick() == 10 || m.GetTick().GetTick() > 10
		})},
		{"ticks 5 to 9, no keyframe", "starts at tick 5 and has no keyframe", only(5, func(m *tankv1.Record) bool {
			tk := m.GetTick().GetTick()
			return tk >= 5 && tk <= 9
		})},
	} {
		rep, err := Verify(bytes.NewReader(tc.data))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: verify said %s, err %v; want an error saying %q", tc.name, rep, err, tc.want)
		}
		if _, err := Load(bytes.NewReader(tc.data)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Load err %v; want one saying %q", tc.name, err, tc.want)
		}
	}
}
