package view

// CyclePreset returns the preset step places after current in names (step -1: before it),
// wrapping around. A current not in names (custom conditions) counts as just before the
// first, so stepping forward from it gives names[0] and backward the last.
func CyclePreset(names []string, current string, step int) string {
	if len(names) == 0 {
		return current
	}
	i := -1
	for j, n := range names {
		if n == current {
			i = j
		}
	}
	if i < 0 {
		if step >= 0 {
			return names[0]
		}
		return names[len(names)-1]
	}
	n := len(names)
	return names[((i+step)%n+n)%n]
}
