package sim

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"time"

	"tanknet/linksim"
	"tanknet/netcode"
	"tanknet/wire"
)

// Interpolation timelines by their flag names.
const (
	interpReceive  = "receive"  // netcode.ReceiveTimeline.String(): fixed delay behind receive time
	interpAdaptive = "adaptive" // netcode.ServerTimeline.String(): delay sized for late and lost snapshots
)

// Config is what a run takes: the bots, the server, the network and the timeline, as the
// tanksim flags of the same names set them. Start from DefaultConfig; the zero value is not
// valid.
type Config struct {
	// Server is the address of a running tankserver; "" starts one in-process on
	// 127.0.0.1, which is also what ground truth (remote error, delay, tick time) needs.
	Server string
	// Bots is how many bots play at once, in [1, 256].
	Bots int
	// Rooms, above 1, spreads the bots evenly over that many rooms of the server (matches
	// on one port, see server/rooms.go): the first share in the default room, the others in
	// rooms "room-2" and on. The report then has each room's figures too.
	Rooms int
	// Room, if set, is the room every bot joins (not with Rooms).
	Room string
	// Duration is how long each bot plays.
	Duration time.Duration
	// Seed drives the bots' steering and each bot's link conditioner; bot i uses
	// Seed*1000+i for both (separate random streams).
	Seed uint64
	// Contact is how the in-process server has tanks that touch pushed apart: predicted by
	// their clients (prediction stays exact: residual_nonzero 0), resolved by the server
	// (corrections show), or off.
	Contact netcode.ContactMode
	// NoPartialStep draws each bot's own tank between its last two prediction steps instead
	// of a partial step ahead (netcode.LocalConfig.PartialStep off), to measure what the
	// partial step buys in input_to_visible_ms.
	NoPartialStep bool
	// Net is a transport preset name (linksim.PresetNames) or "custom". Ignored with
	// Matrix, which runs every preset.
	Net string
	// Link overrides single settings of Net's link, in both directions or in one; nil
	// fields keep the preset's value.
	Link linksim.Overrides
	// InputBuffer is "on" (the default) for a server that applies each bot's inputs one per
	// tick from its input buffer while the bots dilate their clocks to keep it just full,
	// "off" for inputs applied as they arrive (the in-process server's default, and what
	// every bot asks for, so an external server does it too). With Matrix it may also be
	// "both", which runs every cell of the matrix in both modes.
	InputBuffer string
	// Groups, if any, split the bots into groups on networks of their own (their Bots add
	// up to Bots; Net is then unused). Not with Matrix.
	Groups []Group
	// Interp is the remote interpolation timeline: "receive" or "adaptive". Ignored with
	// Matrix, which runs both.
	Interp string
	// Lane is where the in-process server sends snapshots: "datagram" (the default) or
	// "reliable" (wire.ParseLane). Ignored with Matrix, which runs both; an external
	// server decides for itself.
	Lane string
	// PlotDir, if set, is where Run writes PNG charts; it is created if missing.
	PlotDir string
	// RecordDir, if set, is where each bot's client recording goes (client.Game.RecordTo),
	// one file per bot and run: "<run label>-bot-N.tnrec" (recordFile). Created if missing.
	RecordDir string
	// Matrix runs every preset but "none" with both lanes and both timelines, into one
	// MatrixReport.
	Matrix bool
	// Arena is the in-process server's arena by name (netcode.ArenaNames): "default" or
	// "large". An external server chooses its own.
	Arena string
	// BotFPS is how many frames per second each bot runs (Game.Update, interpolation and
	// measurement): 60 like a window, fewer to drive many bots from one machine. Prediction
	// steps stay 50 ms whatever the frame rate.
	BotFPS int
	// Web, when set, is the page address of the tankserver named by Server, serving
	// browsers with -web (e.g. http://127.0.0.1:8080/): each bot then joins over a WebRTC
	// data channel of its own, as a page does, through pion's stack rather than a
	// browser's, so the browsers' door is measured apart from the browser. The server's
	// browser limits hold (tankserver -web-per-address, 8 by default); offers refused for
	// coming too soon wait their turn.
	Web string
	// ServerMetrics is the -metrics address of the external tankserver named by Server;
	// with it the report has server_cpu_cores and bytes_per_tank.
	ServerMetrics string
	// Fire makes every bot a gunner (client.BotConfig.Fire); LagComp is what their shots
	// ask for.
	Fire    bool
	LagComp bool
}

// DefaultConfig returns what `make sim` runs: long enough for every counter to move and
// for the adaptive timeline to settle, short enough to wait for.
func DefaultConfig() Config {
	return Config{
		Bots:     8, // half the default server's slots: busy, with room to move
		Duration: 10 * time.Second,
		Seed:     1,
		Contact:  netcode.ContactPredicted, // the server's default
		Net:      "broadband",
		Interp:   interpReceive, // the client's default timeline
		Arena:    "default",
		BotFPS:   60,   // what the window client runs
		LagComp:  true, // what the window client asks for unless L is pressed
		Lane:     wire.LaneDatagram.String(),

		InputBuffer: "on",
	}
}

// Validate reports the first problem with c, worded for the tanksim command line.
func (c Config) Validate() error {
	switch {
	case c.Bots < 1 || c.Bots > 256:
		return fmt.Errorf("tanksim: -bots %d outside [1, 256]", c.Bots)
	case c.Duration <= 0:
		return fmt.Errorf("tanksim: -duration %v must be positive", c.Duration)
	case c.Duration > 24*time.Hour:
		return fmt.Errorf("tanksim: -duration %v is longer than a day", c.Duration)
	case c.BotFPS < 1 || c.BotFPS > 240:
		return fmt.Errorf("tanksim: -bot-fps %d outside [1, 240]", c.BotFPS)
	case c.InputBuffer == "both" && !c.Matrix:
		return errors.New("tanksim: -input-buffer both needs -matrix (one run has one server)")
	case c.InputBuffer != "on" && c.InputBuffer != "off" && c.InputBuffer != "both":
		return fmt.Errorf("tanksim: -input-buffer %q: want on or off (or both, with -matrix)", c.InputBuffer)
	case c.Rooms < 0 || c.Rooms > c.Bots:
		return fmt.Errorf("tanksim: -rooms %d outside [1, -bots %d]: every room needs a bot", c.Rooms, c.Bots)
	case c.Rooms > 1 && c.Room != "":
		return errors.New("tanksim: -room puts every bot in one room; -rooms spreads them over several: not both")
	case c.Rooms > 1 && (len(c.Groups) > 0 || c.Matrix):
		return errors.New("tanksim: -rooms does not mix with -group or -matrix: one way of splitting the bots per run")
	case c.ServerMetrics != "" && c.Server == "":
		return errors.New("tanksim: -server-metrics needs -server (an in-process server is measured directly)")
	case c.Web != "" && c.Server == "":
		return errors.New("tanksim: -web needs -server, the game address of the same tankserver (an in-process server serves no browsers)")
	}
	if c.Web != "" {
		if u, err := url.Parse(c.Web); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("tanksim: -web %q: want the page's address, like http://127.0.0.1:8080/", c.Web)
		}
	}
	if _, err := netcode.ArenaByName(c.Arena); err != nil {
		return fmt.Errorf("tanksim: -arena: %w", err)
	}
	if err := wire.CheckRoomName(c.Room); err != nil {
		return fmt.Errorf("tanksim: -room: %w", err)
	}
	if c.Server != "" {
		if _, _, err := net.SplitHostPort(c.Server); err != nil {
			return fmt.Errorf("tanksim: -server %q: %w", c.Server, err)
		}
	}
	if !c.Matrix {
		return c.validateRun()
	}
	if len(c.Groups) > 0 {
		return errors.New("tanksim: -group and -matrix do not mix: the matrix runs every preset on every bot")
	}
	for _, name := range matrixPresets() {
		if _, err := c.conditions(name); err != nil {
			return err
		}
	}
	return nil
}

// validateRun is Validate's check of one run (not a matrix): its timeline, lane and network,
// or its groups.
func (c Config) validateRun() error {
	if _, err := timeline(c.Interp); err != nil {
		return err
	}
	if _, err := lane(c.Lane); err != nil {
		return err
	}
	if len(c.Groups) == 0 {
		_, err := c.conditions(c.Net)
		return err
	}
	sum := 0
	for _, g := range c.Groups {
		sum += g.Bots
	}
	if sum != c.Bots {
		return fmt.Errorf("tanksim: the groups hold %d bots, but -bots is %d (leave -bots out to take the groups' sum)", sum, c.Bots)
	}
	_, err := c.resolveGroups()
	return err
}

// conditions returns the link conditions a bot runs under for preset name (or "custom"),
// with c.Link's overrides applied to both directions.
func (c Config) conditions(name string) (linksim.Conditions, error) {
	path, err := linksim.PathFor(name, c.Link)
	if err != nil {
		return linksim.Conditions{}, fmt.Errorf("tanksim: %w", err)
	}
	return path.AtClient(), nil
}

// timeline maps an -interp flag value to the netcode timeline.
func timeline(name string) (netcode.Timeline, error) {
	t, err := netcode.ParseTimeline(name)
	if err != nil {
		return 0, fmt.Errorf("tanksim: -interp: %w", err)
	}
	return t, nil
}

// lane maps a -lane flag value to the transport lane.
func lane(name string) (wire.Lane, error) {
	l, err := wire.ParseLane(name)
	if err != nil {
		return 0, fmt.Errorf("tanksim: -lane: %w", err)
	}
	return l, nil
}

// matrixLanes are the lanes a -matrix run covers, the default first.
var matrixLanes = []wire.Lane{wire.LaneDatagram, wire.LaneReliable}

// matrixPresets returns the presets a -matrix run covers: every named profile but the
// perfect link, which measures nothing the lan profile does not.
func matrixPresets() []string {
	var names []string
	for _, n := range linksim.PresetNames() {
		if n != "none" {
			names = append(names, n)
		}
	}
	return names
}

// botSeed is bot i's seed for its driver and its link conditioner.
func (c Config) botSeed(i int) uint64 { return c.Seed*1000 + uint64(i) }
