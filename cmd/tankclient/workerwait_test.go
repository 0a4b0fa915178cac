package main

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestAwaitWorker_CountsTheJoinFromTheWorkersStart: a worker whose program started gets its
// whole join wait from then, even past the start wait; one that never starts, or starts and
// then says nothing, is given up on with a sentence that tells the two apart.
func TestAwaitWorker_CountsTheJoinFromTheWorkersStart(t *testing.T) {
	ctx := context.Background()
	const startWait = 300 * time.Millisecond

	events := make(chan workerEvent, 1)
	started := make(chan struct{})
	close(started)
	go func() {
		time.Sleep(2 * startWait) // past the start wait, well within the join wait
		events <- workerEvent{kind: "joined"}
	}()
	if ev, err := awaitWorker(ctx, events, started, startWait, time.Minute); err != nil || ev.kind != "joined" {
		t.Errorf("a worker that started and joined after the start wait: %+v, %v; want joined", ev, err)
	}

	ev, err := awaitWorker(ctx, make(chan workerEvent), make(chan struct{}), time.Millisecond, time.Minute)
	if err != nil || ev.kind != "error" || !strings.Contains(ev.message, "did not start within 1ms") {
		t.Errorf("a worker that never started: %+v, %v; want an error saying it did not start", ev, err)
	}

	ev, err = awaitWorker(ctx, make(chan workerEvent), started, time.Minute, time.Millisecond)
	if err != nil || ev.kind != "error" || !strings.Contains(ev.message, "said nothing of its connection") {
		t.Errorf("a worker that started and then said nothing: %+v, %v; want an error saying so", ev, err)
	}

	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := awaitWorker(cancelled, make(chan workerEvent), make(chan struct{}), time.Minute, time.Minute); err != context.Canceled {
		t.Errorf("a closed page: %v, want context.Canceled", err)
	}
}

// TestAwaitWorker_AStartAsTheWaitRunsOutStillJoins: a worker whose first word and the end
// of the start wait come together is not told it did not start: it gets its join wait.
// Each round the two are ready at once, and a select that chose at random would say "did
// not start" about half the time.
func TestAwaitWorker_AStartAsTheWaitRunsOutStillJoins(t *testing.T) {
	started := make(chan struct{})
	close(started)
	for round := range 20 {
		events := make(chan workerEvent, 1)
		go func() {
			time.Sleep(10 * time.Millisecond)
			events <- workerEvent{kind: "joined"}
		}()
		ev, err := awaitWorker(context.Background(), events, started, time.Nanosecond, time.Minute)
		if err != nil || ev.kind != "joined" {
			t.Fatalf("round %d: a worker that started as the start wait ran out: %+v, %v; want joined", round, ev, err)
		}
	}
}

// The page signals afresh for a worker's redial once for a channel that closed under the
// join, even after it signalled afresh for a stale early answer; for a channel that closed
// unused, only when it has not signalled afresh yet.
func TestRedials_AnswerOncePerCause(t *testing.T) {
	unused, join := workerEvent{kind: "redial"}, workerEvent{kind: "redial", what: "join"}
	for _, tc := range []struct {
		name   string
		afresh bool
		asks   []workerEvent
		want   []bool
	}{
		{"unused, from the early answer", false, []workerEvent{unused, unused}, []bool{true, false}},
		{"unused, already afresh", true, []workerEvent{unused}, []bool{false}},
		{"under the join, already afresh", true, []workerEvent{join, join}, []bool{true, false}},
		{"unused, then under the join", false, []workerEvent{unused, join, join}, []bool{true, true, false}},
	} {
		r := redials{afresh: tc.afresh}
		for i, ev := range tc.asks {
			if got := r.answer(ev); got != tc.want[i] {
				t.Errorf("%s: request %d answered %v, want %v", tc.name, i+1, got, tc.want[i])
			}
		}
	}
}
