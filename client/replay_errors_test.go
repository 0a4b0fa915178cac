package client

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/encoding/protodelim"

	"tanknet/netcode"
	tankv1 "tanknet/proto/tank/v1"
	"tanknet/wire"
)

// recordScripted records 1 s of a Game driven by the scripted server of feed_test.go, and
// returns the recording and how many frames it ran.
func recordScripted(t *testing.T) ([]byte, int) {
	t.Helper()
	return recordScriptedLong(t, time.Second)
}

// recordScriptedFor is recordScripted for a length of time of its own.
func recordScriptedFor(t testing.TB, length time.Duration) []byte {
	data, _ := recordScriptedLong(t, length)
	return data
}

func recordScriptedLong(t testing.TB, length time.Duration) ([]byte, int) {
	t.Helper()
	arena := netcode.DefaultArena()
	link := &scriptLink{welcome: wire.Welcome{PlayerID: 1, Arena: arena, Rules: netcode.DefaultRules()}}
	start := time.Unix(1000, 0)
	srv := &scriptedServer{arena: arena, link: link, latency: 40 * time.Millisecond, me: netcode.Pose{X: 10, Y: 10}}
	g := NewGame(link, DefaultOptions(), start)
	var rec bytes.Buffer
	if err := g.RecordTo(&rec); err != nil {
		t.Fatal(err)
	}
	frames := 0
	for now := start; now.Before(start.Add(length)); now = now.Add(time.Second / 60) {
		frames++
		srv.serve(now, func(tick uint32) netcode.Pose { return netcode.Pose{X: 5 + 0.1*float64(tick), Y: 30} })
		if err := g.Update(now, netcode.Input{Throttle: 1}); err != nil {
			t.Fatal(err)
		}
	}
	if err := g.StopRecording(); err != nil {
		t.Fatal(err)
	}
	return rec.Bytes(), frames
}

// replayAll steps a recording to its end and returns how many frames it had.
func replayAll(data []byte) (int, error) {
	p, err := OpenReplay(bytes.NewReader(data), time.Unix(0, 0))
	if err != nil {
		return 0, err
	}
	err = p.StepToEnd()
	return p.Frames(), err
}

func header(t *testing.T, h *tankv1.ClientRecordingHeader) []byte {
	t.Helper()
	var b bytes.Buffer
	if _, err := protodelim.MarshalTo(&b, h); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestReplay_BadFilesSayWhatAndWhere: an empty file, another kind of file, a newer version,
// a damaged or cut-short recording each get an error saying what is wrong (and at which
// byte, where that helps), never a panic; the good recording replays to its end.
func TestReplay_BadFilesSayWhatAndWhere(t *testing.T) {
	good, frames := recordScripted(t)
	n, err := replayAll(good)
	if err != nil || n != frames {
		t.Fatalf("the good recording: %d frames, %v; want %d and no error", n, err, frames)
	}
	welcome := wire.WelcomeToProto(wire.Welcome{PlayerID: 1, Arena: netcode.DefaultArena(), Rules: netcode.DefaultRules()})
	damaged := bytes.Clone(good)
	damaged[len(damaged)/2] ^= 0xff
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "empty file"},
		{"text", []byte("hello, this is not a recording at all"), "client recording: header: byte 0"},
		{"another magic", header(t, &tankv1.ClientRecordingHeader{Magic: "tanknet server recording", FormatVersion: 1, Welcome: welcome}), "not a tanknet client recording"},
		{"newer", header(t, &tankv1.ClientRecordingHeader{Magic: wire.ClientRecordingMagic, FormatVersion: wire.ClientRecordingVersion + 1, Welcome: welcome, OptionsJson: []byte("{}")}), "format version 2"},
		{"no welcome", header(t, &tankv1.ClientRecordingHeader{Magic: wire.ClientRecordingMagic, FormatVersion: 1}), "header's welcome"},
		{"truncated", good[:len(good)-3], "ends inside a record"},
	} {
		_, err := replayAll(c.data)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error saying %q", c.name, err, c.want)
		}
	}
	// A flipped byte may still decode (protobuf has no checksum); it must not panic, and
	// an error must say which frame.
	if _, err := replayAll(damaged); err != nil && !strings.Contains(err.Error(), "frame") {
		t.Errorf("damaged: %v, want the error to name the frame", err)
	}
}

// FuzzClientRecording feeds arbitrary bytes to the recording reader and a Game: errors
// are fine, panics and hangs are not.
func FuzzClientRecording(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte("tanknet client recording"))
	arena := netcode.DefaultArena()
	link := &scriptLink{welcome: wire.Welcome{PlayerID: 1, Arena: arena, Rules: netcode.DefaultRules()}}
	g := NewGame(link, DefaultOptions(), time.Unix(1000, 0))
	var rec bytes.Buffer
	if err := g.RecordTo(&rec); err == nil {
		for i := range 3 {
			_ = g.Update(time.Unix(1000, int64(i)*int64(time.Second/60)), netcode.Input{Throttle: 1})
		}
		if g.StopRecording() == nil {
			f.Add(rec.Bytes())
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = replayAll(data)
	})
}

// TestReplay_SaysWhatAServerRecordingIs: a server recording given to -replay is named for
// what it is, with the command that reads it.
func TestReplay_SaysWhatAServerRecordingIs(t *testing.T) {
	data, err := os.ReadFile("../server/recording/testdata/golden.rec")
	if err != nil {
		t.Fatal(err)
	}
	_, err = OpenReplay(bytes.NewReader(data), time.Unix(0, 0))
	if err == nil || !strings.Contains(err.Error(), "server recording") || !strings.Contains(err.Error(), "tankreplay verify") {
		t.Errorf("a server recording: %v, want it named, with tankreplay verify", err)
	}
}
