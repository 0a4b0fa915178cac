package wire

import (
	"fmt"

	tankv1 "tanknet/proto/tank/v1"
)

// Lane says how a server sends snapshots. Everything else (handshake, roster, ping, goodbye,
// disconnect, and every MoveInput as the guarantee) always travels on the reliable stream.
type Lane int

const (
	// LaneDatagram sends each snapshot as self-contained chunks on the unreliable datagram
	// lane: a lost snapshot is a gap the interpolator bridges, never a stall. Clients repeat
	// their unacknowledged inputs in a datagram too. The default.
	LaneDatagram Lane = iota
	// LaneReliable sends whole snapshots on the ordered stream, as protocol version 1 did:
	// one lost packet holds back every later snapshot until KCP retransmits it.
	LaneReliable
)

// String returns the lane's name as flags spell it: "datagram" or "reliable".
func (l Lane) String() string {
	switch l {
	case LaneDatagram:
		return "datagram"
	case LaneReliable:
		return "reliable"
	}
	return fmt.Sprintf("Lane(%d)", int(l))
}

// ParseLane returns the lane named s: "datagram" or "reliable".
func ParseLane(s string) (Lane, error) {
	switch s {
	case "datagram":
		return LaneDatagram, nil
	case "reliable":
		return LaneReliable, nil
	}
	return 0, fmt.Errorf("wire: unknown snapshot lane %q (want datagram or reliable)", s)
}

// MarshalText returns the lane's name, so a Lane works with flag.TextVar and JSON.
func (l Lane) MarshalText() ([]byte, error) {
	if l != LaneDatagram && l != LaneReliable {
		return nil, fmt.Errorf("wire: unknown snapshot lane %d", int(l))
	}
	return []byte(l.String()), nil
}

// UnmarshalText sets l to the lane named by text (see ParseLane).
func (l *Lane) UnmarshalText(text []byte) error {
	v, err := ParseLane(string(text))
	if err != nil {
		return err
	}
	*l = v
	return nil
}

// LaneToProto returns the Welcome.snapshot_lane value for l.
func LaneToProto(l Lane) tankv1.SnapshotLane {
	if l == LaneDatagram {
		return tankv1.SnapshotLane_SNAPSHOT_LANE_DATAGRAM
	}
	return tankv1.SnapshotLane_SNAPSHOT_LANE_RELIABLE
}

// LaneFromProto returns the lane a Welcome announces. Unspecified, and any value this
// version does not know, mean reliable: the stream is the lane every server speaks.
func LaneFromProto(l tankv1.SnapshotLane) Lane {
	if l == tankv1.SnapshotLane_SNAPSHOT_LANE_DATAGRAM {
		return LaneDatagram
	}
	return LaneReliable
}
