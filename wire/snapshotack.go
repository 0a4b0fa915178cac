package wire

// SnapshotAck builds an InputBatch's snapshot acknowledgement (PROTOCOL.md §1.4) from what a
// receiver remembers: newest is the newest snapshot tick it has seen, window how many
// ticks back from it it remembers, and complete whether every chunk of a tick came. It
// returns the newest complete tick within the window (0: none) and the mask of the 32
// ticks before it, bit i for the tick i+1 before, set when that tick is complete.
func SnapshotAck(newest, window uint32, complete func(tick uint32) bool) (tick, mask uint32) {
	for t := newest; t > 0 && t+window > newest; t-- {
		if tick == 0 {
			if complete(t) {
				tick = t
			}
			continue
		}
		d := tick - t - 1
		if d >= 32 {
			break
		}
		if complete(t) {
			mask |= 1 << d
		}
	}
	return tick, mask
}
