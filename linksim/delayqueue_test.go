package linksim

import (
	"container/heap"
	"math/rand/v2"
	"net"
	"testing"
	"time"
)

func TestDelayQueuePopsByDueTimeThenArrival(t *testing.T) {
	base := time.Unix(1000, 0)
	// due offsets in arrival order; equal offsets must come out in arrival order.
	offsets := []time.Duration{30, 10, 20, 10, 0, 30, 10}
	var q delayQueue
	for i, off := range offsets {
		heap.Push(&q, delayedPacket{due: base.Add(off * time.Millisecond), seq: uint64(i)})
	}
	wantSeqs := []uint64{4, 1, 3, 6, 2, 0, 5}
	for i, want := range wantSeqs {
		got := heap.Pop(&q).(delayedPacket)
		if got.seq != want {
			t.Fatalf("pop %d: seq = %d, want %d", i, got.seq, want)
		}
	}
	if q.Len() != 0 {
		t.Fatalf("Len() = %d after popping everything, want 0", q.Len())
	}
}

func TestLaneOffer(t *testing.T) {
	now := time.Unix(1000, 0)
	addr := &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 9}
	tests := []struct {
		name     string
		link     Link
		wantDue  []time.Duration // due times of the queued copies, relative to now
		wantLost uint64
	}{
		{name: "perfect link queues one copy due now", link: Link{}, wantDue: []time.Duration{0}},
		{name: "latency delays", link: Link{Latency: 40 * time.Millisecond}, wantDue: []time.Duration{40 * time.Millisecond}},
		{name: "loss queues nothing", link: Link{Latency: 40 * time.Millisecond, Loss: 1}, wantLost: 1},
		{
			name:    "duplicate queues two copies due together",
			link:    Link{Latency: 5 * time.Millisecond, Duplicate: 1},
			wantDue: []time.Duration{5 * time.Millisecond, 5 * time.Millisecond},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := newLane(tt.link, rand.New(rand.NewPCG(1, 1)), nil)
			l.offer([]byte("x"), addr, now)
			ready, _ := l.popDue(now.Add(time.Hour), nil)
			if len(ready) != len(tt.wantDue) {
				t.Fatalf("queued %d copies, want %d", len(ready), len(tt.wantDue))
			}
			for i, p := range ready {
				if got := p.due.Sub(now); got != tt.wantDue[i] {
					t.Errorf("copy %d due after %v, want %v", i, got, tt.wantDue[i])
				}
				if p.addr != addr {
					t.Errorf("copy %d addr = %v, want %v", i, p.addr, addr)
				}
			}
			if got := l.stats.lost.Load(); got != tt.wantLost {
				t.Errorf("lost = %d, want %d", got, tt.wantLost)
			}
		})
	}
}

func TestLaneJitterKeepsOrderButReorderOvertakes(t *testing.T) {
	now := time.Unix(1000, 0)
	l := newLane(Link{Latency: 20 * time.Millisecond, Jitter: 20 * time.Millisecond}, rand.New(rand.NewPCG(3, 1)), nil)
	for i := range 200 {
		l.offer([]byte{byte(i)}, nil, now.Add(time.Duration(i)*time.Millisecond))
	}
	ready, _ := l.popDue(now.Add(time.Hour), nil)
	for i, p := range ready {
		if int(p.data[0]) != i%256 {
			t.Fatalf("jitter reordered packets: position %d holds packet %d", i, p.data[0])
		}
	}

	// A held-back packet is overtaken by the packet offered right after it.
	l = newLane(Link{Latency: 20 * time.Millisecond, Reorder: 1}, rand.New(rand.NewPCG(3, 1)), nil)
	l.offer([]byte("held"), nil, now)
	l.setLink(Link{Latency: 20 * time.Millisecond})
	l.offer([]byte("next"), nil, now.Add(time.Millisecond))
	ready, _ = l.popDue(now.Add(time.Hour), ready[:0])
	if len(ready) != 2 || string(ready[0].data) != "next" || string(ready[1].data) != "held" {
		t.Fatalf("delivery order = %q, want [next held]", payloads(ready))
	}
	if got := l.stats.reordered.Load(); got != 1 {
		t.Errorf("reordered = %d, want 1", got)
	}
}

func TestLaneOverflowDropsAndCounts(t *testing.T) {
	now := time.Unix(1000, 0)
	l := newLane(Link{Latency: time.Second}, rand.New(rand.NewPCG(1, 1)), nil)
	const extra = 10
	for range MaxQueuedPackets + extra {
		l.offer([]byte("x"), nil, now)
	}
	if got := l.queue.Len(); got != MaxQueuedPackets {
		t.Errorf("queue length = %d, want %d", got, MaxQueuedPackets)
	}
	if got := l.stats.overflowed.Load(); got != extra {
		t.Errorf("overflowed = %d, want %d", got, extra)
	}
}

func payloads(ps []delayedPacket) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = string(p.data)
	}
	return out
}
