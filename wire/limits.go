package wire

// Limits of the datagram lane's messages, which the sender keeps and the receiver checks
// (docs/PROTOCOL.md). A datagram itself is at most transport.MaxDatagramSize bytes.
const (
	// MaxSnapshotChunks is the most chunks one tick's snapshot is cut into. 256 players
	// (the server's limit) whole, about 29 bytes each, need 7.
	MaxSnapshotChunks = 64
	// MaxBatchInputs is the most MoveInputs one InputBatch may carry: twice the 10 tanknet
	// clients repeat, room for a client with a longer redundancy window. More makes the batch
	// bad.
	MaxBatchInputs = 20
	// MaxTickLead bounds a snapshot chunk's tick: 10 s of ticks past the newest the receiver
	// has seen, later than an idle timeout allows, so forged.
	MaxTickLead = 200
)
