package wire

import (
	"fmt"

	tankv1 "tanknet/proto/tank/v1"
)

// DisconnectCode says why the server dropped a client, for programs to switch on; the
// Disconnect's reason says it for people. Its values are those of tankv1.DisconnectCode.
type DisconnectCode int32

const (
	// DisconnectUnspecified is a Disconnect without a code: from a server older than the
	// field, or a code this build does not know.
	DisconnectUnspecified      DisconnectCode = DisconnectCode(tankv1.DisconnectCode_DISCONNECT_CODE_UNSPECIFIED)
	DisconnectTimeout          DisconnectCode = DisconnectCode(tankv1.DisconnectCode_DISCONNECT_CODE_TIMEOUT)           // nothing arrived for the idle timeout
	DisconnectProtocolError    DisconnectCode = DisconnectCode(tankv1.DisconnectCode_DISCONNECT_CODE_PROTOCOL_ERROR)    // the client broke a rule
	DisconnectCannotKeepUp     DisconnectCode = DisconnectCode(tankv1.DisconnectCode_DISCONNECT_CODE_CANNOT_KEEP_UP)    // the client did not take its bytes fast enough
	DisconnectNotAcknowledging DisconnectCode = DisconnectCode(tankv1.DisconnectCode_DISCONNECT_CODE_NOT_ACKNOWLEDGING) // the server's data stayed unacknowledged
	DisconnectShuttingDown     DisconnectCode = DisconnectCode(tankv1.DisconnectCode_DISCONNECT_CODE_SHUTTING_DOWN)     // the server is stopping
)

// String names the code as the protocol does, without its prefix, in lower case:
// "timeout", "protocol_error", and "code 9" for a value this build does not know.
func (c DisconnectCode) String() string {
	name, ok := tankv1.DisconnectCode_name[int32(c)]
	if !ok {
		return fmt.Sprintf("code %d", int32(c))
	}
	return lowerWithout(name, "DISCONNECT_CODE_")
}

// Disconnect is the server's last message to a client it drops: a code and the reason in
// words.
type Disconnect struct {
	Code   DisconnectCode
	Reason string
}

// DisconnectFromProto returns what m says. A code this build does not know reads as
// DisconnectUnspecified; the reason still explains it.
func DisconnectFromProto(m *tankv1.Disconnect) Disconnect {
	c := DisconnectCode(m.GetCode())
	if _, known := tankv1.DisconnectCode_name[int32(c)]; !known {
		c = DisconnectUnspecified
	}
	return Disconnect{Code: c, Reason: m.GetReason()}
}
