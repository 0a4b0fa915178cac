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

// MoveMessage carries one prediction step (MoveToProto).
func MoveMessage(p netcode.PendingInput) *tankv1.ClientMessage {
	return &tankv1.ClientMessage{Kind: &tankv1.ClientMessage_MoveInput{MoveInput: MoveToProto(p)}}
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
