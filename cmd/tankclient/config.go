package main

import (
	"errors"
	"fmt"
	"image"
	"os"
	"strconv"
	"strings"
	"time"

	"tanknet/client"
	"tanknet/discovery"
	"tanknet/linksim"
	"tanknet/render"
	"tanknet/render/view"
	"tanknet/wire"
)

// Config is everything tankclient needs to play. Start from DefaultConfig.
type Config struct {
	// Server is the tankserver's UDP address, host:port.
	Server string
	// Lobby opens the lobby instead of joining Server (tankclient without -server): the
	// servers Discovery finds, a match in the same window for each room joined.
	Lobby     bool
	Discovery discovery.BrowseConfig
	// Name is the player name shown above our tank; the server may shorten it.
	Name string
	// Room is the room (match) on the server to join; "" is its default room.
	Room string
	// DialTimeout is how long to wait for the server's Welcome before giving up.
	DialTimeout time.Duration

	// Net names the network conditions in force: a transport preset, or "custom".
	Net string
	// Conditions is what the link conditioner under the session does to our packets.
	Conditions linksim.Conditions
	// Seed drives the conditioner's random choices, so a run can be replayed.
	Seed uint64

	// Game tunes the netcode; Techniques are the teaching switches at start.
	Game       client.Options
	Techniques view.Techniques

	// Demo runs the three-pane demo: a server in this process listening on Server, a near
	// player under Net/Conditions and a far one under FarNet/FarConditions, in one window
	// with the server's truth between them.
	Demo          bool
	FarNet        string
	FarConditions linksim.Conditions
	// Bots is how many gunner bots join the demo at start (keys add and remove more), and
	// BotSkill how well they play (client.SkillFor).
	Bots     int
	BotSkill client.Skill

	// Width and Height are the initial window size; Position, if set, where it opens.
	// widthGiven and heightGiven say the flags set them: a demo, or the three-pane replay of
	// a demo's recordings, otherwise opens at the demo's size.
	Width, Height           int
	widthGiven, heightGiven bool
	Position                *image.Point
	// Screenshot, if set, runs Frames frames, writes the window to this PNG file and exits.
	Screenshot string
	Frames     int
	// ScreenshotDetails also prints, with Screenshot, the server's tanks as drawn and how
	// each HUD fitted its panel (for tests).
	ScreenshotDetails bool
	// GIF, if set with Screenshot, records the run's frames into this animated GIF.
	GIF string
	// Record, if set, is the file a client recording of the session goes to (with -demo,
	// one per player: recordPaths).
	Record string
	// Replay, if set, opens a client recording in the window instead of joining a server;
	// ReplayAt, if positive, opens it paused at that moment.
	Replay   string
	ReplayAt time.Duration
	// ScreenshotWhen waits after Frames for a moment: "hit" or "destroyed" (view.Moment*).
	ScreenshotWhen string
	// FrameReport, if positive, draws that many frames after the first second, prints their
	// rate and frame-time percentiles as JSON on stdout and exits.
	FrameReport int
	// FrameDriven advances the game only when a frame is drawn (render.Options.FrameDriven).
	FrameDriven bool
	// CPUProfile, if set, is where a CPU profile of the whole run goes.
	CPUProfile string
	// Gunner aims and fires by itself, like a bot; Scores pins the scoreboard open.
	Gunner, Scores bool
	// Tour starts the guided tour; TourAdvance, if positive, advances it every that many
	// frames and exits after its last scene.
	Tour        bool
	TourAdvance int
	// Bot, if nonzero, drives the tank as tanksim's bots do (render.Options.Bot), seeded
	// with it; OnFrame is render.Options.OnFrame (the browser page's report reads it).
	Bot     uint64
	OnFrame func(now time.Time, games []*client.Game)
	// TourScene, if more than 1, starts the tour at that scene.
	TourScene int
	// Slow starts the demo in slow motion, that many times slower (1, 4 or 8; M changes it).
	Slow int
}

// DefaultConfig returns the settings for a local game against a tankserver on port 7777.
func DefaultConfig() Config {
	return Config{
		Server:      "127.0.0.1:7777",
		Discovery:   discovery.DefaultBrowseConfig(),
		Name:        "player",
		DialTimeout: 5 * time.Second, // the server answers in one round trip; 5 s covers any real link
		Net:         "none",
		Seed:        1,
		Game:        client.DefaultOptions(),
		Techniques:  view.AllOn(),
		FarNet:      "mobile-3g", // 120 ms each way and 5% loss: the round trip and the holds are plain to see
		Bots:        6,           // a lively field that still leaves room to drive
		BotSkill:    fairSkill(),
		Width:       1200,
		Height:      640, // the default arena, the timeline strip and the HUD panel, with little to spare
		Frames:      120, // two seconds at 60 TPS: joined, snapshots flowing, buffers full
		Slow:        1,
	}
}

// Validate reports the first problem with c.
func (c Config) Validate() error {
	switch {
	case c.Server == "":
		return errors.New("no server address")
	case c.DialTimeout <= 0:
		return fmt.Errorf("dial timeout %v must be positive", c.DialTimeout)
	case c.Width < 200 || c.Height < 150:
		return fmt.Errorf("window %dx%d is smaller than 200x150", c.Width, c.Height)
	case c.ReplayAt != 0 && c.Replay == "":
		return errors.New("-replay-at needs -replay FILE")
	case c.ReplayAt < 0:
		return fmt.Errorf("-replay-at %v is before the recording's start", c.ReplayAt)
	case c.Replay != "" && (c.Demo || c.Record != ""):
		return errors.New("-replay plays a recording in a window of its own: not with -demo or -record")
	case c.Room != "" && (c.Demo || c.Replay != ""):
		return errors.New("-room joins a room of a running server: the demo plays in its own server, a replay in none")
	case c.Screenshot != "" && c.Frames < 1:
		return fmt.Errorf("-frames %d: a screenshot needs at least one frame", c.Frames)
	case c.Bots < 0 || c.Bots > maxDemoBots:
		return fmt.Errorf("-bots %d: want 0 to %d (the server seats 16 players with the near and far ones)", c.Bots, maxDemoBots)
	case c.Slow != 1 && !c.Demo:
		return fmt.Errorf("-slow %d: slow motion is the demo's (it slows its own server)", c.Slow)
	case c.FrameReport < 0:
		return fmt.Errorf("-frame-report %d: want a number of frames", c.FrameReport)
	}
	if err := wire.CheckRoomName(c.Room); err != nil {
		return fmt.Errorf("-room: %w", err)
	}
	if err := c.validateLobby(); err != nil {
		return err
	}
	if err := c.Conditions.Validate(); err != nil {
		return err
	}
	return c.renderOptions(nil).Validate()
}

// validateLobby reports the first flag the lobby cannot honour: what records, reports on or
// waits in one match is for a window that plays one (-server).
func (c Config) validateLobby() error {
	if !c.Lobby {
		return nil
	}
	for _, f := range []struct {
		flag  string
		set   bool
		needs string
	}{{"-room", c.Room != "", "-server"}, {"-record", c.Record != "", "-server (or -demo)"}, {"-frame-report", c.FrameReport > 0, "-server"},
		{"-gif", c.GIF != "", "-server"}, {"-screenshot-when", c.ScreenshotWhen != "", "-server"},
		{"-screenshot-details", c.ScreenshotDetails, "-server"}, {"-tour-advance", c.TourAdvance > 0, "-server"}} {
		if f.set {
			return fmt.Errorf("%s needs %s: without it tankclient opens the lobby, where you choose the server and room", f.flag, f.needs)
		}
	}
	return c.Discovery.Validate()
}

// renderOptions returns the window options for c over the conditioner cc (nil: none).
func (c Config) renderOptions(cc *linksim.ConditionedConn) render.Options {
	o := render.Options{
		Title:             "tanknet — " + c.Name + " @ " + c.Server + roomTitle(c.Room),
		Width:             c.Width,
		Height:            c.Height,
		Position:          c.Position,
		Game:              c.Game,
		Techniques:        c.Techniques,
		ScreenshotPath:    c.Screenshot,
		ScreenshotFrames:  c.Frames,
		ScreenshotDetails: c.ScreenshotDetails,
		ScreenshotWhen:    c.ScreenshotWhen,
		GIFPath:           c.GIF,
		FrameReport:       c.FrameReport,
		FrameDriven:       c.FrameDriven,
		Tour:              c.Tour || c.TourAdvance > 0 || c.TourScene > 0,
		TourScene:         c.TourScene,
		TourAdvance:       c.TourAdvance,
		Slow:              c.Slow,
		Gunner:            c.Gunner,
		ShowScores:        c.Scores,
		Bot:               c.Bot,
		OnFrame:           c.OnFrame,
	}
	if c.Screenshot != "" || c.FrameReport > 0 || c.TourAdvance > 0 {
		o.Report = os.Stdout
	}
	if cc != nil {
		o.Net = &render.Network{Conn: cc, Preset: c.Net}
	}
	return o
}

// fairSkill is the demo bots' default skill: a human can win against it.
func fairSkill() client.Skill {
	s, err := client.SkillFor("fair")
	if err != nil {
		panic(err) // a name in client's own table
	}
	return s
}

// Demo window size: three panes of a 40 x 25 arena with the strip and the HUD under each;
// it fits a 1920 x 1080 desktop.
const demoWidth, demoHeight = 1800, 800

// parsePosition parses "x,y", a window position in screen pixels.
func parsePosition(s string) (*image.Point, error) {
	xs, ys, ok := strings.Cut(s, ",")
	x, errX := strconv.Atoi(strings.TrimSpace(xs))
	y, errY := strconv.Atoi(strings.TrimSpace(ys))
	if !ok || errX != nil || errY != nil {
		return nil, fmt.Errorf("-pos %q: want x,y in screen pixels, e.g. 0,0", s)
	}
	return &image.Point{X: x, Y: y}, nil
}

// roomTitle is the window title's room part: "" for the default room.
func roomTitle(room string) string {
	if room == "" {
		return ""
	}
	return " / " + room
}
