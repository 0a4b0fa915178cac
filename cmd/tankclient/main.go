// Command tankclient is the tanknet window: drive a tank with WASD or the arrow keys against
// a tankserver, and watch the netcode work.
//
//	tankclient -server 127.0.0.1:7777 -name ada
//	tankclient -net mobile-3g                   # play over a simulated 3G link
//	tankclient -latency 80ms -jitter 10ms -loss 0.02
//	tankclient -screenshot shot.png -frames 120 # write a PNG after 120 frames and exit
//
// Keys: W/S or Up/Down drive, A/D or Left/Right turn; P, R and I switch prediction,
// reconciliation and interpolation off and on; G the ghosts, H the HUD; N and Shift+N step
// through the network presets; F1 shows the keys; Esc quits. It exits 0 when the player quits, 1 when the server is lost mid-game
// and 2 when it cannot join (no answer, rejected) or the flags are wrong.
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
	tl := flag.String("interp", cfg.Game.Interp.Timeline.String(), "remote interpolation `timeline`: receive (fixed delay) or adaptive (follows measured jitter)")
	flag.DurationVar(&cfg.Game.Interp.Delay, "interp-delay", cfg.Game.Interp.Delay, "render `delay` of the receive timeline")
	flag.BoolVar(&cfg.Techniques.Prediction, "prediction", cfg.Techniques.Prediction, "start with prediction on")
	flag.BoolVar(&cfg.Techniques.Reconciliation, "reconciliation", cfg.Techniques.Reconciliation, "start with reconciliation on")
	flag.BoolVar(&cfg.Techniques.Interpolation, "interpolation", cfg.Techniques.Interpolation, "start with interpolation on")
	flag.IntVar(&cfg.Width, "width", cfg.Width, "initial window `width`")
	flag.IntVar(&cfg.Height, "height", cfg.Height, "initial window `height`")
	flag.StringVar(&cfg.Screenshot, "screenshot", "", "write a PNG of the window to `file` after -frames frames, then exit")
	flag.IntVar(&cfg.Frames, "frames", cfg.Frames, "frames to run before -screenshot")
	cpuProfile := flag.String("cpuprofile", "", "write a CPU profile of the whole run to `file` (go tool pprof reads it)")
	flag.Parse()

	var err error
	if cfg.Conditions, err = nf.Conditions(); err != nil {
		fail(2, err)
	}
	cfg.Net, cfg.Seed = nf.Name(), nf.Seed
	if cfg.Game.Interp.Timeline, err = netcode.ParseTimeline(*tl); err != nil {
		fail(2, err)
	}
	if !cfg.Techniques.Prediction {
		cfg.Techniques.Reconciliation = false // reconciliation needs prediction
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
	err = run(ctx, cfg)
	var join *joinError
	switch {
	case err == nil:
	case errors.As(err, &join):
		exit(2, err)
	default:
		exit(1, err)
	}
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
