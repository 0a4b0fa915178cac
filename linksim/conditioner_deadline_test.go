package linksim

import (
	"errors"
	"net"
	"runtime"
	"testing"
	"time"
)

func TestConditionedConnReadDeadline(t *testing.T) {
	tests := []struct {
		name     string
		deadline time.Duration // from now
	}{
		{name: "deadline in the past", deadline: -time.Second},
		{name: "deadline now", deadline: 0},
		{name: "short deadline", deadline: 20 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cc, peer := newConditionedUDP(t, Conditions{}, 1)
			start := time.Now()
			if err := cc.SetReadDeadline(start.Add(tt.deadline)); err != nil {
				t.Fatal(err)
			}
			_, _, err := cc.ReadFrom(make([]byte, 16))
			assertTimeout(t, err)
			if took := time.Since(start); took < tt.deadline {
				t.Errorf("ReadFrom gave up after %v, before the %v deadline", took, tt.deadline)
			}

			// Clearing the deadline makes ReadFrom work again.
			if err := cc.SetReadDeadline(time.Time{}); err != nil {
				t.Fatal(err)
			}
			if _, err := peer.WriteTo([]byte("late"), cc.LocalAddr()); err != nil {
				t.Fatal(err)
			}
			if got, _ := readWithin(t, cc); string(got) != "late" {
				t.Errorf("ReadFrom after clearing the deadline = %q, want %q", got, "late")
			}
		})
	}
}

func TestConditionedConnDeadlineUnblocksPendingRead(t *testing.T) {
	cc, _ := newConditionedUDP(t, Conditions{}, 1)
	errc := make(chan error, 1)
	go func() {
		_, _, err := cc.ReadFrom(make([]byte, 16))
		errc <- err
	}()
	if err := cc.SetReadDeadline(time.Now()); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-errc:
		assertTimeout(t, err)
	case <-time.After(waitLimit):
		t.Fatal("a blocked ReadFrom ignored SetReadDeadline")
	}
}

func TestConditionedConnWriteDeadline(t *testing.T) {
	cc, peer := newConditionedUDP(t, Conditions{}, 1)
	if err := cc.SetWriteDeadline(time.Now().Add(-time.Second)); err != nil {
		t.Fatal(err)
	}
	_, err := cc.WriteTo([]byte("x"), peer.LocalAddr())
	assertTimeout(t, err)
	if err := cc.SetDeadline(time.Time{}); err != nil {
		t.Fatal(err)
	}
	if _, err := cc.WriteTo([]byte("x"), peer.LocalAddr()); err != nil {
		t.Fatalf("WriteTo after clearing the deadline: %v", err)
	}
}

func TestConditionedConnClose(t *testing.T) {
	// Outbound packets leave before Close returns (a short wait); inbound ones still
	// serving a second's delay are thrown away.
	cc, peer := newConditionedUDP(t, Conditions{Outbound: Link{Latency: 20 * time.Millisecond}, Inbound: Link{Latency: time.Second}}, 1)
	if _, err := peer.WriteTo([]byte("never read"), cc.LocalAddr()); err != nil {
		t.Fatal(err)
	}
	if _, err := cc.WriteTo([]byte("sent before Close"), peer.LocalAddr()); err != nil {
		t.Fatal(err)
	}
	errc := make(chan error, 1)
	go func() {
		_, _, err := cc.ReadFrom(make([]byte, 16))
		errc <- err
	}()
	if err := cc.Close(); err != nil {
		t.Fatalf("Close() = %v", err)
	}
	select {
	case err := <-errc:
		if !errors.Is(err, net.ErrClosed) {
			t.Errorf("blocked ReadFrom returned %v, want net.ErrClosed", err)
		}
	case <-time.After(waitLimit):
		t.Fatal("Close did not unblock ReadFrom")
	}

	if _, _, err := cc.ReadFrom(make([]byte, 16)); !errors.Is(err, net.ErrClosed) {
		t.Errorf("ReadFrom after Close = %v, want net.ErrClosed", err)
	}
	if _, err := cc.WriteTo([]byte("x"), peer.LocalAddr()); !errors.Is(err, net.ErrClosed) {
		t.Errorf("WriteTo after Close = %v, want net.ErrClosed", err)
	}
	if err := cc.SetReadDeadline(time.Now()); !errors.Is(err, net.ErrClosed) {
		t.Errorf("SetReadDeadline after Close = %v, want net.ErrClosed", err)
	}
	if err := cc.Close(); !errors.Is(err, net.ErrClosed) {
		t.Errorf("second Close() = %v, want net.ErrClosed", err)
	}
}

func TestConditionedConnCloseLeaksNoGoroutines(t *testing.T) {
	before := runtime.NumGoroutine()
	for range 5 {
		cc, peer := newConditionedUDP(t, Conditions{ // Close waits out the outbound delay only
			Outbound: Link{Latency: 20 * time.Millisecond, Jitter: time.Millisecond},
			Inbound:  Link{Latency: time.Second, Jitter: time.Millisecond},
		}, 1)
		for range 10 {
			if _, err := cc.WriteTo([]byte("pending"), peer.LocalAddr()); err != nil {
				t.Fatal(err)
			}
			if _, err := peer.WriteTo([]byte("pending"), cc.LocalAddr()); err != nil {
				t.Fatal(err)
			}
		}
		if err := cc.SetReadDeadline(time.Now().Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		if err := cc.Close(); err != nil {
			t.Fatal(err)
		}
	}
	// Close waits for its own goroutines; allow a moment for unrelated runtime ones.
	after := runtime.NumGoroutine()
	for limit := time.Now().Add(waitLimit); after > before && time.Now().Before(limit); {
		time.Sleep(10 * time.Millisecond)
		after = runtime.NumGoroutine()
	}
	if after > before {
		t.Fatalf("%d goroutines before, %d after closing every conn", before, after)
	}
}
