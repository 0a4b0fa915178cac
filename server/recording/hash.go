package recording

import (
	"encoding/binary"
	"hash/fnv"
	"math"

	"tanknet/netcode"
	"tanknet/world"
)

// stateHash is RecordedTick.state_hash of the tanks ids (in id order) at poses with acks.
func stateHash(ids []uint32, poses []netcode.Pose, acks []uint32) uint64 {
	h := fnv.New64a()
	var b [32]byte
	for i, id := range ids {
		binary.LittleEndian.PutUint32(b[0:], id)
		binary.LittleEndian.PutUint64(b[4:], math.Float64bits(poses[i].X))
		binary.LittleEndian.PutUint64(b[12:], math.Float64bits(poses[i].Y))
		binary.LittleEndian.PutUint64(b[20:], math.Float64bits(poses[i].Heading))
		var ack uint32
		if i < len(acks) {
			ack = acks[i]
		}
		binary.LittleEndian.PutUint32(b[28:], ack)
		h.Write(b[:])
	}
	return h.Sum64()
}

// hashOf is stateHash of the re-simulated tanks.
func hashOf(tanks []world.TankState) uint64 {
	ids, poses, acks := make([]uint32, len(tanks)), make([]netcode.Pose, len(tanks)), make([]uint32, len(tanks))
	for i, t := range tanks {
		ids[i], poses[i], acks[i] = t.ID, t.Pose, t.Ack
	}
	return stateHash(ids, poses, acks)
}
