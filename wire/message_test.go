package wire

import (
	"bytes"
	"errors"
	"io"
	"reflect"
	"testing"
	"time"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"tanknet/netcode"
	tankv1 "tanknet/proto/tank/v1"
)

// sampleServerMessages is one of every ServerMessage type, with the fields that travel set.
func sampleServerMessages() map[string]ServerMessage {
	tank := TankOf(3, netcode.State{Tick: 70, Pose: netcode.Pose{X: 4.5, Y: 2, Heading: 1}, Ack: 66}, Combat{Health: 75, Kills: 2})
	tank.Input = netcode.InputReport{Wait: 12 * time.Millisecond, Waiting: 1, Starved: true}
	return map[string]ServerMessage{
		"welcome": Welcome{PlayerID: 3, Arena: netcode.DefaultArena(), Rules: netcode.DefaultRules(), ServerTick: 900,
			MaxInputLead: 40, Lane: LaneDatagram, Room: "blue", AwayTimeout: 90 * time.Second},
		"reject":   Reject{Code: RejectNoRoom, Reason: "no room"},
		"snapshot": &Snapshot{Header: Header{Tick: 70}, Tanks: []Tank{tank}},
		"delta chunk": &Snapshot{Header: Header{Tick: 71, Left: []uint32{4, 9}}, Index: 1, Count: 3, Tanks: []Tank{tank},
			Baseline: 68, Unchanged: []uint32{1, 5}, Moved: []int32{2, -1, 3, 0}},
		"roster": Roster{Joined: []Player{{ID: 2, Name: "bob"}}, Left: []Departure{{ID: 1, Reason: "timed out"}}},
		"shot result": ShotResult{MoveTick: 40, ServerTick: 44, Verdict: netcode.VerdictHit, TargetID: 2,
			TargetPose: netcode.Pose{X: 1, Y: 2, Heading: 3}, OriginX: 4, OriginY: 5, EndX: 6, EndY: 7, Damage: 25},
		"shot":       Shot{ShooterID: 2, ServerTick: 44, OriginX: 1, OriginY: 2, EndX: 3, EndY: 4, TargetID: 1},
		"kill":       Kill{KillerID: 2, VictimID: 1, ServerTick: 44},
		"pong":       Pong{ClientTimeUs: 1 << 40, ServerTick: 12},
		"disconnect": Disconnect{Code: DisconnectCannotKeepUp, Reason: "cannot keep up"},
		"rules changed": RulesChanged{Rules: func() netcode.Rules {
			r := netcode.DefaultRules()
			r.Contact = netcode.ContactServer
			return r
		}(), FromTick: 901},
	}
}

// sameMessage reports whether two decoded messages say the same, field for field.
func sameMessage(a, b ServerMessage) bool { return reflect.DeepEqual(a, b) }

// TestMessage_RoundTrip: every ServerMessage type goes to its envelope, through the wire and back
// unchanged, so a client recording (which stores the envelopes) replays what a Game was given.
func TestMessage_RoundTrip(t *testing.T) {
	for name, m := range sampleServerMessages() {
		t.Run(name, func(t *testing.T) {
			got, err := ServerMessageFromProto(throughWire(t, ServerMessageToProto(m)))
			if err != nil || !sameMessage(got, m) {
				t.Errorf("ServerMessageFromProto(ServerMessageToProto(%+v)) = %+v, %v", m, got, err)
			}
		})
	}
}

// TestMessageFromProto_Checks: a snapshot carrying a tank of another tick or of player 0
// is refused, a bad Welcome is refused, and an empty envelope decodes to nothing.
func TestMessageFromProto_Checks(t *testing.T) {
	snap := func(ps ...*tankv1.PlayerState) *tankv1.ServerMessage {
		return &tankv1.ServerMessage{Kind: &tankv1.ServerMessage_Snapshot{Snapshot: &tankv1.Snapshot{ServerTick: 9, Players: ps}}}
	}
	for name, tc := range map[string]struct {
		m    *tankv1.ServerMessage
		want error
	}{
		"state of another tick": {snap(&tankv1.PlayerState{PlayerId: 1, Tick: 8}), errStateTick},
		"state of player 0":     {snap(&tankv1.PlayerState{PlayerId: 0, Tick: 9}), errStatePlayerID},
	} {
		if _, err := ServerMessageFromProto(tc.m); !errors.Is(err, tc.want) {
			t.Errorf("%s: ServerMessageFromProto = %v, want %v", name, err, tc.want)
		}
	}
	noArena := &tankv1.ServerMessage{Kind: &tankv1.ServerMessage_Welcome{Welcome: &tankv1.Welcome{PlayerId: 1}}}
	if _, err := ServerMessageFromProto(noArena); err == nil {
		t.Error("ServerMessageFromProto accepted a Welcome without an arena")
	}
	w := WelcomeToProto(Welcome{PlayerID: 1, Arena: netcode.DefaultArena(), Rules: netcode.DefaultRules()})
	w.PlayerId = 0
	if _, err := WelcomeFromProto(w); err == nil {
		t.Error("WelcomeFromProto accepted player id 0")
	}
	for ms, ok := range map[uint32]bool{0: true, 50: true, 33: false, 100: false} {
		w := WelcomeToProto(Welcome{PlayerID: 1, Arena: netcode.DefaultArena(), Rules: netcode.DefaultRules()})
		w.TickIntervalMs = ms
		if _, err := WelcomeFromProto(w); (err == nil) != ok {
			t.Errorf("WelcomeFromProto(tick interval %d ms) = %v, want accepted %v (the client's steps are 50 ms)", ms, err, ok)
		}
	}
	for _, m := range []*tankv1.ServerMessage{nil, {}} {
		if got, err := ServerMessageFromProto(m); got != nil || err != nil {
			t.Errorf("ServerMessageFromProto(%v) = %v, %v, want nothing", m, got, err)
		}
	}
	noRules := &tankv1.ServerMessage{Kind: &tankv1.ServerMessage_RulesChanged{RulesChanged: &tankv1.RulesChanged{FromTick: 5}}}
	if got, err := ServerMessageFromProto(noRules); err == nil {
		t.Errorf("ServerMessageFromProto(RulesChanged without rules) = %+v, want an error", got)
	}
	bad := RulesChangedToProto(RulesChanged{Rules: netcode.DefaultRules(), FromTick: 5})
	bad.Rules.CooldownMs = 30 // not a whole tick
	if got, err := RulesChangedFromProto(bad); err == nil {
		t.Errorf("RulesChangedFromProto(a 30 ms cooldown) = %+v, want an error", got)
	}
}

// TestMessageFromProto_UnknownKindSkipped: a ServerMessage of a kind this build does not
// know (here field 99, as a newer server might send) decodes to nothing and no error, so a
// client skips it and plays on; the same holds for a RulesChanged read by a build before
// it, which is what PROTOCOL.md §3 promises old clients.
func TestMessageFromProto_UnknownKindSkipped(t *testing.T) {
	b := protowire.AppendTag(nil, 99, protowire.BytesType)
	b = protowire.AppendBytes(b, []byte{0x08, 0x01})
	var m tankv1.ServerMessage
	if err := proto.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	if got, err := ServerMessageFromProto(&m); got != nil || err != nil {
		t.Errorf("ServerMessageFromProto(field 99) = %v, %v, want nothing and no error", got, err)
	}
}

// TestRejectCode_Names: every wire reject code has a lower-case name without its prefix, and
// a code this build does not know says its number.
func TestRejectCode_Names(t *testing.T) {
	if got := RejectServerFull.String(); got != "server_full" {
		t.Errorf("RejectServerFull.String() = %q", got)
	}
	if got := RejectCode(99).String(); got != "code 99" {
		t.Errorf("RejectCode(99).String() = %q", got)
	}
	for v := range tankv1.RejectCode_name {
		r := RejectFromProto(RejectToProto(Reject{Code: RejectCode(v), Reason: "x"}))
		if r.Code != RejectCode(v) || r.Reason != "x" {
			t.Errorf("Reject %d came back as %+v", v, r)
		}
	}
}

// TestClientRecording_RoundTrip: a header and frames written are read back as they were,
// every arrival's message included, and the reader ends cleanly with io.EOF.
func TestClientRecording_RoundTrip(t *testing.T) {
	var buf bytes.Buffer
	h := RecordingHeader{Welcome: Welcome{PlayerID: 1, Arena: netcode.DefaultArena(), Rules: netcode.DefaultRules(), Lane: LaneDatagram},
		OptionsJSON: []byte(`{"a":1}`)}
	if err := WriteRecordingHeader(&buf, h); err != nil {
		t.Fatal(err)
	}
	var frames []RecordingFrame
	for _, m := range sampleServerMessages() {
		frames = append(frames, RecordingFrame{At: time.Duration(len(frames)+1) * time.Millisecond,
			Input: netcode.Input{Turn: -1, Throttle: 0.5}, Fire: true, Arrivals: []Arrival{{At: time.Millisecond, Datagram: true, Msg: m}}})
	}
	frames[0].LinkError, frames[1].Network, frames[2].InputOnArrival, frames[2].LagComp = "gone", "wifi", true, true
	var fw FrameWriter
	for i := range frames {
		if err := fw.Write(&buf, &frames[i]); err != nil {
			t.Fatal(err)
		}
	}
	rr := NewRecordingReader(&buf)
	gotH, err := rr.ReadHeader()
	if err != nil || !reflect.DeepEqual(gotH, h) {
		t.Fatalf("ReadHeader = %+v, %v; want %+v", gotH, err, h)
	}
	var f RecordingFrame
	for i := range frames {
		if err := rr.ReadFrame(&f, i+1); err != nil || !reflect.DeepEqual(f, frames[i]) {
			t.Fatalf("frame %d: %+v, %v; want %+v", i+1, f, err, frames[i])
		}
	}
	if err := rr.ReadFrame(&f, len(frames)+1); !errors.Is(err, io.EOF) {
		t.Errorf("after the last frame: %v, want io.EOF", err)
	}
}

// TestCodeLists: RejectCodes and Refusals name every value the protocol defines but the
// unspecified one, each once, in order, with distinct labels.
func TestCodeLists(t *testing.T) {
	codes := RejectCodes()
	if len(codes) != len(tankv1.RejectCode_name)-1 || codes[0] != RejectVersionMismatch || codes[len(codes)-1] != RejectNoRoom {
		t.Errorf("RejectCodes() = %v", codes)
	}
	refusals := Refusals()
	if len(refusals) != len(tankv1.ShotRefusal_name)-1 || refusals[0] != netcode.RefusalBadView || refusals[len(refusals)-1] != netcode.RefusalDestroyed {
		t.Errorf("Refusals() = %v", refusals)
	}
	codeLabels, refusalLabels := map[string]bool{}, map[string]bool{}
	for _, c := range codes {
		codeLabels[c.String()] = true
	}
	for _, r := range refusals {
		refusalLabels[r.Label()] = true
	}
	if len(codeLabels) != len(codes) || len(refusalLabels) != len(refusals) {
		t.Errorf("%d distinct labels for %d codes, %d for %d refusals", len(codeLabels), len(codes), len(refusalLabels), len(refusals))
	}
}
