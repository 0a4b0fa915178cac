//go:build !js

// Command tankclient is the tanknet window: drive a tank with WASD or the arrow keys against
// a tankserver, and watch the netcode work.
//
//	tankclient -name ada                        # the lobby: servers on the LAN, their rooms; join one
//	tankclient -server 127.0.0.1:7777 -name ada # straight into the server's default room
//	tankclient -net mobile-3g                   # the lobby; its matches over a simulated 3G link
//	tankclient -latency 80ms -jitter 10ms -loss 0.02
//	tankclient -server 127.0.0.1:7777 -screenshot shot.png -frames 120 # a PNG after 120 frames, the fps, exit
//	tankclient -demo -frame-report 600          # draw 600 frames, print {"frames": 600, "fps": ...}, exit
//	tankclient -demo                            # server + near and far player in one window
//
// Keys: W/S or Up/Down drive, A/D or Left/Right turn; P, R and I switch prediction,
// reconciliation and interpolation off and on (reconciliation acts only with prediction on); G the ghosts, H the HUD, T the timeline strip, B the remote tank it follows; N and
// Shift+N step through the network presets; F1 shows the keys; Esc quits (in a match joined
// from the lobby Esc goes back to the lobby, and F10 quits). In the -demo
// window WASD drives the near player and the arrows the far one, P, R, I, N, L, B and U act
// on the pane under the mouse (both over the server pane), and M slows the whole demo.
//
// tankclient needs a display (X11); without one it says so and exits 2. It exits 0 when the
// player quits, 1 when the server is lost mid-game and 2 when it cannot join (no answer,
// rejected, the demo's port taken) or the flags are wrong.
//
// Built for js/wasm (make web) it is the browser client instead (web_js.go): URL parameters
// in place of flags, the game over a WebRTC data channel to the server that served the page.
// The page's game runs in a Web Worker (cmd/tankworker, worker_js.go) and the page draws
// it; worker=0 runs it on the page's thread as the window does.
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

	"tanknet/transport"
)

func main() {
	fs := flag.NewFlagSet(os.Args[0], flag.ContinueOnError)
	cfg, err := parseFlags(fs, os.Args[1:])
	if errors.Is(err, flag.ErrHelp) {
		os.Exit(0) // the usage is printed
	}
	if err != nil {
		fail(2, err)
	}
	if cfg.CPUProfile != "" {
		stopProfile, err := startCPUProfile(cfg.CPUProfile)
		if err != nil {
			fail(2, err)
		}
		defer stopProfile()
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	switch {
	case cfg.Replay != "":
		err = runReplay(ctx, cfg)
	case cfg.Demo:
		err = runDemo(ctx, cfg)
	case cfg.Lobby:
		err = runLobby(ctx, cfg)
	default:
		err = run(ctx, cfg)
	}
	stop() // a second Ctrl-C ends the wait below
	// Our sockets outlive their sessions a moment, so that the Goodbye just sent (delayed by
	// -net, too) reaches the server rather than ending with the process.
	if !transport.WaitLingering(lingerLimit) {
		fmt.Fprintf(os.Stderr, "tankclient: the last packets had not left after %v; the server may time us out\n", lingerLimit)
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
