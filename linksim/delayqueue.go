package linksim

import (
	"container/heap"
	"errors"
	"math/rand/v2"
	"net"
	"sync"
	"sync/atomic"
	"time"
)

// MaxQueuedPackets bounds the packets one direction of a ConditionedConn holds at once,
// counting both packets waiting out their delay and, inbound, packets waiting for ReadFrom.
// Beyond it new packets are dropped and counted as Overflowed. 4096 packets is several
// seconds of a busy KCP session even at the largest latencies the conditioner accepts; a
// backlog past that means nobody is draining the link, and a real router would drop too.
const MaxQueuedPackets = 4096

// delayedPacket is one datagram waiting in a lane.
type delayedPacket struct {
	due  time.Time // when the packet leaves the lane
	seq  uint64    // arrival order, to break ties between equal due times
	data []byte    // owned by the lane; never the caller's buffer
	addr net.Addr  // destination (outbound) or source (inbound)
}

// delayQueue is a min-heap of packets ordered by due time, then arrival order.
// It implements heap.Interface; use it only through the heap package.
type delayQueue []delayedPacket

func (q delayQueue) Len() int { return len(q) }

func (q delayQueue) Less(i, j int) bool {
	if q[i].due.Equal(q[j].due) {
		return q[i].seq < q[j].seq
	}
	return q[i].due.Before(q[j].due)
}

func (q delayQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }

func (q *delayQueue) Push(x any) { *q = append(*q, x.(delayedPacket)) }

func (q *delayQueue) Pop() any {
	old := *q
	n := len(old) - 1
	p := old[n]
	old[n] = delayedPacket{} // let the data be collected
	*q = old[:n]
	return p
}

// laneCounters are the live, atomically updated counters behind LinkStats.
type laneCounters struct {
	offered, delivered, lost, duplicated, reordered, overflowed, failed atomic.Uint64
}

func (c *laneCounters) snapshot() LinkStats {
	return LinkStats{
		Offered:    c.offered.Load(),
		Delivered:  c.delivered.Load(),
		Lost:       c.lost.Load(),
		Duplicated: c.duplicated.Load(),
		Reordered:  c.reordered.Load(),
		Overflowed: c.overflowed.Load(),
		Failed:     c.failed.Load(),
	}
}

// lane applies one Link to the packets of one direction. offer decides each packet's fate
// with the lane's own random stream and queues the survivors; run, the lane's single
// scheduler goroutine, hands each packet to deliver once it is due.
type lane struct {
	mu      sync.Mutex
	link    Link
	rng     *rand.Rand
	queue   delayQueue
	nextSeq uint64
	lastDue time.Time // due time of the newest packet not held back by Reorder

	// backlog reports how many packets wait after this lane (the inbound ready
	// queue); they count against MaxQueuedPackets too. Nil means none.
	backlog func() int
	// deliver sends a due packet on its way. errReadQueueFull counts the packet as
	// Overflowed; any other error counts it as Failed.
	deliver func(delayedPacket) error

	wake  chan struct{} // capacity 1: the head of the queue may have changed
	stats laneCounters
	// unsent counts the packets queued and not yet handed to deliver (or handed to it
	// and not yet back): what closing the lane now would throw away.
	unsent atomic.Int64
}

func newLane(link Link, rng *rand.Rand, deliver func(delayedPacket) error) *lane {
	return &lane{
		link:    link,
		rng:     rng,
		deliver: deliver,
		wake:    make(chan struct{}, 1),
	}
}

// setLink changes the impairments applied to packets offered from now on; packets already
// queued keep the fate decided when they arrived.
func (l *lane) setLink(link Link) {
	l.mu.Lock()
	l.link = link
	l.mu.Unlock()
}

func (l *lane) currentLink() Link {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.link
}

// offer decides the fate of one packet entering the lane at now and queues what survives.
// The lane takes ownership of data.
//
// Packets that Reorder does not hold back leave in the order they arrived: a packet is
// never due before the previous such packet, so Jitter varies the delay without reordering,
// and Reorder alone decides which packets are overtaken.
func (l *lane) offer(data []byte, addr net.Addr, now time.Time) {
	l.stats.offered.Add(1)

	l.mu.Lock()
	v := decide(l.link, l.rng)
	if v.drop {
		l.mu.Unlock()
		l.stats.lost.Add(1)
		return
	}
	copies := 1
	if v.duplicate {
		copies = 2
	}
	waiting := l.queue.Len()
	if l.backlog != nil {
		waiting += l.backlog()
	}
	if waiting+copies > MaxQueuedPackets {
		l.mu.Unlock()
		l.stats.overflowed.Add(uint64(copies))
		return
	}

	due := now.Add(v.delay)
	if !v.reordered {
		if due.Before(l.lastDue) {
			due = l.lastDue
		}
		l.lastDue = due
	}
	for range copies {
		heap.Push(&l.queue, delayedPacket{due: due, seq: l.nextSeq, data: data, addr: addr})
		l.nextSeq++
	}
	l.unsent.Add(int64(copies))
	headChanged := l.queue[0].seq >= l.nextSeq-uint64(copies)
	l.mu.Unlock()

	if v.duplicate {
		l.stats.duplicated.Add(1)
	}
	if v.reordered {
		l.stats.reordered.Add(1)
	}
	if headChanged {
		select {
		case l.wake <- struct{}{}:
		default: // a wake-up is already pending
		}
	}
}

// pending returns how many packets the lane still holds and when the last of them is due
// (the zero time when it holds none).
func (l *lane) pending() (n int, lastDue time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, p := range l.queue {
		if p.due.After(lastDue) {
			lastDue = p.due
		}
	}
	return int(l.unsent.Load()), lastDue
}

// popDue removes the packets due at or before now, appending them to ready in delivery
// order, and returns how long until the next packet is due (negative when none is queued).
func (l *lane) popDue(now time.Time, ready []delayedPacket) ([]delayedPacket, time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for l.queue.Len() > 0 && !l.queue[0].due.After(now) {
		ready = append(ready, heap.Pop(&l.queue).(delayedPacket))
	}
	if l.queue.Len() == 0 {
		return ready, -1
	}
	return ready, l.queue[0].due.Sub(now)
}

// run delivers due packets until done is closed. Packets still queued then are discarded.
func (l *lane) run(done <-chan struct{}) {
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	defer timer.Stop()

	var ready []delayedPacket
	for {
		var wait time.Duration
		ready, wait = l.popDue(time.Now(), ready[:0])
		for i, p := range ready {
			switch err := l.deliver(p); {
			case err == nil:
				l.stats.delivered.Add(1)
			case errors.Is(err, errReadQueueFull):
				l.stats.overflowed.Add(1)
			default:
				l.stats.failed.Add(1)
			}
			ready[i] = delayedPacket{}
			l.unsent.Add(-1)
		}
		if wait >= 0 {
			timer.Reset(wait)
		}
		select {
		case <-done:
			return
		case <-l.wake:
		case <-timer.C:
		}
		timer.Stop()
	}
}
