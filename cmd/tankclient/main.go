// Command tankclient is the tanknet window: drive a tank with WASD or the arrow keys against
// a tankserver, and watch the netcode work.
//
//	tankclient -server 127.0.0.1:7777 -name ada
//	tankclient -net mobile-3g                   # play over a simulated 3G link
//	tankclient -latency 80ms -jitter 10ms -loss 0.02
//	tankclient -screenshot shot.png -frames 120 # write a PNG after 120 frames, print the fps, exit
//	tankclient -demo -frame-report 600          # draw 600 frames, print {"frames": 600, "fps": ...}, exit
//	tankclient -demo                            # server + near and far player in one window
//
// Keys: W/S or Up/Down drive, A/D or Left/Right turn; P, R and I switch prediction,
// reconciliation and interpolation off and on (reconciliation acts only with prediction on); G the ghosts, H the HUD, T the timeline strip, B the remote tank it follows; N and
// Shift+N step through the network presets; F1 shows the keys; Esc quits. In the -demo
// window WASD drives the near player and the arrows the far one, and P, R, I, N, L and B act
// on the pane under the mouse (both over the server pane).
//
// tankclient needs a display (X11); without one it says so and exits 2. It exits 0 when the
// player quits, 1 when the server is lost mid-game and 2 when it cannot join (no answer,
// rejected, the demo's port taken) or the flags are wrong.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"runtime/pprof"
	"strings"
	"sync"
	"syscall"

	"tanknet/client"
	"tanknet/netcode"
	"tanknet/transport"
)

func main() {
	cfg := DefaultConfig()
	nf := transport.NetFlags{Preset: cfg.Net, Seed: cfg.Seed}
	flag.StringVar(&cfg.Server, "server", cfg.Server, "tankserver UDP `address`")
	flag.StringVar(&cfg.Name, "name", cfg.Name, "player `name` shown above your tank")
	flag.DurationVar(&cfg.DialTimeout, "timeout", cfg.DialTimeout, "give up joining after this long")
	nf.Register(flag.CommandLine)
	tl := flag.String("interp", cfg.Game.Interp.Timeline.String(), "remote interpolation `timeline`: receive (fixed delay) or adaptive (delay sized for late and lost snapshots)")
	flag.DurationVar(&cfg.Game.Interp.Delay, "interp-delay", cfg.Game.Interp.Delay, "render `delay` of the receive timeline")
	flag.BoolVar(&cfg.Techniques.Prediction, "prediction", cfg.Techniques.Prediction, "start with prediction on (reconciliation waits while it is off: it replays predicted inputs)")
	flag.BoolVar(&cfg.Techniques.Reconciliation, "reconciliation", cfg.Techniques.Reconciliation, "start with reconciliation on")
	flag.BoolVar(&cfg.Techniques.Interpolation, "interpolation", cfg.Techniques.Interpolation, "start with interpolation on")
	flag.BoolVar(&cfg.Demo, "demo", false, "the three-pane demo: run a server on -server's address and play a near and a far player in one window, the server's truth between them")
	flag.IntVar(&cfg.Bots, "bots", cfg.Bots, "gunner `bots` joining the demo at start (+ and - add and remove them)")
	skill := flag.String("bot-skill", "fair", "how well the demo's bots play: "+strings.Join(client.SkillNames(), ", "))
	flag.StringVar(&cfg.FarNet, "far-net", cfg.FarNet, "the demo's far player's network `preset`: "+strings.Join(transport.PresetNames(), ", "))
	flag.IntVar(&cfg.Width, "width", cfg.Width, fmt.Sprintf("initial window `width` (demo: %d)", demoWidth))
	flag.IntVar(&cfg.Height, "height", cfg.Height, fmt.Sprintf("initial window `height` (demo: %d)", demoHeight))
	pos := flag.String("pos", "", "where the window opens: `x,y` of its top-left corner in screen pixels")
	flag.StringVar(&cfg.Screenshot, "screenshot", "", "write a PNG of the window to `file` after -frames frames, then exit")
	flag.IntVar(&cfg.Frames, "frames", cfg.Frames, "frames to draw before -screenshot")
	flag.StringVar(&cfg.GIF, "gif", "", "with -screenshot, also record the run, 15 frames a second at half size, into this animated GIF `file`")
	flag.IntVar(&cfg.FrameReport, "frame-report", 0, "draw this many `frames` after the first second, print their rate and frame-time percentiles as JSON on stdout, and exit")
	flag.StringVar(&cfg.ScreenshotWhen, "screenshot-when", "", "after -frames, wait for a `moment` before the screenshot: hit (our shot confirmed) or destroyed")
	flag.BoolVar(&cfg.Gunner, "gunner", false, "aim and fire by yourself like a bot (demos, screenshots)")
	flag.BoolVar(&cfg.Scores, "scores", false, "keep the scoreboard open (otherwise hold Tab)")
	flag.BoolVar(&cfg.Tour, "tour", false, "start the guided tour: scene by scene through the netcode (O starts and ends it at any time)")
	flag.IntVar(&cfg.TourAdvance, "tour-advance", 0, "with -tour, go on to the next scene every this many `frames` and exit after the last (tests, recordings)")
	cpuProfile := flag.String("cpuprofile", "", "write a CPU profile of the whole run to `file` (go tool pprof reads it)")
	flag.Usage = func() { usage(flag.CommandLine) }
	flag.Parse()

	var err error
	given := map[string]bool{}
	flag.Visit(func(f *flag.Flag) { given[f.Name] = true })
	if cfg.Demo {
		if !given["width"] {
			cfg.Width = demoWidth
		}
		if !given["height"] {
			cfg.Height = demoHeight
		}
		if cfg.FarConditions, err = transport.Preset(cfg.FarNet); err != nil {
			fail(2, fmt.Errorf("-far-net: %w", err))
		}
	}
	if cfg.BotSkill, err = client.SkillFor(*skill); err != nil {
		fail(2, fmt.Errorf("-bot-skill: %w", err))
	}
	if *pos != "" {
		if cfg.Position, err = parsePosition(*pos); err != nil {
			fail(2, err)
		}
	}
	if cfg.Conditions, err = nf.Conditions(); err != nil {
		fail(2, err)
	}
	cfg.Net, cfg.Seed = nf.Name(), nf.Seed
	if cfg.Game.Interp.Timeline, err = netcode.ParseTimeline(*tl); err != nil {
		fail(2, err)
	}
	if err := cfg.Validate(); err != nil {
		fail(2, err)
	}

	if *cpuProfile != "" {
		stopProfile, err := startCPUProfile(*cpuProfile)
		if err != nil {
			fail(2, err)
		}
		defer stopProfile()
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if cfg.Demo {
		err = runDemo(ctx, cfg)
	} else {
		err = run(ctx, cfg)
	}
	var join *joinError
	switch {
	case err == nil:
	case errors.As(err, &join):
		exit(2, err)
	default:
		exit(1, err)
	}
}

// usage prints the help: what tankclient is and its flags. With no display the same text
// comes from displaycheck.Help, which a test keeps equal to this.
func usage(fs *flag.FlagSet) {
	w := fs.Output()
	fmt.Fprint(w, "tankclient: the tanknet window. Play against a tankserver, or run the three-pane demo (-demo).\n\nUsage: tankclient [flags]\n\n")
	fs.PrintDefaults()
}

// exitHooks run before the process exits through exit, so a CPU profile is complete even
// when the session failed.
var exitHooks []func()

// exit runs the exit hooks, then fails with code.
func exit(code int, err error) {
	for _, h := range exitHooks {
		h()
	}
	fail(code, err)
}

// startCPUProfile profiles the process into path until the returned stop is called.
func startCPUProfile(path string) (stop func(), err error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	var once sync.Once
	stop = func() { once.Do(func() { pprof.StopCPUProfile(); f.Close() }) }
	exitHooks = append(exitHooks, stop)
	return stop, nil
}

// fail prints err on one line and exits with code.
func fail(code int, err error) {
	fmt.Fprintln(os.Stderr, "tankclient:", strings.ReplaceAll(err.Error(), "\n", " "))
	os.Exit(code)
}
