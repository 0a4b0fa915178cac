package client

import (
	tankv1 "tanknet/proto/tank/v1"
	"tanknet/wire"
)

// decoded is what package wire makes of m, as a Session queues it: tests write the server's
// messages in their wire form and feed a Game what a Session would.
func decoded(m *tankv1.ServerMessage) wire.ServerMessage {
	v, err := wire.ServerMessageFromProto(m)
	if err != nil {
		panic(err)
	}
	return v
}
