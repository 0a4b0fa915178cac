package main

import (
	"errors"
	"flag"
	"fmt"
	"net/netip"
	"strconv"
	"strings"

	"tanknet/client"
	"tanknet/discovery"
	"tanknet/internal/cliflag"
	"tanknet/linksim"
	"tanknet/netcode"
)

// parseFlags defines tankclient's flags on fs, parses args and returns the Config they
// describe, checked (Config.Validate). Like every tanknet command, tankclient parses its
// flags here and nowhere else; main only runs the Config.
func parseFlags(fs *flag.FlagSet, args []string) (Config, error) {
	cfg := DefaultConfig()
	text := defineFlags(fs, &cfg)
	fs.Usage = func() { usage(fs) }
	if err := cliflag.Parse(fs, args); err != nil {
		return cfg, err
	}
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	if err := text.apply(&cfg, given); err != nil {
		return cfg, err
	}
	return cfg, cfg.Validate()
}

// textFlags are the flags parseFlags reads as text and turns into cfg's fields once every
// flag is parsed (textFlags.apply).
type textFlags struct {
	net                       linksim.NetFlags
	interp, skill, pos        *string
	discoverTo, discoverPorts *string
}

// defineFlags defines every flag on fs: those that set a field of cfg directly, and those
// it returns to be read once parsed.
func defineFlags(fs *flag.FlagSet, cfg *Config) *textFlags {
	t := &textFlags{net: linksim.NetFlags{Preset: cfg.Net, Seed: cfg.Seed}}
	fs.StringVar(&cfg.Server, "server", cfg.Server, "tankserver UDP `address` to join straight away; without it (and -demo, -replay) the window opens the lobby: the servers on the LAN and their rooms")
	t.discoverTo = fs.String("discover-to", "", "the lobby asks these IP `addresses` (comma-separated) for servers instead of 127.0.0.1 and every broadcast address of this host")
	t.discoverPorts = fs.String("discover-ports", "", fmt.Sprintf("the lobby asks these UDP `ports` (comma-separated) instead of %d-%d", discovery.FirstPort, discovery.FirstPort+discovery.PortCount-1))
	fs.StringVar(&cfg.Name, "name", cfg.Name, "player `name` shown above your tank")
	fs.StringVar(&cfg.Room, "room", "", "the `room` (match) to join on the server: letters, digits, - and _; it opens if the server has room for it (default: the server's default room)")
	fs.DurationVar(&cfg.DialTimeout, "timeout", cfg.DialTimeout, "give up joining after this long")
	t.net.Register(fs)
	t.interp = fs.String("interp", cfg.Game.Interp.Timeline.String(), "remote interpolation `timeline`: receive (fixed delay) or adaptive (delay sized for late and lost snapshots)")
	fs.DurationVar(&cfg.Game.Interp.Delay, "interp-delay", cfg.Game.Interp.Delay, "render `delay` of the receive timeline")
	fs.BoolVar(&cfg.Techniques.Prediction, "prediction", cfg.Techniques.Prediction, "start with prediction on (reconciliation waits while it is off: it replays predicted inputs)")
	fs.BoolVar(&cfg.Techniques.Reconciliation, "reconciliation", cfg.Techniques.Reconciliation, "start with reconciliation on")
	fs.BoolVar(&cfg.Techniques.Interpolation, "interpolation", cfg.Techniques.Interpolation, "start with interpolation on")
	fs.BoolVar(&cfg.Demo, "demo", false, "the three-pane demo: run a server on -server's address and play a near and a far player in one window, the server's truth between them")
	fs.IntVar(&cfg.Bots, "bots", cfg.Bots, "gunner `bots` joining the demo at start (+ and - add and remove them)")
	t.skill = fs.String("bot-skill", "fair", "how well the demo's bots play: "+strings.Join(client.SkillNames(), ", "))
	fs.StringVar(&cfg.FarNet, "far-net", cfg.FarNet, "the demo's far player's network `preset`: "+strings.Join(linksim.PresetNames(), ", ")+", or up=PRESET,down=PRESET")
	fs.IntVar(&cfg.Width, "width", cfg.Width, fmt.Sprintf("initial window `width` (demo: %d)", demoWidth))
	fs.IntVar(&cfg.Height, "height", cfg.Height, fmt.Sprintf("initial window `height` (demo: %d)", demoHeight))
	t.pos = fs.String("pos", "", "where the window opens: `x,y` of its top-left corner in screen pixels")
	fs.StringVar(&cfg.Screenshot, "screenshot", "", "write a PNG of the window to `file` after -frames frames, then exit")
	fs.IntVar(&cfg.Frames, "frames", cfg.Frames, "frames to draw before -screenshot")
	fs.BoolVar(&cfg.ScreenshotDetails, "screenshot-details", false, "with -screenshot, also print the server's tanks as the demo's server pane drew them and how each HUD fitted its panel, a line each (tests compare them with the picture)")
	fs.StringVar(&cfg.Record, "record", "", "write a client recording of the session (what arrived, when, and the keys) to `file`; with -demo, file-near and file-far, and the demo's server recording file-server (docs/RECORDINGS.md)")
	fs.StringVar(&cfg.Replay, "replay", "", "play a client recording `file` in the window instead of joining a server: Space plays and pauses, arrows step and change speed, the bar seeks")
	fs.DurationVar(&cfg.ReplayAt, "replay-at", 0, "with -replay, open the recording paused at this `moment` (e.g. 30s)")
	fs.StringVar(&cfg.GIF, "gif", "", "with -screenshot, also record the run, 15 frames a second at half size, into this animated GIF `file`")
	fs.IntVar(&cfg.FrameReport, "frame-report", 0, "draw this many `frames` after the first second, print their rate and frame-time percentiles as JSON on stdout, and exit")
	fs.StringVar(&cfg.ScreenshotWhen, "screenshot-when", "", "after -frames, wait for a `moment` before the screenshot: hit (our shot confirmed) or destroyed")
	fs.BoolVar(&cfg.FrameDriven, "frame-driven", false, "advance the game only when a frame is drawn, as before it ran on its own clock between frames (to compare input waits with -frame-report)")
	fs.BoolVar(&cfg.Gunner, "gunner", false, "aim and fire by yourself like a bot (demos, screenshots)")
	fs.BoolVar(&cfg.Scores, "scores", false, "keep the scoreboard open (otherwise hold Tab)")
	fs.BoolVar(&cfg.Tour, "tour", false, "start the guided tour: scene by scene through the netcode (O starts and ends it at any time)")
	fs.IntVar(&cfg.TourAdvance, "tour-advance", 0, "with -tour, go on to the next scene every this many `frames` and exit after the last (tests, recordings)")
	fs.IntVar(&cfg.TourScene, "tour-scene", 0, "start the guided tour at this `scene` (1 is the first; screenshots)")
	fs.IntVar(&cfg.Slow, "slow", cfg.Slow, "with -demo, start in slow motion this many `times` slower: 1, 4 or 8 (M steps through them)")
	fs.StringVar(&cfg.CPUProfile, "cpuprofile", "", "write a CPU profile of the whole run to `file` (go tool pprof reads it)")
	return t
}

// apply sets cfg's fields from t's flags once parsed, and with -demo the far player's
// network and the demo's window size where given (the flags set on the command line) has
// none.
func (t *textFlags) apply(cfg *Config, given map[string]bool) error {
	var err error
	cfg.widthGiven, cfg.heightGiven = given["width"], given["height"]
	cfg.Lobby = !given["server"] && !cfg.Demo && cfg.Replay == ""
	if err := t.applyDiscovery(cfg); err != nil {
		return err
	}
	if cfg.Demo {
		if !given["width"] {
			cfg.Width = demoWidth
		}
		if !given["height"] {
			cfg.Height = demoHeight
		}
		far, err := linksim.PathFor(cfg.FarNet, linksim.Overrides{})
		if err != nil {
			return fmt.Errorf("-far-net: %w", err)
		}
		cfg.FarConditions = far.AtClient()
	}
	if cfg.BotSkill, err = client.SkillFor(*t.skill); err != nil {
		return fmt.Errorf("-bot-skill: %w", err)
	}
	if *t.pos != "" {
		if cfg.Position, err = parsePosition(*t.pos); err != nil {
			return err
		}
	}
	path, err := t.net.Path()
	if err != nil {
		return err
	}
	cfg.Conditions = path.AtClient()
	cfg.Net, cfg.Seed = t.net.Name(), t.net.Seed
	if cfg.Game.Interp.Timeline, err = netcode.ParseTimeline(*t.interp); err != nil {
		return err
	}
	return nil
}

// usage prints the help: what tankclient is and its flags. With no display the same text
// comes from displaycheck.Help, which a test keeps equal to this.
func usage(fs *flag.FlagSet) {
	w := fs.Output()
	fmt.Fprint(w, "tankclient: the tanknet window. Choose a server and room in the lobby, join one with -server, or run the three-pane demo (-demo).\n\nUsage: tankclient [flags]\n\n")
	fs.PrintDefaults()
}

// applyDiscovery reads -discover-to and -discover-ports into cfg.Discovery; they are the
// lobby's, so they need it.
func (t *textFlags) applyDiscovery(cfg *Config) error {
	if *t.discoverTo == "" && *t.discoverPorts == "" {
		return nil
	}
	if !cfg.Lobby {
		return errors.New("-discover-to and -discover-ports are the lobby's: not with -server, -demo or -replay")
	}
	for _, s := range splitList(*t.discoverTo) {
		a, err := netip.ParseAddr(s)
		if err != nil {
			return fmt.Errorf("-discover-to %q: %q is not an IP address", *t.discoverTo, s)
		}
		cfg.Discovery.Targets = append(cfg.Discovery.Targets, a)
	}
	for _, s := range splitList(*t.discoverPorts) {
		p, err := strconv.ParseUint(s, 10, 16)
		if err != nil || p == 0 {
			return fmt.Errorf("-discover-ports %q: %q is not a UDP port (1-65535)", *t.discoverPorts, s)
		}
		cfg.Discovery.Ports = append(cfg.Discovery.Ports, uint16(p))
	}
	return nil
}

// splitList splits a comma-separated flag value, dropping blanks.
func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}
