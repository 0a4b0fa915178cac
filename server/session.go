package server

import (
	"sync"
	"sync/atomic"
	"time"

	"tanknet/netcode"
	"tanknet/transport"
	"tanknet/wire"
	"tanknet/world"
)

// session is the server side of one connection: the inbox its reader fills, and the outbox
// its writer drains. It implements peer for the world.
type session struct {
	conn  *transport.Conn
	lane  wire.Lane
	stats *counters

	joined  atomic.Bool   // set once Welcome is queued: datagrams count from then on
	ackTick atomic.Uint32 // InputBatch.snapshot_ack_tick, newest seen (for delta snapshots)
	mode    atomic.Int32  // an inputMode: how the client asked for its inputs to be applied
	// away is set by an Away and cleared by the next MoveInput on the stream that is not
	// stale (pushInput): till then the reader waits AwayTimeout of silence, not IdleTimeout
	// (see away.go).
	away        atomic.Bool
	awayTimeout time.Duration // Config.AwayTimeout: the idle and write limits while away
	clock       *serverClock  // server time, for when inputs arrive

	inMu    sync.Mutex
	inbox   []netcode.PendingInput
	fires   []netcode.ShotRequest
	copies  []netcode.PendingInput // from InputBatch datagrams, as they came
	arrived inputArrivals          // when each recent move tick first came
	awayAt  uint32                 // the newest Away's last move tick, for the game, when awayNew
	awayNew bool
	// streamNewest is the highest move tick of a MoveInput on the stream; awayFrom, that or
	// the last Away's tick, whichever was higher then: a MoveInput above it ends the Away.
	streamNewest, awayFrom uint32

	outMu    sync.Mutex
	control  []controlFrame
	snapshot []byte     // newest unsent snapshot frame, shared read-only with other sessions
	chunks   [][]byte   // newest unsent snapshot chunks (datagram lane), shared the same way
	goodbye  dropReason // set once by kick: the writer sends Disconnect and closes
	closing  bool
	overflow bool          // the control queue overflowed: the session dropped its client itself
	wake     chan struct{} // capacity 1: "the outbox changed"
	// wakeHeld is set while the room's tick runs (holdWakes, room.go): wakes are noted in
	// wakeOwed and given once the tick's work is done.
	wakeHeld, wakeOwed atomic.Bool
	done               chan struct{} // closed when the connection is closed
	doneOnce           sync.Once
}

func newSession(conn *transport.Conn, cfg *Config, stats *counters, clock *serverClock) *session {
	return &session{
		conn:        conn,
		awayTimeout: cfg.AwayTimeout,
		lane:        cfg.Lane,
		stats:       stats,
		clock:       clock,
		wake:        make(chan struct{}, 1),
		done:        make(chan struct{}),
	}
}

// maxControlFrames bounds a session's queue of control frames. The queue only grows while a
// write is blocked, which lasts at most transport.WriteTimeout (2 s = 40 ticks) before the
// client is dropped anyway; in that time the server queues at most one roster update per
// tick (two when a tick's changes exceed rosterFrameBudget) and maxPingsPerSecond Pongs a
// second: 2*40 + 2*10 = 100 frames. Welcome and the first roster (up to two frames at 256
// players) come on top. Roster updates that wait behind one another merge (sendRoster), so
// after an Away, when a write may block for minutes, roster churn alone does not fill it.
const maxControlFrames = 2*int(transport.WriteTimeout/tickInterval) + 2*maxPingsPerSecond + 4

// maxStreamInputsPerTick bounds the MoveInputs a session's stream may deliver between two
// ticks. A client sends one per 50 ms step, but a stream stalled behind a lost segment
// releases everything behind it at once: at most the input stream's KCP window (512
// segments, one MoveInput each) of inputs that mostly arrived already as datagram copies,
// plus what came since. Twice the window holds that; only a flood exceeds it.
const maxStreamInputsPerTick = 2 * 512

// maxDatagramCopies is how many datagram MoveInputs a session queues between two ticks:
// four full batches, where an honest client sends one. Beyond it datagrams are dropped.
const maxDatagramCopies = 4 * wire.MaxBatchInputs

// notify wakes the writer: "the outbox changed". While the room's tick holds wakes
// (holdWake) it only notes the wake as owed, for releaseWake.
func (s *session) notify() {
	if s.wakeHeld.Load() {
		s.wakeOwed.Store(true)
		if s.wakeHeld.Load() {
			return // releaseWake, still to come, sees the owed wake
		}
	}
	s.wakeWriter()
}

func (s *session) wakeWriter() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// holdWake has notify keep the writer's wakes until releaseWake.
func (s *session) holdWake() { s.wakeHeld.Store(true) }

// releaseWake ends holdWake and wakes the writer if a wake was held back. A notify racing
// with it wakes the writer itself or leaves the wake to it: none is lost, a wake may come
// twice.
func (s *session) releaseWake() {
	s.wakeHeld.Store(false)
	if s.wakeOwed.Swap(false) {
		s.wakeWriter()
	}
}

// pushInput is called by the reader goroutine with a MoveInput from the stream. It reports
// false when the inbox is full, which means the client floods and must go. One whose tick
// is above the Away's and every earlier one's on the stream (PROTOCOL.md §6b) ends an Away
// for the reader too: the usual limits hold again. An older one, stale, ends nothing here,
// as it changes nothing in the game.
func (s *session) pushInput(in netcode.PendingInput) bool {
	s.inMu.Lock()
	defer s.inMu.Unlock()
	if len(s.inbox) >= maxStreamInputsPerTick {
		return false
	}
	s.inbox = append(s.inbox, in)
	s.arrived.note(in.Tick, s.clock.since())
	s.streamNewest = max(s.streamNewest, in.Tick)
	if in.Tick > s.awayFrom {
		s.away.Store(false)
	}
	return true
}

// inputArrival returns when move tick first reached this session, as server time.
func (s *session) inputArrival(tick uint32) (time.Duration, bool) {
	s.inMu.Lock()
	defer s.inMu.Unlock()
	return s.arrived.at(tick)
}

// inputMode returns how the client asked for its inputs to be applied.
func (s *session) inputMode() world.InputMode { return world.InputMode(s.mode.Load()) }

// setInputMode records an InputMode message.
func (s *session) setInputMode(onArrival bool) {
	m := world.ModeBuffered
	if onArrival {
		m = world.ModeOnArrival
	}
	s.mode.Store(int32(m))
}

func (s *session) takeInputs(dst []netcode.PendingInput) []netcode.PendingInput {
	s.inMu.Lock()
	dst = append(dst, s.inbox...)
	s.inbox = s.inbox[:0]
	s.inMu.Unlock()
	return dst
}

// maxFiresPerTick is how many Fires a session queues between two ticks. An honest client
// fires at most once per cooldown (10 ticks by default); beyond this, Fires are dropped
// unanswered and counted, so hammering costs the server almost nothing.
const maxFiresPerTick = 4

// pushFire is called by the reader goroutine. It reports false, keeping nothing, when
// maxFiresPerTick Fires already wait for the next tick.
func (s *session) pushFire(f netcode.ShotRequest) bool {
	s.inMu.Lock()
	defer s.inMu.Unlock()
	if len(s.fires) >= maxFiresPerTick {
		return false
	}
	s.fires = append(s.fires, f)
	return true
}

func (s *session) takeFires(dst []netcode.ShotRequest) []netcode.ShotRequest {
	s.inMu.Lock()
	dst = append(dst, s.fires...)
	clear(s.fires)
	s.fires = s.fires[:0]
	s.inMu.Unlock()
	return dst
}

func (s *session) takeDatagramInputs(dst []netcode.PendingInput) []netcode.PendingInput {
	s.inMu.Lock()
	dst = append(dst, s.copies...)
	s.copies = s.copies[:0]
	s.inMu.Unlock()
	return dst
}

// onDatagram handles one datagram from the client. It runs on the listener's receive
// goroutine, shared by every session, so it only decodes, checks and queues: whatever the
// bytes are, it drops and counts what it cannot use and never blocks or panics.
func (s *session) onDatagram(b []byte) {
	var batch wire.BatchReader
	switch err := batch.Read(b); {
	case err != nil:
		s.stats.badDatagrams.Add(1)
		return
	case !s.joined.Load() || s.lane != wire.LaneDatagram:
		s.stats.droppedDatagrams.Add(1)
		return
	}
	if t := batch.AckTick(); t > s.ackTick.Load() {
		s.ackTick.Store(t)
	}
	s.inMu.Lock()
	defer s.inMu.Unlock()
	if len(s.copies)+batch.Len() > maxDatagramCopies {
		s.stats.droppedDatagrams.Add(1)
		return
	}
	n := len(s.copies)
	s.copies = batch.AppendInputs(s.copies)
	s.arrived.noteAll(s.copies[n:], s.clock.since())
}

// controlFrame is one framed control message waiting for the writer.
type controlFrame struct {
	frame  []byte
	roster *wire.Roster // what frame says when it is a RosterUpdate (read-only), else nil
}

func (s *session) send(frame []byte) {
	if frame != nil {
		s.queue(controlFrame{frame: frame})
	}
}

// sendRoster queues a RosterUpdate (queue merges it into one still waiting before it).
func (s *session) sendRoster(update controlFrame) {
	if update.frame != nil {
		s.queue(update)
	}
}

// queue appends c to the control queue, or drops the client when the queue is full. A
// RosterUpdate queued right behind another still waiting behind a blocked write (a frozen
// page's, say) becomes one with it, so roster churn alone never fills the queue
// (mergeRoster).
func (s *session) queue(c controlFrame) {
	s.outMu.Lock()
	if n := len(s.control); c.roster != nil && n > 0 && !s.closing && s.control[n-1].roster != nil {
		if merged, ok := mergeRoster(s.control[n-1].roster, c.roster); ok {
			if len(merged.roster.Joined)+len(merged.roster.Left) == 0 {
				s.control[n-1] = controlFrame{}
				s.control = s.control[:n-1] // everyone in them came and went unheard
			} else {
				s.control[n-1] = merged
			}
			s.outMu.Unlock()
			return // the writer was woken for the frame merged into
		}
	}
	overflow := !s.closing && len(s.control) >= maxControlFrames
	if !s.closing && !overflow {
		s.control = append(s.control, c)
	}
	s.overflow = s.overflow || overflow
	s.outMu.Unlock()
	if overflow {
		// The queue fills only behind a blocked write, which no Disconnect would pass: the
		// client goes now, not when that write times out (after an Away, minutes away).
		s.kick(dropSlow.reason("control queue full"))
		s.close()
		return
	}
	s.notify()
}

func (s *session) sendSnapshot(frame []byte) {
	if frame == nil {
		return
	}
	s.outMu.Lock()
	s.snapshot = frame
	s.outMu.Unlock()
	s.notify()
}

func (s *session) snapshotAck() uint32 { return s.ackTick.Load() }

func (s *session) rtt() time.Duration { return s.conn.SmoothedRTT() }

func (s *session) sendChunks(chunks [][]byte) {
	if len(chunks) == 0 {
		return
	}
	s.outMu.Lock()
	s.chunks = chunks
	s.outMu.Unlock()
	s.notify()
}

// snapshotUnsent reports whether the writer has yet to take the newest snapshot (a stream
// frame or chunks) given to the session.
func (s *session) snapshotUnsent() bool {
	s.outMu.Lock()
	defer s.outMu.Unlock()
	return (s.snapshot != nil || s.chunks != nil) && !s.closing
}

// kick asks the writer to send Disconnect{reason} and close. Only the first reason counts.
func (s *session) kick(reason dropReason) {
	s.outMu.Lock()
	if !s.closing {
		s.closing, s.goodbye = true, reason
	}
	s.outMu.Unlock()
	s.notify()
}

// overflowed reports whether the session dropped its client itself, for a full control
// queue (send): the one drop no one else logs.
func (s *session) overflowed() bool {
	s.outMu.Lock()
	defer s.outMu.Unlock()
	return s.overflow
}

// kickReason returns the reason given to kick; no drop if the session was not kicked.
func (s *session) kickReason() dropReason {
	s.outMu.Lock()
	defer s.outMu.Unlock()
	return s.goodbye
}

// close closes the connection (transport.Conn.Close: at once for reading and writing, while
// KCP retransmits what is unacknowledged a moment longer); safe to call more than once.
func (s *session) close() {
	s.doneOnce.Do(func() {
		close(s.done)
		if s.conn != nil { // a unit test's session has none
			s.conn.Close()
		}
	})
}

// writeLoop writes the outbox until the session closes. It returns the write error that
// ended it, if any. Control messages go first, in order, then the newest snapshot: on the
// stream, or as chunk datagrams.
func (s *session) writeLoop() error {
	var batch, chunks [][]byte
	for {
		select {
		case <-s.wake:
		case <-s.done:
			return nil
		}
		s.outMu.Lock()
		batch = batch[:0]
		for _, c := range s.control {
			batch = append(batch, c.frame)
		}
		clear(s.control)
		s.control = s.control[:0]
		if s.snapshot != nil && !s.closing {
			batch = append(batch, s.snapshot)
			s.snapshot = nil
		}
		chunks = chunks[:0]
		if s.chunks != nil && !s.closing {
			chunks = append(chunks, s.chunks...)
			s.chunks = nil
		}
		closing, reason := s.closing, s.goodbye
		s.outMu.Unlock()
		for _, f := range batch {
			if err := s.conn.SendFrameWithin(f, s.writeTimeout()); err != nil {
				return s.writeFailure(err)
			}
		}
		for _, c := range chunks {
			// A datagram the session cannot take is lost like one the network drops; only
			// a closed session fails here, and the stream write reports that.
			_ = s.conn.SendDatagram(c)
		}
		if closing {
			// Best effort: Close lets KCP retransmit it until acknowledged, CloseLinger at most.
			_ = s.conn.Send(wire.ServerMessageToProto(reason.disconnect()))
			s.close()
			return nil
		}
	}
}

// writeFailure is what a failed stream write means for the session: nil when the
// connection was closed under it, by the server (the session ended) or by the transport (a
// client started again on the same address and port replaces the conversation, PROTOCOL.md
// §1.5), for the reader then says the player left with its connection closed; otherwise
// err, the client not taking its bytes (a write blocked past its timeout).
func (s *session) writeFailure(err error) error {
	select {
	case <-s.done:
		return nil
	default:
	}
	if connectionClosed(err) {
		return nil
	}
	return err
}

// writeTimeout is how long one stream write may block before the client is dropped as too
// slow: transport.WriteTimeout, or the away timeout while the client is away (a frozen page
// acknowledges nothing, and its stream waits for it as its idle timeout does).
func (s *session) writeTimeout() time.Duration {
	if s.away.Load() {
		return max(transport.WriteTimeout, s.awayTimeout)
	}
	return transport.WriteTimeout
}
