// Command loadcurve measures what a tankserver process costs as players grow: for each
// size it starts bin/tankserver on 127.0.0.1 alone in its process, fills rooms of 32 with
// thin clients (package tanknet/load) from this process, plays for a while and reads the
// server's metrics before and after the play: each room's tick p99, the tick's CPU and wall
// time, process CPU and RSS, allocations per room tick, bytes per client each way, drops;
// and from the clients the join burst, unapplied inputs and missing snapshots.
//
//	go run ./tools/loadcurve -plot docs/plots                 # 256, 512, 1024 and 2048 players, JSON on stdout
//	go run ./tools/loadcurve -sizes 64,128 -duration 5s       # a quick look
//
// It prints JSON ({"points": [...]}), which tools/measurements reads into the cost curve
// section of docs/MEASUREMENTS.md, and with -plot writes docs/plots/cost-curve.png. Run
// it on a quiet machine: every figure is the machine's as much as the server's.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"tanknet/internal/cliflag"
	"tanknet/internal/promtext"
	"tanknet/load"
)

// config is what one curve takes, from the flags.
type config struct {
	sizes    []int
	roomSize int
	duration time.Duration
	bin      string
	arena    string
	plotDir  string
	logDir   string
	split    bool
	prefix   []string // what starts the server (taskset with -split), before its binary
}

func main() {
	cfg, err := parseFlags(os.Args[1:])
	if err != nil {
		fmt.Fprintln(os.Stderr, "loadcurve:", err)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, cfg); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func parseFlags(args []string) (config, error) {
	fs := flag.NewFlagSet("loadcurve", flag.ContinueOnError)
	c := config{}
	sizes := fs.String("sizes", "256,512,1024,2048", "player counts, comma-separated")
	fs.IntVar(&c.roomSize, "room-size", 32, "players per room")
	fs.DurationVar(&c.duration, "duration", 20*time.Second, "play at each size, once every client has joined")
	fs.StringVar(&c.bin, "server", "bin/tankserver", "the tankserver binary (make build)")
	fs.StringVar(&c.arena, "arena", "large", "the server's -arena")
	fs.StringVar(&c.plotDir, "plot", "", "write cost-curve.png into this folder")
	fs.StringVar(&c.logDir, "logs", "bin", "where each size's server log goes")
	fs.BoolVar(&c.split, "split", false, "run the server on CPU 0 alone and the thin clients on the other CPUs (Linux, taskset), so the server's figures are one core's")
	if err := cliflag.Parse(fs, args); err != nil {
		return c, err
	}
	for _, f := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 || n > load.MaxPlayers {
			return c, fmt.Errorf("-sizes: %q is not a player count in [1, %d]", f, load.MaxPlayers)
		}
		c.sizes = append(c.sizes, n)
	}
	if c.roomSize < 1 || c.duration <= 0 {
		return c, fmt.Errorf("-room-size %d and -duration %v must be positive", c.roomSize, c.duration)
	}
	return c, nil
}

// run measures every size, one server each, prints the JSON and draws the chart.
func run(ctx context.Context, c config) error {
	var out struct {
		Points []point `json:"points"`
		Split  bool    `json:"split"`
	}
	out.Split = c.split
	if c.split {
		prefix, err := splitCPUs()
		if err != nil {
			return err
		}
		c.prefix = prefix
	}
	for _, n := range c.sizes {
		p, err := measure(ctx, c, n)
		if err != nil {
			return err
		}
		fmt.Fprintf(os.Stderr, "loadcurve: %d players: room tick p99 max %.2f ms, server %.2f cores, %d drops\n",
			n, p.RoomTickP99MaxMs, p.ServerCores, int(p.ServerDrops)+p.ClientsDropped)
		out.Points = append(out.Points, p)
	}
	if c.plotDir != "" {
		if err := writeChart(filepath.Join(c.plotDir, "cost-curve.png"), out.Points); err != nil {
			return err
		}
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// measure plays n thin clients on a server of their own.
func measure(ctx context.Context, c config, n int) (point, error) {
	logPath := filepath.Join(c.logDir, fmt.Sprintf("loadcurve-%d-server.log", n))
	srv, err := startServer(ctx, append(c.prefix, c.bin), c.arena, logPath, n, c.roomSize)
	if err != nil {
		return point{}, err
	}
	defer srv.stop()
	var before, after promtext.Series
	var scrapeErr error
	lc := load.DefaultConfig()
	lc.Server, lc.Players, lc.RoomSize, lc.Duration = srv.addr, n, c.roomSize, c.duration
	lc.Playing = func(start bool) {
		m, err := srv.scrape()
		if err != nil && scrapeErr == nil {
			scrapeErr = err
		}
		if start {
			before = m
		} else {
			after = m
		}
	}
	rep, err := load.Run(ctx, lc)
	if err != nil {
		return point{}, fmt.Errorf("loadcurve: %d players: %w", n, err)
	}
	if rep.JoinFailed > 0 { // the point says so (joined); the log says why
		fmt.Fprintf(os.Stderr, "loadcurve: %d players: %d could not join: %s (server log %s)\n", n, rep.JoinFailed, rep.FirstJoinError, logPath)
	}
	if scrapeErr != nil {
		return point{}, fmt.Errorf("loadcurve: %d players: metrics: %w", n, scrapeErr)
	}
	return figures(before, after, rep), nil
}
