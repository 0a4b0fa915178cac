package server

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"runtime"
	"time"

	"tanknet/netcode"
	"tanknet/world"
)

// TickAllocs returns the heap allocations one server tick makes with players connected,
// each sending one full-throttle input per tick: admit, simulate, contact (as cfg.Rules.Contact
// says) and one encoded snapshot. It steps a private game with sink peers that discard
// everything they are sent, so no network code runs; cfg.MaxPlayers is raised to players.
//
// The allocation counter is process-wide, so TickAllocs measures batches of batchTicks ticks
// and returns the smallest per-tick average among batches: another goroutine allocating
// meanwhile can only raise a batch, never lower it. Run it while the rest of the process is
// quiet. ticks is the total number of measured ticks, split into batches of at most 50.
func TickAllocs(cfg Config, players, ticks int) (float64, error) {
	if players < 1 || players > 256 {
		return 0, fmt.Errorf("server: tick allocs: %d players outside [1, 256]", players)
	}
	if ticks < 1 {
		return 0, errors.New("server: tick allocs: need at least one tick")
	}
	cfg.MaxPlayers = max(cfg.MaxPlayers, players)
	cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	if cfg.Addr == "" {
		cfg.Addr = "127.0.0.1:0" // never listened on; only Validate looks at it
	}
	if err := cfg.Validate(); err != nil {
		return 0, err
	}
	step, err := syntheticTicker(&cfg, players)
	if err != nil {
		return 0, err
	}
	step() // warm-up: scratch slices and snapshot entries grow to size here

	const batchTicks = 50 // long enough to average out the odd amortized slice growth
	best := -1.0
	var before, after runtime.MemStats
	for left := ticks; left > 0; {
		n := min(left, batchTicks)
		left -= n
		runtime.ReadMemStats(&before)
		for range n {
			step()
		}
		runtime.ReadMemStats(&after)
		avg := float64(after.Mallocs-before.Mallocs) / float64(n)
		if best < 0 || avg < best {
			best = avg
		}
	}
	return best, nil
}

// syntheticTicker builds a game of players sink peers, each driving in circles with one
// input per tick, and returns a function that runs the game's next tick. cfg.Logger must be
// set. TickAllocs and the tick benchmark measure this world.
func syntheticTicker(cfg *Config, players int) (step func(), err error) {
	g := newGame(cfg, cfg.Logger, new(counters))
	peers := make([]*sinkPeer, players)
	for i := range peers {
		peers[i] = &sinkPeer{in: []netcode.PendingInput{{
			Input:    netcode.Input{Turn: 0.3, Throttle: 1}, // circles: tanks keep moving and sometimes touch
			Duration: netcode.StepInterval,
		}}}
		if _, reject := g.join(0, fmt.Sprintf("measure-%d", i+1), peers[i]); reject != nil {
			return nil, fmt.Errorf("server: synthetic game: join: %s", reject.Reason)
		}
	}
	var tick uint32
	return func() {
		tick++
		for _, p := range peers {
			p.in[0].Tick = tick
		}
		g.step(time.Duration(tick) * tickInterval)
	}, nil
}

// sinkPeer is a peer that offers the same input slice every tick and keeps nothing it is
// sent, so TickAllocs counts the world's allocations alone.
type sinkPeer struct {
	in  []netcode.PendingInput
	ack uint32 // the snapshot acknowledgement it reports (delta baselines)
}

func (p *sinkPeer) takeInputs(dst []netcode.PendingInput) []netcode.PendingInput {
	return append(dst, p.in...)
}
func (p *sinkPeer) takeDatagramInputs(dst []netcode.PendingInput) []netcode.PendingInput {
	return dst
}
func (p *sinkPeer) takeFires(dst []netcode.ShotRequest) []netcode.ShotRequest { return dst }
func (p *sinkPeer) rtt() time.Duration                                        { return 0 }
func (p *sinkPeer) send([]byte)                                               {}
func (p *sinkPeer) sendRoster(controlFrame)                                   {}
func (p *sinkPeer) sendSnapshot([]byte)                                       {}
func (p *sinkPeer) snapshotAck() uint32                                       { return p.ack }
func (p *sinkPeer) kick(dropReason)                                           {}
func (p *sinkPeer) sendChunks([][]byte)                                       {}
func (p *sinkPeer) inputArrival(uint32) (time.Duration, bool)                 { return 0, false }
func (p *sinkPeer) takeAway() (uint32, bool)                                  { return 0, false }
func (p *sinkPeer) awayIgnored()                                              {}
func (p *sinkPeer) inputMode() world.InputMode                                { return world.ModeServerDefault }
