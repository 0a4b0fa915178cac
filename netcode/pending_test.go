package netcode

import (
	"testing"
	"time"
)

func ticks(steps []PendingInput) []uint32 {
	out := make([]uint32, len(steps))
	for i, s := range steps {
		out[i] = s.Tick
	}
	return out
}

func equalTicks(a, b []uint32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestPending(t *testing.T) {
	// Each step applies to the same buffer in order.
	var p Pending
	if _, ok := p.Last(); ok {
		t.Fatal("Last() on empty Pending reported an input")
	}
	steps := []struct {
		name   string
		do     func() int // returns Add as 0/1 or Ack's count
		want   int
		ticks  []uint32
		lastOK bool
	}{
		{"add 1", func() int { return b2i(p.Add(PendingInput{Tick: 1})) }, 1, []uint32{1}, true},
		{"add 2", func() int { return b2i(p.Add(PendingInput{Tick: 2})) }, 1, []uint32{1, 2}, true},
		{"add duplicate 2", func() int { return b2i(p.Add(PendingInput{Tick: 2})) }, 0, []uint32{1, 2}, true},
		{"add older 1", func() int { return b2i(p.Add(PendingInput{Tick: 1})) }, 0, []uint32{1, 2}, true},
		{"add 5", func() int { return b2i(p.Add(PendingInput{Tick: 5})) }, 1, []uint32{1, 2, 5}, true},
		{"ack 0 removes none", func() int { return p.Ack(0) }, 0, []uint32{1, 2, 5}, true},
		{"ack 3 removes 1,2", func() int { return p.Ack(3) }, 2, []uint32{5}, true},
		{"ack 3 again", func() int { return p.Ack(3) }, 0, []uint32{5}, true},
		{"ack 9 empties", func() int { return p.Ack(9) }, 1, []uint32{}, false},
	}
	for _, st := range steps {
		if got := st.do(); got != st.want {
			t.Errorf("%s: got %d, want %d", st.name, got, st.want)
		}
		if got := ticks(p.Steps()); !equalTicks(got, st.ticks) {
			t.Errorf("%s: Steps() ticks = %v, want %v", st.name, got, st.ticks)
		}
		if p.Len() != len(st.ticks) {
			t.Errorf("%s: Len() = %d, want %d", st.name, p.Len(), len(st.ticks))
		}
		if last, ok := p.Last(); ok != st.lastOK || (ok && last.Tick != st.ticks[len(st.ticks)-1]) {
			t.Errorf("%s: Last() = %v, %v", st.name, last, ok)
		}
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func TestPendingSteadyStateDoesNotAllocate(t *testing.T) {
	var p Pending
	for i := range 20 {
		p.Add(PendingInput{Tick: uint32(i + 1), Duration: StepInterval})
	}
	tick := uint32(20)
	allocs := testing.AllocsPerRun(100, func() {
		tick++
		p.Add(PendingInput{Tick: tick, Duration: time.Millisecond})
		p.Ack(tick - 20)
	})
	if allocs != 0 {
		t.Errorf("Add+Ack allocated %v times per run, want 0", allocs)
	}
}
