package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"syscall"
	"time"

	"tanknet/client"
	"tanknet/linksim"
	"tanknet/netcode"
	"tanknet/render"
	"tanknet/render/view"
	"tanknet/server"
	"tanknet/server/recording"
	"tanknet/transport"
)

// serverStopWait bounds how long the demo waits for its in-process server to shut down.
const serverStopWait = 5 * time.Second

// truthBox holds the newest tick of the in-process server for the demo's server pane: the
// server's tick goroutine writes it, the window's goroutine reads it.
type truthBox struct {
	mu     sync.Mutex
	state  render.Truth
	recent []render.TruthTick // the newest ticks, oldest first, at most view.TrailLen
}

// observe copies one tick's outcome (server.Server.Observe; valid only during the call).
func (b *truthBox) observe(r server.TickRecord) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.state.Tick = r.Tick
	b.state.IDs = append(b.state.IDs[:0], r.IDs...)
	b.state.Poses = append(b.state.Poses[:0], r.Poses...)
	b.state.Combat = append(b.state.Combat[:0], r.Combat...)
	if len(b.recent) == view.TrailLen {
		b.recent = b.recent[:copy(b.recent, b.recent[1:])]
	}
	b.recent = append(b.recent, render.TruthTick{Tick: r.Tick, IDs: slices.Clone(r.IDs), Poses: slices.Clone(r.Poses)})
}

// read copies the newest tick into dst, unless dst already holds it.
func (b *truthBox) read(dst *render.Truth) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if dst.Tick == b.state.Tick {
		dst.Recent = dst.Recent[:0]
		return // the window draws several frames a tick
	}
	last := dst.Tick
	dst.Tick = b.state.Tick
	dst.IDs = append(dst.IDs[:0], b.state.IDs...)
	dst.Poses = append(dst.Poses[:0], b.state.Poses...)
	dst.Combat = append(dst.Combat[:0], b.state.Combat...)
	dst.Recent = dst.Recent[:0]
	for _, t := range b.recent {
		if t.Tick > last {
			dst.Recent = append(dst.Recent, t) // the box never changes a tick it keeps
		}
	}
}

// runDemo runs the three-pane demo: a server in this process listening on cfg.Server, and
// two players joining it over their own link conditioners, the near one under cfg's network
// and the far one under cfg.FarConditions, in one window with the server's truth between
// them. Other clients (bots, a tankclient) may join the same address.
func runDemo(ctx context.Context, cfg Config) (err error) {
	paths := recordPaths(cfg.Record, true)
	recs, closeRecordings, err := openRecordings(paths[:min(len(paths), 2)])
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, closeRecordings()) }()
	serverRec := "" // FILE-server: the in-process server's own recording
	if len(paths) == 3 {
		serverRec = paths[2]
	}
	ds, err := startDemoServer(cfg, serverRec)
	if err != nil {
		return err
	}
	defer func() {
		if serr := ds.stop(); serr != nil {
			err = errors.Join(err, serr)
		}
	}()

	addr := ds.addr
	near, nearNet, err := join(ctx, cfg, addr, "near", cfg.Conditions, cfg.Net, cfg.Seed)
	if err != nil {
		return err
	}
	far, farNet, err := join(ctx, cfg, addr, "far", cfg.FarConditions, cfg.FarNet, cfg.Seed+1)
	if err != nil {
		_ = near.Close("demo could not start")
		return err
	}
	clock := client.NewClock(time.Now()) // the players' and bots' game time: M slows it with the server's
	bots := &botPool{ctx: ctx, addr: addr, skill: cfg.BotSkill, opts: cfg.Game, logger: slog.Default(), clock: clock}
	if runtime.GOOS == "js" {
		// In a browser tab everything shares one thread with the drawing: bots that update
		// 20 times a second (a prediction step each, as tanksim's -bot-fps 20) leave the
		// server and the two players the time they need.
		bots.frame = 50 * time.Millisecond
	}
	defer bots.stop()
	for range cfg.Bots {
		bots.Add()
	}
	opts := cfg.renderOptions(nil)
	opts.Title = "tanknet demo — near player | server | far player @ " + addr
	opts.Record = recs
	srv := ds.srv
	err = render.RunDemo(ctx, render.DemoOptions{Options: opts, Near: near, Far: far, NearNet: nearNet, FarNet: farNet,
		Truth: ds.truth.read, Bots: bots, Clock: clock, ServerRate: srv.SetClockRate,
		SetContact: func(m netcode.ContactMode) error { return srv.SetContact(server.DefaultRoom, m) }})
	transport.WaitLingering(lingerLimit) // the goodbyes cross the simulated links before the server stops
	return err
}

// demoServer is the demo's in-process server, serving on its own goroutine: its address,
// the truth box the middle pane reads and, with -record, its own recording.
type demoServer struct {
	srv     *server.Server
	addr    string
	truth   truthBox
	rec     *recording.File // nil without -record
	recPath string
	cancel  context.CancelFunc
	served  chan error
}

// startDemoServer listens on cfg.Server and serves one room there, recording its ticks to
// recPath unless that is "".
func startDemoServer(cfg Config, recPath string) (*demoServer, error) {
	pc, err := net.ListenPacket("udp", cfg.Server)
	if err != nil {
		if errors.Is(err, syscall.EADDRINUSE) {
			next := "7778"
			if _, port, err := net.SplitHostPort(cfg.Server); err == nil {
				if p, err := strconv.Atoi(port); err == nil && p > 0 && p < 65535 {
					next = strconv.Itoa(p + 1)
				}
			}
			return nil, &joinError{fmt.Errorf("the demo's server cannot listen on %s: the port is in use (by another tankserver or demo?); pick a free one with -server 127.0.0.1:PORT (make demo PORT=%s)", cfg.Server, next)}
		}
		return nil, &joinError{fmt.Errorf("the demo's server cannot listen on %s: %w", cfg.Server, err)}
	}
	transport.TuneSocket(pc)
	scfg := server.DefaultConfig()
	scfg.Addr = pc.LocalAddr().String()
	scfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	scfg.MaxRooms = 1 // the middle pane shows one match: a client asking for another room is refused
	srv, err := server.New(scfg)
	if err != nil {
		pc.Close()
		return nil, err
	}
	ds := &demoServer{srv: srv, addr: pc.LocalAddr().String(), recPath: recPath, served: make(chan error, 1)}
	if recPath != "" {
		// Its logger is the program's: a recording that stops says so, where the server's
		// own log is discarded.
		if ds.rec, err = recording.Create(recPath, scfg, slog.Default()); err != nil {
			pc.Close()
			return nil, err
		}
	}
	srv.Observe(func(r server.TickRecord) {
		if r.Room != server.DefaultRoom {
			return // the demo plays one room (MaxRooms 1), the default one
		}
		ds.truth.observe(r)
		if ds.rec != nil {
			ds.rec.Tick(r)
		}
	})
	var srvCtx context.Context
	srvCtx, ds.cancel = context.WithCancel(context.Background())
	go func() { ds.served <- srv.Serve(srvCtx, pc) }()
	return ds, nil
}

// stop stops the server, waiting up to serverStopWait, then closes its recording: what
// went wrong with that recording is the error.
func (ds *demoServer) stop() error {
	ds.cancel()
	stopped := true
	select {
	case <-ds.served:
	case <-time.After(serverStopWait):
		stopped = false
	}
	switch {
	case ds.rec == nil:
	case !stopped: // the server may still tick: closing the recorder under it would race
		return fmt.Errorf("-record: the server did not stop within %v; %s is incomplete", serverStopWait, ds.recPath)
	default:
		if cerr := ds.rec.Close(); cerr != nil {
			return fmt.Errorf("-record: %s: %w", ds.recPath, cerr)
		}
	}
	return nil
}

// lingerLimit bounds the wait for our last packets (the demo's, and at exit every session's):
// CloseLinger, then the longest a link conditioner under a socket may take to let them go.
const lingerLimit = transport.CloseLinger + linksim.MaxCloseWait

// join connects one demo player to addr over a new conditioned socket.
func join(ctx context.Context, cfg Config, addr, name string, c linksim.Conditions, preset string, seed uint64) (*client.Session, *render.Network, error) {
	udp, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		return nil, nil, fmt.Errorf("open socket: %w", err)
	}
	transport.TuneSocket(udp)
	cc, err := linksim.Condition(udp, c, seed)
	if err != nil {
		udp.Close()
		return nil, nil, err
	}
	sess, err := client.Dial(ctx, addr, name, cc, cfg.DialTimeout)
	if err != nil {
		return nil, nil, &joinError{err}
	}
	return sess, &render.Network{Conn: cc, Preset: preset}, nil
}
