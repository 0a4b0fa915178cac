package wire

import (
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	tankv1 "tanknet/proto/tank/v1"
	"tanknet/transport"
)

// OldClientReject reads payload, the data of the first KCP segment an address the server
// has not admitted sent, as a protocol 1 client's opening: a framed Hello, sent before any
// connect handshake. For a Hello of another protocol version it returns the framed
// ServerMessage{reject: VERSION_MISMATCH} that client can read; for anything else, nil (a
// current client that lost its admission knows the way back). The server hands it to
// transport.Listen (ListenConfig.AnswerOldClient), which decides whether and how to send it.
func OldClientReject(payload []byte) []byte {
	// Decoded in place and with care, since anyone can send this.
	size, k := protowire.ConsumeVarint(payload)
	if k < 0 || size > uint64(len(payload)-k) {
		return nil
	}
	var m tankv1.ClientMessage
	if proto.Unmarshal(payload[k:k+int(size)], &m) != nil || m.GetHello() == nil ||
		m.GetHello().GetProtocolVersion() == transport.ProtocolVersion {
		return nil
	}
	frame, err := transport.AppendFrame(nil, ServerMessageToProto(VersionMismatch(m.GetHello().GetProtocolVersion())))
	if err != nil {
		return nil
	}
	return frame
}
