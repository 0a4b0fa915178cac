package transport

import (
	"testing"
	"time"
)

// A reader that keeps waiting while its peer's packets arrive must still wake as the peer's
// silence reaches the limit: with a fixed wait it woke up to a whole wait later (a client
// silent since 1.5 s into a 5 s wait was dropped 8.5 s after its last packet).
func TestWaitWithin_WakesAsTheLimitIsReached(t *testing.T) {
	const usual, limit = 5 * time.Second, 5 * time.Second
	tests := []struct {
		name    string
		elapsed time.Duration
		want    time.Duration
	}{
		{"a peer just heard: the usual wait", 0, usual},
		{"silent 1.5 s: wake at 5 s of silence", 1500 * time.Millisecond, 3500 * time.Millisecond},
		{"silent a moment short of the limit", limit - time.Millisecond, time.Millisecond},
		{"at the limit: waiting on for another reason, the usual wait", limit, usual},
		{"past the limit: the usual wait, not a busy loop", limit + time.Second, usual},
	}
	for _, tt := range tests {
		if got := WaitWithin(usual, limit, tt.elapsed); got != tt.want {
			t.Errorf("%s: WaitWithin(%v, %v, %v) = %v, want %v", tt.name, usual, limit, tt.elapsed, got, tt.want)
		}
	}
	// A limit longer than the wait (an away client's 2 minutes) keeps the usual wait until
	// the end is nearer than it.
	if got := WaitWithin(usual, 2*time.Minute, 118*time.Second); got != 2*time.Second {
		t.Errorf("118 s into a 2 min limit: %v, want 2s", got)
	}
	if got := WaitWithin(usual, 2*time.Minute, 10*time.Second); got != usual {
		t.Errorf("10 s into a 2 min limit: %v, want the usual %v", got, usual)
	}
}
