package server

// What a client was sent, on an arena with interest management: the world asks it when it
// judges a shot's views (world.Client.Sent).

// shownLog is, for one client on an arena with interest management, the other tanks each
// recent snapshot sent it, by tick modulo its length.
type shownLog []shownTick

// shownTick is the ids of the other tanks one tick's snapshot sent, increasing.
type shownTick struct {
	tick uint32
	ids  []uint32
}

// record notes that tick's snapshot sent ids (increasing), reusing the slot of an old tick.
func (l *shownLog) record(tick uint32, ids []uint32, keep int) {
	if len(*l) == 0 {
		*l = make(shownLog, keep)
	}
	s := &(*l)[tick%uint32(len(*l))]
	s.tick, s.ids = tick, append(s.ids[:0], ids...)
}

// has reports whether tick's snapshot, still remembered, sent tank id.
func (l shownLog) has(tick, id uint32) bool {
	if len(l) == 0 || tick == 0 {
		return false
	}
	s := &l[tick%uint32(len(l))]
	return s.tick == tick && has(s.ids, id)
}
