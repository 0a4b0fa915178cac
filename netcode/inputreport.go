package netcode

import "time"

// InputReport is what the server tells a player each tick about that player's inputs in its
// input buffer: the server applies one input per tick from it, so how long the applied one
// waited, and whether one was there at all, say whether the client sends early enough. A
// client's Dilation turns the reports into a clock rate.
type InputReport struct {
	// Wait is how long the input applied in this tick waited in the buffer between its
	// arrival and the tick (millisecond resolution on the wire); 0 when none was applied.
	Wait time.Duration
	// Waiting is how many inputs were still in the buffer after the tick.
	Waiting int
	// Starved is true when the tick applied no input although earlier ticks had: the
	// input for it had not arrived, and the tank stood still.
	Starved bool
}
