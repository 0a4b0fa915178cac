package world

// The world's journal of who came and went: spawn and remove note each placement and
// departure in w.events as it happens (between ticks for joins and leaves, at the top of a
// tick for respawns), and each tick's outcome hands over what gathered since the previous
// one. A recording needs them, with the inputs applied, to rebuild every tick.

// takeEvents returns the events since the last call, valid until the next call, and starts
// gathering afresh.
func (w *World) takeEvents() []Event {
	w.out.Events = append(w.out.Events[:0], w.events...)
	w.events = w.events[:0]
	return w.out.Events
}
