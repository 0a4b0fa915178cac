package netcode

// State is one authoritative PlayerState as netcode sees it: the server tick it belongs to,
// the tank's pose, and the last move tick the server applied for that tank.
type State struct {
	Tick uint32 // server tick of the snapshot that carried this state
	Pose Pose
	Ack  uint32 // acknowledged_move_tick: pending inputs at or below it are done
}
