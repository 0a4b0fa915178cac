package wire

import (
	"strings"

	"tanknet/netcode"
	tankv1 "tanknet/proto/tank/v1"
)

// ClientMessage is one message a client sends, as plain Go values: a GameMessage (what a
// client.Game sends), or what its session sends itself: Hello, Goodbye. The unexported method
// seals it: exactly these types are ClientMessages, so a wrong one fails to compile. A
// client's session turns each into its envelope with ClientMessageToProto (an InputBatch
// into a datagram with BatchEncoder); a server reads them with FromClient and BatchReader.
type ClientMessage interface {
	clientEnvelope() *tankv1.ClientMessage
}

// GameMessage is one message a client.Game sends over its link, sealed like ClientMessage:
//
//	Move        a prediction step (MoveInput, on the stream)
//	InputBatch  the unacknowledged inputs again, with the snapshot acknowledgement
//	            (an InputBatch datagram; datagram lane only)
//	Fire        a shot
//	InputMode   inputs applied on arrival, or from the server's buffer
//	Ping        a latency probe
//	Away        we stop sending for a while (a hidden page): hold the tank still
type GameMessage interface {
	ClientMessage
	gameMessage()
}

// ClientMessageToProto returns the envelope carrying m.
func ClientMessageToProto(m ClientMessage) *tankv1.ClientMessage { return m.clientEnvelope() }

// Move is one prediction step: its move tick, input and duration (FillMove).
type Move netcode.PendingInput

// Fire is one shot (FireToProto).
type Fire netcode.ShotRequest

// InputBatch repeats inputs (oldest first, at most MaxBatchInputs) with the acknowledgement
// of the snapshots received: AckTick the newest, AckMask the 32 before it (PROTOCOL.md §1.4).
type InputBatch struct {
	Inputs           []netcode.PendingInput
	AckTick, AckMask uint32
}

// InputMode asks for inputs applied as they arrive (OnArrival) or one a tick from the
// server's input buffer.
type InputMode struct{ OnArrival bool }

// Away says the client stops sending inputs for a while, after the move of LastMoveTick
// (0: none yet): the server holds its tank still and waits longer for it (PROTOCOL.md §6b).
// Its next Move ends it.
type Away struct{ LastMoveTick uint32 }

// Ping asks for a Pong echoing ClientTimeUs (microseconds, any epoch).
type Ping struct{ ClientTimeUs uint64 }

// Hello opens a session: the protocol version the client speaks, the player's name and the
// room it asks for ("" for the server's default).
type Hello struct {
	ProtocolVersion uint32
	Name, Room      string
}

// Goodbye says the client is leaving, and why in words.
type Goodbye struct{ Reason string }

func (Move) gameMessage()       {}
func (Fire) gameMessage()       {}
func (InputBatch) gameMessage() {}
func (InputMode) gameMessage()  {}
func (Ping) gameMessage()       {}
func (Away) gameMessage()       {}

func (m Move) clientEnvelope() *tankv1.ClientMessage {
	in := new(tankv1.MoveInput)
	FillMove(in, netcode.PendingInput(m))
	return &tankv1.ClientMessage{Kind: &tankv1.ClientMessage_MoveInput{MoveInput: in}}
}

func (f Fire) clientEnvelope() *tankv1.ClientMessage {
	return &tankv1.ClientMessage{Kind: &tankv1.ClientMessage_Fire{Fire: FireToProto(netcode.ShotRequest(f))}}
}

func (b InputBatch) clientEnvelope() *tankv1.ClientMessage {
	m := &tankv1.InputBatch{SnapshotAckTick: b.AckTick, SnapshotAckMask: b.AckMask}
	for _, in := range b.Inputs {
		mi := new(tankv1.MoveInput)
		FillMove(mi, in)
		m.Inputs = append(m.Inputs, mi)
	}
	return &tankv1.ClientMessage{Kind: &tankv1.ClientMessage_InputBatch{InputBatch: m}}
}

func (i InputMode) clientEnvelope() *tankv1.ClientMessage {
	return &tankv1.ClientMessage{Kind: &tankv1.ClientMessage_InputMode{InputMode: &tankv1.InputMode{OnArrival: i.OnArrival}}}
}

func (p Ping) clientEnvelope() *tankv1.ClientMessage {
	return &tankv1.ClientMessage{Kind: &tankv1.ClientMessage_Ping{Ping: &tankv1.Ping{ClientTimeUs: p.ClientTimeUs}}}
}

func (a Away) clientEnvelope() *tankv1.ClientMessage {
	return &tankv1.ClientMessage{Kind: &tankv1.ClientMessage_Away{Away: &tankv1.Away{LastMoveTick: a.LastMoveTick}}}
}

func (h Hello) clientEnvelope() *tankv1.ClientMessage {
	return &tankv1.ClientMessage{Kind: &tankv1.ClientMessage_Hello{Hello: &tankv1.Hello{
		ProtocolVersion: h.ProtocolVersion, Name: h.Name, Room: h.Room}}}
}

func (g Goodbye) clientEnvelope() *tankv1.ClientMessage {
	return &tankv1.ClientMessage{Kind: &tankv1.ClientMessage_Goodbye{Goodbye: &tankv1.Goodbye{Reason: g.Reason}}}
}

// lowerWithout returns an enum value's name without prefix, in lower case, as reports and
// metrics spell it.
func lowerWithout(name, prefix string) string {
	return strings.ToLower(strings.TrimPrefix(name, prefix))
}
