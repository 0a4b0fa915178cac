package world

import (
	"errors"
	"testing"
	"time"
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

// TestJoin_TheWorldOwnsTheTank: the tank Join returns is the one the world holds and finds,
// its Client is the one it joined with, and it stays that tank while others come and go.
func TestJoin_TheWorldOwnsTheTank(t *testing.T) {
	w := New(testConfig())
	a, err := w.Join(1, trustingClient{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if a.Client() != (trustingClient{}) || w.Find(1) != a || w.Tanks()[0] != a {
		t.Fatalf("Join's tank %p: client %v, found %p, held %p", a, a.Client(), w.Find(1), w.Tanks()[0])
	}
	if _, err := w.Join(2, nil, 0); err != nil {
		t.Fatal(err)
	}
	b, err := w.Join(3, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	w.Leave(2)
	w.Tick(time.Second)
	if w.Find(1) != a || w.Find(3) != b || len(w.Tanks()) != 2 || b.Client() != nil {
		t.Errorf("after a leave and a tick: found %p and %p, want %p and %p, of %d tanks", w.Find(1), w.Find(3), a, b, len(w.Tanks()))
	}
}
