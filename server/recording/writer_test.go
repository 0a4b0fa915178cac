package recording

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"runtime"
	"strings"
	"sync"
	"tanknet/world"
	"testing"
	"time"

	"google.golang.org/protobuf/encoding/protodelim"

	"tanknet/netcode"
	tankv1 "tanknet/proto/tank/v1"
	"tanknet/server"
)

// syntheticTick is a tick of n players, each with one applied input.
func syntheticTick(tick uint32, n int) server.TickRecord {
	rec := server.TickRecord{Outcome: world.Outcome{Tick: tick}}
	for i := range n {
		id := uint32(i + 1)
		rec.IDs = append(rec.IDs, id)
		rec.Poses = append(rec.Poses, netcode.Pose{X: float64(i), Y: float64(tick) / 8, Heading: 0.5})
		rec.Acks = append(rec.Acks, tick)
		rec.Combat = append(rec.Combat, world.TankCombat{Health: 100})
		rec.Applied = append(rec.Applied, world.AppliedInput{Player: id, MoveTick: tick,
			Input: netcode.Input{Turn: 0.3, Throttle: 1}, Duration: netcode.StepInterval})
	}
	return rec
}

// lockedLog is a log the recorder's goroutine and the test both touch.
type lockedLog struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *lockedLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *lockedLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// stuckWriter blocks every write until released, like a disk that stopped answering.
type stuckWriter struct{ release chan struct{} }

func (w stuckWriter) Write(p []byte) (int, error) { <-w.release; return len(p), nil }

// A disk that stops answering never blocks a tick: once the queue is full the recording
// stops, says so, and every later tick returns at once.
func TestRecorderStopsRatherThanStall(t *testing.T) {
	var log lockedLog
	w := stuckWriter{release: make(chan struct{})}
	r := NewRecorder(w, server.DefaultConfig(), 10, slog.New(slog.NewTextHandler(&log, nil)))
	done := make(chan struct{})
	go func() {
		defer close(done)
		for tick := uint32(1); tick <= 2*queueLen+50; tick++ {
			r.Tick(syntheticTick(tick, 64)) // 64 KiB of buffer fill up before the writer sticks
		}
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second): // only a blocking Tick gets here
		t.Fatal("Tick blocked behind a stuck writer")
	}
	if !strings.Contains(log.String(), "recording stopped: the disk cannot keep up") {
		t.Errorf("log does not say the recording stopped: %q", log.String())
	}
	close(w.release)
	if err := r.Close(); !errors.Is(err, ErrCannotKeepUp) {
		t.Errorf("Close: %v, want ErrCannotKeepUp", err)
	}
}

// fillingWriter takes room bytes, then fails partway through the write that passes it, as
// a disk that fills up does.
type fillingWriter struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	room int
}

func (w *fillingWriter) full() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.Len() >= w.room
}

func (w *fillingWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if n := w.room - w.buf.Len(); n < len(p) {
		w.buf.Write(p[:max(n, 0)])
		return max(n, 0), errors.New("no space left on device")
	}
	return w.buf.Write(p)
}

// A disk that fills up can cut the file inside a record; Whole says where the last whole
// record ends, and the file cut back there (as File.Close does) reads to its end.
func TestRecorderWholeAfterAFullDisk(t *testing.T) {
	w := &fillingWriter{room: 300 << 10} // past several flushes of the 64 KiB buffer
	r := NewRecorder(w, server.DefaultConfig(), 10, slog.New(slog.NewTextHandler(io.Discard, nil)))
	// waitFor waits for the writer (this test is about the disk, not the queue: it never
	// lets the queue fill).
	waitFor := func(what string, cond func() bool) {
		t.Helper()
		for deadline := time.Now().Add(20 * time.Second); !cond(); time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("waited 20 s for %s", what)
			}
		}
	}
	tick := uint32(1)
	for ; tick <= 3; tick++ {
		r.Tick(syntheticTick(tick, 64))
	}
	waitFor("the first records to be flushed", func() bool { return r.Whole() > 0 })
	for ; !w.full(); tick++ {
		if tick > 10000 {
			t.Fatalf("%d ticks did not fill the disk's %d bytes", tick, w.room)
		}
		waitFor("the queue to drain", func() bool { return len(r.queue) < queueLen/2 })
		r.Tick(syntheticTick(tick, 64))
	}
	if err := r.Close(); err == nil || errors.Is(err, ErrCannotKeepUp) {
		t.Fatalf("Close: %v, want the write error", err)
	}
	whole := r.Whole()
	if whole == 0 || whole >= int64(w.buf.Len()) {
		t.Fatalf("Whole() = %d of %d bytes written, want some records and a cut inside one after them", whole, w.buf.Len())
	}
	read := func(b []byte) (records int, err error) {
		rd, err := NewReader(bytes.NewReader(b))
		if err != nil {
			return 0, err
		}
		for {
			if _, err := rd.Next(); err == io.EOF {
				return records, nil
			} else if err != nil {
				return records, err
			}
			records++
		}
	}
	if _, err := read(w.buf.Bytes()); err == nil {
		t.Fatal("the file as the full disk left it reads to its end: want a record cut short, or the test proves nothing")
	}
	if n, err := read(w.buf.Bytes()[:whole]); err != nil || n == 0 {
		t.Errorf("cut back to Whole(): %d records, %v; want a valid, shorter recording", n, err)
	}
}

// failingWriter fails every write, like a full disk.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

// A write error stops the recording with a log line and an error from Close; ticks go on.
func TestRecorderWriteErrorStopsRecording(t *testing.T) {
	var log lockedLog
	r := NewRecorder(failingWriter{}, server.DefaultConfig(), 10, slog.New(slog.NewTextHandler(&log, nil)))
	for tick := uint32(1); tick <= 3000; tick++ {
		r.Tick(syntheticTick(tick, 8))
	}
	err := r.Close()
	if err == nil || !strings.Contains(err.Error(), "no space left") {
		t.Errorf("Close: %v, want the write error", err)
	}
	if !strings.Contains(log.String(), "recording stopped: cannot write") {
		t.Errorf("log does not say why the recording stopped: %q", log.String())
	}
}

// BenchmarkRecorderTick is what recording adds to the world goroutine per tick: turning the
// tick into records (a keyframe every 100th) and queueing them. The loop runs ticks far
// faster than every 50 ms, so the writer may fall a queue behind; such a recorder is
// replaced outside the timer.
func BenchmarkRecorderTick(b *testing.B) {
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	for _, n := range []int{8, 64, 256} {
		b.Run(fmt.Sprintf("players=%d", n), func(b *testing.B) {
			r := NewRecorder(io.Discard, server.DefaultConfig(), DefaultKeyframeEvery, quiet)
			rec := syntheticTick(1, n)
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				rec.Tick = uint32(i + 1)
				r.Tick(rec)
				if r.stopped {
					b.StopTimer()
					r.Close()
					r = NewRecorder(io.Discard, server.DefaultConfig(), DefaultKeyframeEvery, quiet)
					b.StartTimer()
				}
			}
			b.StopTimer()
			r.Close()
		})
	}
}

// BenchmarkRecorderTick_Paced is the world goroutine's cost per tick as a server pays it:
// between two ticks (50 ms on a server) the writer has taken the tick and given its buffer
// back, so Tick copies into recycled memory. The wait for that is not timed.
func BenchmarkRecorderTick_Paced(b *testing.B) {
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	for _, n := range []int{8, 64, 256} {
		b.Run(fmt.Sprintf("players=%d", n), func(b *testing.B) {
			r := NewRecorder(io.Discard, server.DefaultConfig(), DefaultKeyframeEvery, quiet)
			defer r.Close()
			rec := syntheticTick(1, n)
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				rec.Tick = uint32(i + 1)
				r.Tick(rec)
				b.StopTimer()
				for deadline := time.Now().Add(time.Second); len(r.queue) > 0 || len(r.free) == 0; runtime.Gosched() {
					if time.Now().After(deadline) {
						b.Fatal("the writer took no tick for a second")
					}
				}
				b.StartTimer()
			}
		})
	}
}

// BenchmarkRecordWrite is the recorder goroutine's cost per tick: encoding one tick's
// record (and a keyframe every 100th) into the buffered file.
func BenchmarkRecordWrite(b *testing.B) {
	for _, n := range []int{8, 256} {
		b.Run(fmt.Sprintf("players=%d", n), func(b *testing.B) {
			rec := syntheticTick(100, n)
			tick := &tankv1.Record{Kind: &tankv1.Record_Tick{Tick: TickOf(rec)}}
			key := &tankv1.Record{Kind: &tankv1.Record_Keyframe{Keyframe: KeyframeOf(rec)}}
			bw := bufio.NewWriter(io.Discard)
			size := 0
			b.ReportAllocs()
			for i := range b.N {
				k, _ := protodelim.MarshalTo(bw, tick)
				size += k
				if i%DefaultKeyframeEvery == 0 {
					k, _ = protodelim.MarshalTo(bw, key)
					size += k
				}
			}
			b.ReportMetric(float64(size)/float64(b.N), "bytes/tick")
		})
	}
}
