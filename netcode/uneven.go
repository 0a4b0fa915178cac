package netcode

// UnevenShare is how far one tick's displacement may differ from the tick before's, as a
// share of the larger, before the motion counts as uneven: a tank that stands for a tick (0)
// or moves two steps (2x) is far outside it; steering, which changes speed by a few percent
// a tick, is inside. tanksim's motion_uneven_ratio and the demo's tick trail both use it.
const UnevenShare = 0.3

// StepUneven judges one tick of a tank's motion from its displacement this tick and the
// tick before (world units): moving when either is not zero, and uneven when, moving, they
// differ by more than UnevenShare of the larger.
func StepUneven(before, step float64) (moving, uneven bool) {
	if step == 0 && before == 0 {
		return false, false
	}
	d := step - before
	if d < 0 {
		d = -d
	}
	return true, d > UnevenShare*max(step, before)
}
