package carriage

import (
	"net"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

// datagram is one received datagram and where it came from.
type datagram struct {
	b    []byte
	from net.Addr
}

// inbox is a bounded queue of received datagrams with what a net.PacketConn's reading side
// needs: a read deadline and a Close that wakes a blocked reader. Like a socket's receive
// buffer it drops what arrives while it is full. Safe for concurrent use.
type inbox struct {
	queue     chan datagram
	closed    chan struct{}
	closeOnce sync.Once
	dropped   atomic.Uint64 // datagrams dropped because the queue was full

	mu       sync.Mutex
	deadline time.Time
	moved    chan struct{} // closed (and replaced) when the deadline changes
}

func newInbox(size int) *inbox {
	return &inbox{queue: make(chan datagram, size), closed: make(chan struct{}), moved: make(chan struct{})}
}

// put queues b (which the inbox now owns) from from, or drops it when the queue is full or
// the inbox closed; it never blocks.
func (q *inbox) put(b []byte, from net.Addr) {
	select {
	case <-q.closed:
		return
	default:
	}
	select {
	case q.queue <- datagram{b, from}:
	default:
		q.dropped.Add(1)
	}
}

// read copies the next datagram into p (truncating, as a UDP socket does) and returns its
// length and sender. It fails with os.ErrDeadlineExceeded past the read deadline and with
// net.ErrClosed once the inbox is closed.
func (q *inbox) read(p []byte) (int, net.Addr, error) {
	for {
		q.mu.Lock()
		deadline, moved := q.deadline, q.moved
		q.mu.Unlock()
		var expired <-chan time.Time
		var timer *time.Timer
		if !deadline.IsZero() {
			wait := time.Until(deadline)
			if wait <= 0 {
				return 0, nil, os.ErrDeadlineExceeded
			}
			timer = time.NewTimer(wait)
			expired = timer.C
		}
		n, from, err, again := q.wait(p, expired, moved)
		if timer != nil {
			timer.Stop()
		}
		if !again {
			return n, from, err
		}
	}
}

// wait is one round of read: a datagram, the close, the deadline, or (again) a new deadline.
func (q *inbox) wait(p []byte, expired <-chan time.Time, moved <-chan struct{}) (n int, from net.Addr, err error, again bool) {
	select {
	case d := <-q.queue:
		return copy(p, d.b), d.from, nil, false
	case <-q.closed:
		return 0, nil, net.ErrClosed, false
	case <-expired:
		return 0, nil, os.ErrDeadlineExceeded, false
	case <-moved:
		return 0, nil, nil, true
	}
}

// setDeadline sets the read deadline; the zero time means none.
func (q *inbox) setDeadline(t time.Time) {
	q.mu.Lock()
	q.deadline = t
	close(q.moved)
	q.moved = make(chan struct{})
	q.mu.Unlock()
}

// close wakes every reader with net.ErrClosed; later puts are dropped.
func (q *inbox) close() { q.closeOnce.Do(func() { close(q.closed) }) }

// isClosed reports whether close was called.
func (q *inbox) isClosed() bool {
	select {
	case <-q.closed:
		return true
	default:
		return false
	}
}
