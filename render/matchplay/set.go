package matchplay

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"time"

	"tanknet/client"
	"tanknet/server/recording"
	"tanknet/world"
)

// Set is a recording set on one playback clock. Near is the clock: move it (Seek, Advance,
// StepFrames), then call Follow to bring the far player and the server's truth to the same
// moment.
type Set struct {
	Near, Far *client.Playback
	Match     *recording.Match
	// nearStart and farStart are each recording's first frame, since its Game began: a
	// Playback's positions count from there.
	nearStart, farStart time.Duration
	newest              []client.TickArrived // by arrival: the newest tick either player had by then
	before              uint32               // the tick shown before any snapshot arrived
	tick                uint32               // the server tick of Truth
	truth               []world.TankState
}

// Part is one file of a set: its name (for errors) and its bytes.
type Part struct {
	Name string
	Data []byte
}

// Open reads a set and checks that its parts are of one match: each player's arena is the
// server's, each player is in the server's recording, and the last state each player
// received of its own tank is where the server recording puts it at that tick.
func Open(near, far, server Part) (*Set, error) {
	m, err := recording.Load(bytes.NewReader(server.Data))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", server.Name, err)
	}
	s := &Set{Match: m}
	if s.Near, err = client.NewPlayback(near.Data); err != nil { // reads and checks every frame
		return nil, fmt.Errorf("%s: %w", near.Name, err)
	}
	if s.Far, err = client.NewPlayback(far.Data); err != nil {
		return nil, fmt.Errorf("%s: %w", far.Name, err)
	}
	var nearTicks, farTicks []client.TickArrived
	if s.nearStart, nearTicks, err = s.check(near); err != nil {
		return nil, err
	}
	if s.farStart, farTicks, err = s.check(far); err != nil {
		return nil, err
	}
	s.before = max(s.Near.Game().Welcome().ServerTick, s.Far.Game().Welcome().ServerTick, m.First())
	s.newest = newestBy(append(nearTicks, farTicks...))
	return s, s.Follow()
}

// check replays one player's recording to its end and checks it against the server's: it
// returns the recording's first frame's time and every snapshot arrival.
func (s *Set) check(p Part) (start time.Duration, ticks []client.TickArrived, err error) {
	epoch := time.Unix(0, 0)
	rep, err := client.OpenReplay(bytes.NewReader(p.Data), epoch)
	if err != nil {
		return 0, nil, fmt.Errorf("%s: %w", p.Name, err)
	}
	for first := true; ; first = false {
		at, err := rep.Step()
		if errors.Is(err, io.EOF) {
			break
		}
		if first {
			start = at.Sub(epoch)
		}
		ticks = rep.SnapshotTicks(ticks)
		if err != nil {
			break // the recorded session ended here (NewPlayback read the file whole)
		}
	}
	g := rep.Game()
	w := g.Welcome()
	m := s.Match
	if !reflect.DeepEqual(w.Arena, m.Arena()) {
		return 0, nil, fmt.Errorf("%s and the server recording are not of one match: their arenas differ", p.Name)
	}
	l := g.Local()
	if l == nil || l.Baseline().Tick == 0 {
		return 0, nil, fmt.Errorf("%s: the player never received its own tank: nothing to line up with the server recording", p.Name)
	}
	b := l.Baseline()
	if b.Tick < m.First() || b.Tick > m.Last() {
		return 0, nil, fmt.Errorf("%s and the server recording are not of one match: the player's last snapshot is of tick %d, the server recording holds ticks %d to %d", p.Name, b.Tick, m.First(), m.Last())
	}
	tanks, _, err := m.At(b.Tick, nil)
	if err != nil {
		return 0, nil, err
	}
	i := slices.IndexFunc(tanks, func(t world.TankState) bool { return t.ID == w.PlayerID })
	if i < 0 || tanks[i].Pose != b.Pose {
		return 0, nil, fmt.Errorf("%s and the server recording are not of one match: at tick %d the player (id %d) received its tank at %+v, the server recording has %s", p.Name, b.Tick, w.PlayerID, b.Pose, placeOf(tanks, i))
	}
	return start, ticks, nil
}

func placeOf(tanks []world.TankState, i int) string {
	if i < 0 {
		return "no such player"
	}
	return fmt.Sprintf("it at %+v", tanks[i].Pose)
}

// newestBy sorts arrivals by time and makes each one's Tick the newest tick that had arrived
// by then.
func newestBy(ts []client.TickArrived) []client.TickArrived {
	slices.SortStableFunc(ts, func(a, b client.TickArrived) int { return cmp.Compare(a.At, b.At) })
	var newest uint32
	for i := range ts {
		newest = max(newest, ts[i].Tick)
		ts[i].Tick = newest
	}
	return ts
}

// Follow brings the far player and the server's truth to the near player's moment.
func (s *Set) Follow() error {
	now := s.Near.Position() + s.nearStart // on the Games' shared clock
	if _, err := s.Far.Seek(now - s.farStart); err != nil {
		return fmt.Errorf("far player: %w", err)
	}
	tick := s.TickAt(now)
	if tick == s.tick && s.truth != nil {
		return nil
	}
	var err error
	s.truth, s.tick, err = s.Match.At(tick, s.truth[:0])
	return err
}

// TickAt returns the server tick shown at moment now on the players' clock: the newest tick
// whose snapshot had reached either player by then.
func (s *Set) TickAt(now time.Duration) uint32 {
	i, _ := slices.BinarySearchFunc(s.newest, now, func(a client.TickArrived, t time.Duration) int {
		if a.At <= t {
			return -1
		}
		return 1
	})
	if i == 0 {
		return s.before
	}
	return s.newest[i-1].Tick
}

// Tick and Truth are the server's tick at the current moment and its world then, in id order.
func (s *Set) Tick() uint32             { return s.tick }
func (s *Set) Truth() []world.TankState { return s.truth }

// Seek moves the near player to to (from its first frame), then the rest to the same moment.
func (s *Set) Seek(to time.Duration) error {
	if _, err := s.Near.Seek(to); err != nil {
		return fmt.Errorf("near player: %w", err)
	}
	return s.Follow()
}
