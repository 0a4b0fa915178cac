package view

import "fmt"

// ContactTally is what a contact scene of the tour counts for both players since its mode
// settled: the pushes their inputs carried, and the corrections and snaps of their tanks.
type ContactTally struct {
	Pushes, Corrections, Snaps int
}

// ContactTallyLines are a contact scene's count under its caption.
func ContactTallyLines(t ContactTally) []Line {
	return []Line{
		{fmt.Sprintf("Pushes predicted: %d", t.Pushes), Plain},
		{fmt.Sprintf("Corrections: %d, snaps: %d", t.Corrections, t.Snaps), Plain},
	}
}
