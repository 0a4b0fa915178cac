package wire

import (
	"strings"

	"tanknet/netcode"
	tankv1 "tanknet/proto/tank/v1"
	"tanknet/transport"
)

// The messages a client sends on the stream, each as the envelope the transport frames.
// (Its InputBatch datagrams are BatchEncoder's.)

// HelloMessage opens a session: this package's protocol version, the player's name and the
// room asked for ("" for the server's default).
func HelloMessage(name, room string) *tankv1.ClientMessage {
	return &tankv1.ClientMessage{Kind: &tankv1.ClientMessage_Hello{Hello: &tankv1.Hello{
		ProtocolVersion: transport.ProtocolVersion, Name: name, Room: room}}}
}

// MoveMessage carries one prediction step: its move tick, input and duration (FillMove).
func MoveMessage(p netcode.PendingInput) *tankv1.ClientMessage {
	m := new(tankv1.MoveInput)
	FillMove(m, p)
	return &tankv1.ClientMessage{Kind: &tankv1.ClientMessage_MoveInput{MoveInput: m}}
}

// InputModeMessage asks for inputs applied on arrival (true) or one a tick from the server's
// input buffer (false).
func InputModeMessage(onArrival bool) *tankv1.ClientMessage {
	return &tankv1.ClientMessage{Kind: &tankv1.ClientMessage_InputMode{InputMode: &tankv1.InputMode{OnArrival: onArrival}}}
}

// FireMessage carries one shot (FireToProto).
func FireMessage(req netcode.ShotRequest) *tankv1.ClientMessage {
	return &tankv1.ClientMessage{Kind: &tankv1.ClientMessage_Fire{Fire: FireToProto(req)}}
}

// PingMessage asks for a Pong echoing t (microseconds, any epoch).
func PingMessage(t uint64) *tankv1.ClientMessage {
	return &tankv1.ClientMessage{Kind: &tankv1.ClientMessage_Ping{Ping: &tankv1.Ping{ClientTimeUs: t}}}
}

// GoodbyeMessage says the client is leaving, and why.
func GoodbyeMessage(reason string) *tankv1.ClientMessage {
	return &tankv1.ClientMessage{Kind: &tankv1.ClientMessage_Goodbye{Goodbye: &tankv1.Goodbye{Reason: reason}}}
}

// lowerWithout returns an enum value's name without prefix, in lower case, as reports and
// metrics spell it.
func lowerWithout(name, prefix string) string {
	return strings.ToLower(strings.TrimPrefix(name, prefix))
}

// ClientMessage is one message a client sends, as plain Go values: what a Game sends,
//
//	netcode.PendingInput  a prediction step (MoveInput, on the stream)
//	InputBatch            the unacknowledged inputs again, with the snapshot acknowledgement
//	                      (an InputBatch datagram; datagram lane only)
//	netcode.ShotRequest   a shot (Fire)
//	InputMode             inputs applied on arrival, or from the server's buffer
//	Ping                  a latency probe
//
// and what its session sends itself: Hello, Goodbye. A client's session turns each into its
// message with the builders above (or BatchEncoder); a server reads them with FromClient
// and BatchReader.
type ClientMessage any

// InputBatch repeats inputs (oldest first, at most MaxBatchInputs) with the acknowledgement
// of the snapshots received: AckTick the newest, AckMask the 32 before it (PROTOCOL.md §1.4).
type InputBatch struct {
	Inputs           []netcode.PendingInput
	AckTick, AckMask uint32
}

// InputMode asks for inputs applied as they arrive (OnArrival) or one a tick from the
// server's input buffer.
type InputMode struct{ OnArrival bool }

// Ping asks for a Pong echoing ClientTimeUs (microseconds, any epoch).
type Ping struct{ ClientTimeUs uint64 }
