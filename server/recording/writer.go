package recording

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"runtime/debug"
	"slices"
	"sync"
	"time"

	"google.golang.org/protobuf/encoding/protodelim"

	"tanknet/netcode"
	tankv1 "tanknet/proto/tank/v1"
	"tanknet/server"
	"tanknet/wire"
	"tanknet/world"
)

// Magic opens every recording's header; FormatVersion is the newest format this package
// writes and reads.
const (
	Magic         = "tanknet-recording"
	FormatVersion = 1
)

// DefaultKeyframeEvery is how many ticks lie between keyframes: 5 s at 20 Hz.
const DefaultKeyframeEvery = 100

// queueLen bounds the records waiting for the disk: 256 ticks is about 13 s of game.
const queueLen = 256

// Recorder writes a server recording. Tick is called on the world goroutine after every
// tick and never blocks: it copies the tick's record into a recycled buffer and offers it to
// a bounded queue; a goroutine of the recorder's own turns it into records and writes them
// through a buffered writer.
type Recorder struct {
	log   *slog.Logger
	every uint32
	cfg   server.Config
	queue chan *server.TickRecord
	free  chan *server.TickRecord // copies the writer is done with, for Tick to reuse
	done  chan struct{}
	// stopped is set on the world goroutine once the queue overflowed or Close ran;
	// overflowed says the queue did.
	stopped, overflowed bool
	mu                  sync.Mutex
	err                 error
	// whole is how many bytes of whole records are known to be written: the end of the
	// records before the last successful flush. After a failed write the output may end
	// inside a record; cut back to whole, it is a valid, shorter recording (File.Close).
	whole int64
}

// ErrCannotKeepUp is what Close returns when the recording stopped because the disk fell
// queueLen ticks behind: what was written is a valid, shorter recording.
var ErrCannotKeepUp = errors.New("recording: stopped: the disk could not keep up")

// NewRecorder starts a recorder writing to w for a server running cfg, with a keyframe
// every `every` ticks (0: DefaultKeyframeEvery). Close it after the server stops.
func NewRecorder(w io.Writer, cfg server.Config, every uint32, log *slog.Logger) *Recorder {
	if every == 0 {
		every = DefaultKeyframeEvery
	}
	if log == nil {
		log = slog.Default()
	}
	r := &Recorder{log: log, every: every, cfg: cfg, queue: make(chan *server.TickRecord, queueLen),
		free: make(chan *server.TickRecord, queueLen), done: make(chan struct{})}
	go r.write(bufio.NewWriterSize(w, 64<<10))
	return r
}

// Tick records one tick, whatever its room. Call it for one tick at a time: a server calls
// its Observe functions for different rooms at once, so give Observe File.Tick (the default
// room's ticks) or a function that picks one room's.
func (r *Recorder) Tick(rec server.TickRecord) {
	if r.stopped {
		return
	}
	var c *server.TickRecord
	select {
	case c = <-r.free:
	default:
		c = new(server.TickRecord)
	}
	copyTick(c, &rec)
	select {
	case r.queue <- c:
	default:
		r.stopped, r.overflowed = true, true
		close(r.queue)
		r.log.Error("recording stopped: the disk cannot keep up (the game goes on unrecorded)", "queued", queueLen)
	}
}

// copyTick makes dst a copy of src that shares no memory with it (the world reuses its
// slices the next tick), reusing dst's slices.
func copyTick(dst, src *server.TickRecord) {
	*dst = server.TickRecord{Now: src.Now, Outcome: world.Outcome{Tick: src.Tick,
		IDs:     append(dst.IDs[:0], src.IDs...),
		Poses:   append(dst.Poses[:0], src.Poses...),
		Acks:    append(dst.Acks[:0], src.Acks...),
		Combat:  append(dst.Combat[:0], src.Combat...),
		Applied: append(dst.Applied[:0], src.Applied...),
		Starved: append(dst.Starved[:0], src.Starved...),
		Events:  append(dst.Events[:0], src.Events...),
		Shots:   copyShots(dst.Shots[:0], src.Shots),
		Contact: src.Contact,
	}}
}

// copyShots appends copies of shots to dst that share no memory with them (a shot's views
// and sighted tanks included) and returns dst. A refused shot keeps no views: it is not
// judged again, and a client's refused Fires could otherwise fill the disk (4 a tick, each
// naming every tank).
func copyShots(dst, shots []world.JudgedShot) []world.JudgedShot {
	for _, s := range shots {
		if s.Result.Verdict == netcode.VerdictRefused {
			s.Request.Views = nil
		} else {
			s.Request.Views = slices.Clone(s.Request.Views)
		}
		s.Sighted = slices.Clone(s.Sighted)
		s.Kill = nil // a recording does not keep it: the combat says who was destroyed
		dst = append(dst, s)
	}
	return dst
}

// write turns queued ticks into records and writes them until the queue closes or a write
// fails; after a failure it drains the queue so Tick never blocks.
func (r *Recorder) write(bw *bufio.Writer) {
	defer close(r.done)
	var failed error
	var total int64 // bytes of the records handed to bw
	put := func(m *tankv1.Record) {
		if failed != nil {
			return
		}
		n, err := protodelim.MarshalTo(bw, m)
		total += int64(n)
		if failed = err; failed != nil {
			r.log.Error("recording stopped: cannot write (the game goes on unrecorded)", "err", failed)
		}
	}
	flush := func() {
		if failed = bw.Flush(); failed == nil {
			r.mu.Lock()
			r.whole = total
			r.mu.Unlock()
		}
	}
	first := true
	var combat combatLog
	for rec := range r.queue {
		if first {
			first = false
			put(&tankv1.Record{Kind: &tankv1.Record_Header{Header: Header(r.cfg, rec.Tick, r.every)}})
		}
		t := TickOf(*rec)
		t.Combat = combat.changes(rec)
		if rec.Contact != r.cfg.Rules.Contact { // the room's mode was switched (server.SetContact)
			t.Contact = tankv1.Contact(rec.Contact)
		}
		put(&tankv1.Record{Kind: &tankv1.Record_Tick{Tick: t}})
		if rec.Tick%r.every == 0 {
			put(&tankv1.Record{Kind: &tankv1.Record_Keyframe{Keyframe: KeyframeOf(*rec)}})
		}
		select {
		case r.free <- rec:
		default:
		}
		if failed == nil && len(r.queue) == 0 {
			if flush(); failed != nil {
				r.log.Error("recording stopped: cannot write (the game goes on unrecorded)", "err", failed)
			}
		}
	}
	if failed == nil {
		flush()
	}
	r.mu.Lock()
	r.err = failed
	r.mu.Unlock()
}

// Close stops recording, writes what is queued and returns why the recording stopped early:
// the first write error, or ErrCannotKeepUp after the queue overflowed. Call it on the world
// goroutine's side, after the server has stopped ticking.
func (r *Recorder) Close() error {
	if !r.stopped {
		r.stopped = true
		close(r.queue)
	}
	<-r.done
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.err == nil && r.overflowed {
		return ErrCannotKeepUp
	}
	return r.err
}

// Whole returns how many bytes of whole records were written: after a write error the
// output ends with them or somewhere after, inside a record. Call it after Close.
func (r *Recorder) Whole() int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.whole
}

// Header describes a server running cfg whose first recorded tick is first.
func Header(cfg server.Config, first, every uint32) *tankv1.RecordingHeader {
	return &tankv1.RecordingHeader{
		Magic: Magic, FormatVersion: FormatVersion, ModuleVersion: moduleVersion(),
		TickIntervalMs: uint32(netcode.StepInterval / time.Millisecond),
		Arena:          wire.ArenaToProto(&cfg.Arena), Rules: wire.RulesToProto(cfg.Rules),
		Contact: cfg.Rules.Contact == netcode.ContactServer, KeyframeEvery: every, FirstTick: first, Shots: true,
	}
}

// moduleVersion names the build: its module version and VCS revision, when known.
func moduleVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	v := bi.Main.Path + " " + bi.Main.Version
	for _, s := range bi.Settings {
		if s.Key == "vcs.revision" || s.Key == "vcs.modified" {
			v += fmt.Sprintf(" %s=%s", s.Key, s.Value)
		}
	}
	return v
}

// TickOf is the recorded form of one tick.
func TickOf(rec server.TickRecord) *tankv1.RecordedTick {
	t := &tankv1.RecordedTick{Tick: rec.Tick, Starved: append([]uint32(nil), rec.Starved...),
		StateHash: stateHash(rec.IDs, rec.Poses, rec.Acks)}
	for _, e := range rec.Events {
		ev := &tankv1.WorldEvent{Kind: tankv1.WorldEvent_KIND_PLACED, PlayerId: e.Player, Pose: poseOf(e.Pose)}
		if e.Left {
			ev.Kind, ev.Pose = tankv1.WorldEvent_KIND_LEFT, nil
		}
		t.Events = append(t.Events, ev)
	}
	for _, a := range rec.Applied {
		t.Moves = append(t.Moves, &tankv1.AppliedMove{PlayerId: a.Player, MoveTick: a.MoveTick,
			Turn: a.Input.Turn, Throttle: a.Input.Throttle, DurationNs: int64(a.Duration), PushX: a.Push.X, PushY: a.Push.Y})
	}
	for _, s := range rec.Shots {
		t.Shots = append(t.Shots, &tankv1.RecordedShot{ShooterId: s.Shooter, Fire: wire.FireToProto(s.Request),
			Result: wire.ShotResultToProto(s.Result), Sighted: slices.Clone(s.Sighted)})
	}
	return t
}

// KeyframeOf is the whole world at the end of rec's tick.
func KeyframeOf(rec server.TickRecord) *tankv1.Keyframe {
	k := &tankv1.Keyframe{Tick: rec.Tick}
	for i, id := range rec.IDs {
		t := &tankv1.KeyTank{PlayerId: id, Pose: poseOf(rec.Poses[i])}
		if i < len(rec.Acks) {
			t.Ack = rec.Acks[i]
		}
		if i < len(rec.Combat) {
			c := rec.Combat[i]
			t.Health, t.Destroyed, t.RespawnTick = c.Health, c.Destroyed, c.RespawnTick
		}
		k.Tanks = append(k.Tanks, t)
	}
	return k
}

func poseOf(p netcode.Pose) *tankv1.RecordedPose {
	return &tankv1.RecordedPose{X: p.X, Y: p.Y, Heading: p.Heading}
}

// combatLog is each tank's combat state at the end of the last tick written, for
// RecordedTick.combat: what changed since.
type combatLog struct{ last, next map[uint32]world.TankCombat }

// changes returns the tanks of rec whose combat state differs from the last tick's (or that
// were not in it), in rec's order (id order), and remembers rec's.
func (l *combatLog) changes(rec *server.TickRecord) []*tankv1.CombatChange {
	if l.next == nil {
		l.last, l.next = map[uint32]world.TankCombat{}, map[uint32]world.TankCombat{}
	}
	clear(l.next)
	var out []*tankv1.CombatChange
	for i, id := range rec.IDs {
		if i >= len(rec.Combat) {
			break
		}
		c := rec.Combat[i]
		l.next[id] = c
		if was, ok := l.last[id]; !ok || was != c {
			out = append(out, &tankv1.CombatChange{PlayerId: id, Health: c.Health, Destroyed: c.Destroyed, RespawnTick: c.RespawnTick})
		}
	}
	l.last, l.next = l.next, l.last
	return out
}
