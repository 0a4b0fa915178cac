package view

import "tanknet/netcode"

// Keys is which driving keys are held this frame (W/Up, S/Down, A/Left, D/Right).
type Keys struct{ Forward, Back, Left, Right bool }

// Input returns the tank input for k: forward and back add to the throttle, left turns
// counter-clockwise in the world (Turn +1) and right clockwise; opposite keys cancel.
func (k Keys) Input() netcode.Input {
	var in netcode.Input
	if k.Forward {
		in.Throttle++
	}
	if k.Back {
		in.Throttle--
	}
	if k.Left {
		in.Turn++
	}
	if k.Right {
		in.Turn--
	}
	return in
}
