package wire

import (
	"fmt"

	"google.golang.org/protobuf/proto"

	tankv1 "tanknet/proto/tank/v1"
)

// What a server receives from a client, as plain Go values: the GameMessage kinds a Game
// sends, and the Hello and Goodbye its session sends itself. Nothing here is validated
// beyond decoding: what to do with an input out of range, a Fire's views or a second Hello
// is the server's rule.

// FromClient is one message from a client's stream on its way to a ClientMessage, for the
// server: hand Target to the transport's receive (transport.Conn.Recv or TryRecv), then
// Decode what arrived. Its zero value is ready, and it may be reused: a decoded message
// shares nothing with the next receive.
type FromClient struct {
	m tankv1.ClientMessage
}

// Target is the protobuf message for the transport to decode the frame into.
func (in *FromClient) Target() proto.Message { return &in.m }

// Decode returns what arrived: a Hello, a Move, an InputMode, a Fire (its views in storage
// of their own), a Ping, an Away, a Goodbye, or an InputBatch (which belongs on the datagram lane);
// nil for an empty envelope or a kind this version does not know.
func (in *FromClient) Decode() ClientMessage {
	switch k := in.m.GetKind().(type) {
	case *tankv1.ClientMessage_Hello:
		return Hello{ProtocolVersion: k.Hello.GetProtocolVersion(), Name: k.Hello.GetName(), Room: k.Hello.GetRoom()}
	case *tankv1.ClientMessage_MoveInput:
		return Move(MoveFromProto(k.MoveInput))
	case *tankv1.ClientMessage_InputMode:
		return InputMode{OnArrival: k.InputMode.GetOnArrival()}
	case *tankv1.ClientMessage_Fire:
		return Fire(FireFromProto(k.Fire, nil))
	case *tankv1.ClientMessage_Ping:
		return Ping{ClientTimeUs: k.Ping.GetClientTimeUs()}
	case *tankv1.ClientMessage_Away:
		return Away{LastMoveTick: k.Away.GetLastMoveTick()}
	case *tankv1.ClientMessage_Goodbye:
		return Goodbye{Reason: k.Goodbye.GetReason()}
	case *tankv1.ClientMessage_InputBatch:
		return InputBatch{Inputs: appendInputs(nil, k.InputBatch),
			AckTick: k.InputBatch.GetSnapshotAckTick(), AckMask: k.InputBatch.GetSnapshotAckMask()}
	}
	return nil
}

// Kind names what arrived, for error messages: the generated type of its kind, e.g.
// "*tankv1.ClientMessage_MoveInput", or "an empty or unknown message".
func (in *FromClient) Kind() string {
	if in.m.GetKind() == nil {
		return "an empty or unknown message"
	}
	return fmt.Sprintf("%T", in.m.GetKind())
}
