package world

import (
	"errors"
	"testing"
)

// TestJoin_IDsIncreaseAndTheWorldFills: ids must rise (the tanks stay in id order, which
// every lookup relies on), and a full world says so.
func TestJoin_IDsIncreaseAndTheWorldFills(t *testing.T) {
	cfg := testConfig()
	cfg.MaxPlayers = 2
	w := New(cfg)
	if _, err := w.Join(0, nil, 0); err == nil {
		t.Error("Join(0) succeeded, want an error: 0 is no player")
	}
	if _, err := w.Join(5, nil, 0); err != nil {
		t.Fatal(err)
	}
	for _, id := range []uint32{5, 3} {
		if _, err := w.Join(id, nil, 0); err == nil {
			t.Errorf("Join(%d) after 5 succeeded, want an error", id)
		}
	}
	if _, err := w.Join(6, nil, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Join(7, nil, 0); !errors.Is(err, ErrFull) {
		t.Errorf("a third Join with MaxPlayers 2: %v, want ErrFull", err)
	}
	if got := len(w.Tanks()); got != 2 || w.Tanks()[0].ID() != 5 || w.Tanks()[1].ID() != 6 {
		t.Errorf("tanks %d, want 5 and 6 in order", got)
	}
}
