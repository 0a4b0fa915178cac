package wire

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"tanknet/netcode"
	tankv1 "tanknet/proto/tank/v1"
	"tanknet/transport"
)

// The server's answer to a Hello: a Welcome or a Reject.

// Welcome is what the server tells a client it seats.
type Welcome struct {
	PlayerID     uint32
	Arena        netcode.Arena
	Rules        netcode.Rules // combat rules: the cannon, health, respawn, rewind window
	ServerTick   uint32
	MaxInputLead uint32
	Lane         Lane   // where snapshots come: chunk datagrams or the stream
	Room         string // the room (match) the server seated the client in; "" from a server without rooms
	// AwayTimeout is how long the server waits for a client that said it is away; 0 from a
	// server that does not take Away (older than it), to which a client must not send one.
	AwayTimeout time.Duration
}

// WelcomeToProto returns the wire form of w, with the tick interval every server ticks at.
func WelcomeToProto(w Welcome) *tankv1.Welcome {
	return &tankv1.Welcome{
		PlayerId: w.PlayerID, TickIntervalMs: uint32(netcode.StepInterval / time.Millisecond), ServerTick: w.ServerTick,
		Arena: ArenaToProto(&w.Arena), MaxInputLead: w.MaxInputLead,
		SnapshotLane: LaneToProto(w.Lane), Rules: RulesToProto(w.Rules), Room: w.Room,
		AwayTimeoutMs: uint32(min(w.AwayTimeout/time.Millisecond, math.MaxUint32)),
	}
}

// WelcomeFromProto returns what m says, with a client's checks: its arena and rules must be
// usable (ArenaFromProto, RulesFromProto), its player id not 0, and its tick interval this
// build's netcode.StepInterval (or absent): every step, input duration and clock of the
// client counts in it.
func WelcomeFromProto(m *tankv1.Welcome) (Welcome, error) {
	if ms := m.GetTickIntervalMs(); ms != 0 && time.Duration(ms)*time.Millisecond != netcode.StepInterval {
		return Welcome{}, fmt.Errorf("wire: welcome: tick interval %d ms, this client runs %v ticks", ms, netcode.StepInterval)
	}
	arena, err := ArenaFromProto(m.GetArena())
	if err != nil {
		return Welcome{}, err
	}
	rules, err := RulesFromProto(m.GetRules())
	if err != nil {
		return Welcome{}, err
	}
	if m.GetPlayerId() == 0 {
		return Welcome{}, errors.New("wire: welcome: player id 0")
	}
	return Welcome{PlayerID: m.GetPlayerId(), Arena: arena, Rules: rules, ServerTick: m.GetServerTick(),
		MaxInputLead: m.GetMaxInputLead(), Lane: LaneFromProto(m.GetSnapshotLane()), Room: m.GetRoom(),
		AwayTimeout: time.Duration(m.GetAwayTimeoutMs()) * time.Millisecond}, nil
}

// RulesChanged is the server's word that the room's rules changed during the match: the
// rules whole, in force from server tick FromTick on (PROTOCOL.md §3, §7c). A client plays
// by them from its next prediction step.
type RulesChanged struct {
	Rules    netcode.Rules
	FromTick uint32
}

// RulesChangedToProto returns the wire form of c.
func RulesChangedToProto(c RulesChanged) *tankv1.RulesChanged {
	return &tankv1.RulesChanged{Rules: RulesToProto(c.Rules), FromTick: c.FromTick}
}

// RulesChangedFromProto returns what m says, with the Welcome's check of its rules
// (RulesFromProto): rules a client cannot play by are an error, not a change.
func RulesChangedFromProto(m *tankv1.RulesChanged) (RulesChanged, error) {
	rules, err := RulesFromProto(m.GetRules())
	if err != nil {
		return RulesChanged{}, fmt.Errorf("wire: rules changed: %w", err)
	}
	return RulesChanged{Rules: rules, FromTick: m.GetFromTick()}, nil
}

// RejectCode says why the server refused a Hello, for programs to switch on; the Reject's
// reason says it for people. Its values are those of tankv1.RejectCode.
type RejectCode int32

const (
	RejectUnspecified     = RejectCode(tankv1.RejectCode_REJECT_CODE_UNSPECIFIED)      // no code, or one this build does not know
	RejectVersionMismatch = RejectCode(tankv1.RejectCode_REJECT_CODE_VERSION_MISMATCH) // the Hello's protocol version is not the server's
	RejectServerFull      = RejectCode(tankv1.RejectCode_REJECT_CODE_SERVER_FULL)      // every seat is taken
	RejectBadHello        = RejectCode(tankv1.RejectCode_REJECT_CODE_BAD_HELLO)        // the first message was not a valid Hello
	RejectShuttingDown    = RejectCode(tankv1.RejectCode_REJECT_CODE_SHUTTING_DOWN)    // the server is stopping
	RejectBusy            = RejectCode(tankv1.RejectCode_REJECT_CODE_BUSY)             // too many joins are waiting for a seat
	RejectNoRoom          = RejectCode(tankv1.RejectCode_REJECT_CODE_NO_ROOM)          // the room asked for cannot be opened now
)

// String names the code as the protocol does, without its prefix, in lower case:
// "server_full", "no_room", and "code 9" for a value this build does not know.
func (c RejectCode) String() string {
	name, ok := tankv1.RejectCode_name[int32(c)]
	if !ok {
		return fmt.Sprintf("code %d", int32(c))
	}
	return lowerWithout(name, "REJECT_CODE_")
}

// Reject is the server's refusal of a Hello: a code and the reason in words.
type Reject struct {
	Code   RejectCode
	Reason string
}

// VersionMismatch is the Reject of a Hello of protocol version v, which is not this build's.
func VersionMismatch(v uint32) Reject {
	return Reject{Code: RejectVersionMismatch,
		Reason: fmt.Sprintf("protocol version %d not supported (want %d)", v, transport.ProtocolVersion)}
}

// RejectToProto returns the wire form of r.
func RejectToProto(r Reject) *tankv1.Reject {
	return &tankv1.Reject{Code: tankv1.RejectCode(r.Code), Reason: r.Reason}
}

// RejectFromProto returns what m says. A code this build does not know keeps its number
// (its String says "code N"); the reason still explains it.
func RejectFromProto(m *tankv1.Reject) Reject {
	return Reject{Code: RejectCode(m.GetCode()), Reason: m.GetReason()}
}

// RejectCodes returns every code the protocol defines, RejectUnspecified excepted, in
// increasing order: what a server may send, for its metrics to list.
func RejectCodes() []RejectCode {
	var out []RejectCode
	for v := range tankv1.RejectCode_name {
		if c := RejectCode(v); c != RejectUnspecified {
			out = append(out, c)
		}
	}
	slices.Sort(out)
	return out
}
