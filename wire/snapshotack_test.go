package wire

import "testing"

// TestSnapshotAck: the newest complete tick, and a bit for each complete tick of the 32
// before it; nothing past the window or before tick 1.
func TestSnapshotAck(t *testing.T) {
	set := func(ticks ...uint32) func(uint32) bool {
		m := map[uint32]bool{}
		for _, k := range ticks {
			m[k] = true
		}
		return func(k uint32) bool { return m[k] }
	}
	tests := []struct {
		name             string
		newest, window   uint32
		complete         func(uint32) bool
		wantTick, wantMk uint32
	}{
		{"nothing yet", 0, 64, set(), 0, 0},
		{"the newest incomplete", 10, 64, set(9, 8, 6), 9, 0b101},
		{"every tick", 40, 64, func(uint32) bool { return true }, 40, 0xffffffff},
		{"only 32 behind", 100, 64, set(100, 67, 68), 100, 1 << 31},
		{"outside the window", 100, 4, set(96, 95), 0, 0},
		{"down to tick 1", 3, 64, set(3, 1), 3, 0b10},
	}
	for _, tt := range tests {
		tick, mask := SnapshotAck(tt.newest, tt.window, tt.complete)
		if tick != tt.wantTick || mask != tt.wantMk {
			t.Errorf("%s: SnapshotAck = %d, %#b; want %d, %#b", tt.name, tick, mask, tt.wantTick, tt.wantMk)
		}
	}
}
