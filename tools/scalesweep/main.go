// Command scalesweep measures what a tanknet server costs as players grow: for 16, 64, 128
// and 256 bots on the large arena it starts a separate tankserver (with -metrics), plays
// tanksim against it, and records the bytes each client receives a second and the server
// process's CPU cores. Given two builds it compares them, and it draws both measures
// against the player count as PNG charts.
//
//	go run ./tools/scalesweep -before /tmp/before/bin -after bin -out docs/plots
//
// Each directory holds tankserver and tanksim binaries (go build -o DIR/ ./cmd/...). The
// tanksim of -after drives both servers, so the bots are the same; only the server differs.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"image/color"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"tanknet/internal/cliflag"
	"tanknet/sim"
)

// result is one run: what tanksim reported.
type result struct {
	Players   int     `json:"players"`
	Down      float64 `json:"bytes_per_s_down"` // per client
	CPU       float64 `json:"server_cpu_cores"`
	Failed    string  `json:"failed,omitempty"` // why the last try produced no report
	TankBytes float64 `json:"bytes_per_tank_moving"`
	Tries     int     `json:"tries"`   // runs it took to get a report (or made before giving up)
	Load      string  `json:"loadavg"` // /proc/loadavg when the run ended: what else the machine did
}

func main() {
	before := flag.String("before", "", "directory with the tankserver and tanksim to compare against (optional)")
	after := flag.String("after", "bin", "directory with the tankserver and tanksim to measure")
	out := flag.String("out", "docs/plots", "directory for the charts and scale.json")
	players := flag.String("players", "16,64,128,256", "bot counts to measure")
	duration := flag.Duration("duration", 15*time.Second, "how long each run plays")
	tries := flag.Int("tries", 1, "runs per point before giving up: on a busy machine a bot may time out")
	cliflag.ParseCommandLine("scalesweep")
	var counts []int
	for _, s := range strings.Split(*players, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 1 || n > 256 {
			fail(fmt.Errorf("-players: %q is not a count in [1, 256]", s))
		}
		counts = append(counts, n)
	}
	tanksim := filepath.Join(*after, "tanksim")
	runs := map[string][]result{}
	builds := [][2]string{{"after", *after}}
	if *before != "" {
		builds = append([][2]string{{"before", *before}}, builds...)
	}
	for _, b := range builds {
		for i, n := range counts {
			var r result
			for try := 1; try <= max(1, *tries); try++ {
				r = measure(filepath.Join(b[1], "tankserver"), tanksim, n, *duration, 7900+i)
				r.Tries = try
				if load, err := os.ReadFile("/proc/loadavg"); err == nil {
					r.Load = strings.TrimSpace(string(load))
				}
				if r.Failed == "" {
					break
				}
			}
			fmt.Fprintf(os.Stderr, "%s %3d players: %.0f B/s down per client, %.3f server cores %s\n", b[0], n, r.Down, r.CPU, r.Failed)
			runs[b[0]] = append(runs[b[0]], r)
		}
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fail(err)
	}
	js, _ := json.MarshalIndent(runs, "", "  ")
	if err := os.WriteFile(filepath.Join(*out, "scale.json"), append(js, '\n'), 0o644); err != nil {
		fail(err)
	}
	if err := chart(filepath.Join(*out, "scale-bytes-per-client.png"), "bytes per client per second (down)", runs, func(r result) float64 { return r.Down }); err != nil {
		fail(err)
	}
	if err := chart(filepath.Join(*out, "scale-server-cpu.png"), "server CPU (cores)", runs, func(r result) float64 { return r.CPU }); err != nil {
		fail(err)
	}
	os.Stdout.Write(js)
	fmt.Println()
}

// measure runs server with the large arena and n bots of tanksim against it for d.
func measure(server, tanksim string, n int, d time.Duration, port int) result {
	r := result{Players: n}
	addr, maddr := fmt.Sprintf("127.0.0.1:%d", port), fmt.Sprintf("127.0.0.1:%d", port+100)
	srv := exec.Command(server, "-addr", addr, "-max-players", "256", "-arena", "large", "-metrics", maddr)
	if err := srv.Start(); err != nil {
		r.Failed = err.Error()
		return r
	}
	defer func() {
		srv.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { srv.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			srv.Process.Kill()
			<-done
		}
	}()
	time.Sleep(500 * time.Millisecond) // the server binds its sockets
	ctx, cancel := context.WithTimeout(context.Background(), d+time.Minute)
	defer cancel()
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, tanksim, "-server", addr, "-server-metrics", maddr, "-bots", strconv.Itoa(n),
		"-duration", d.String(), "-bot-fps", "20", "-net", "none", "-json")
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
		r.Failed = fmt.Sprintf("%v: %s", err, lines[0])
		return r
	}
	var rep sim.Report
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		r.Failed = "report: " + err.Error()
		return r
	}
	r.Down = rep.BytesPerSecond.Down
	if rep.ServerCPUCores != nil {
		r.CPU = *rep.ServerCPUCores
	}
	if rep.BytesPerTank != nil && rep.BytesPerTank.Moving != nil {
		r.TankBytes = *rep.BytesPerTank.Moving
	}
	return r
}

// chart draws y(run) against players, one line per build, into a PNG at path.
func chart(path, title string, runs map[string][]result, y func(result) float64) error {
	p := plot.New()
	p.Title.Text = title + " vs players (large arena, " + "20 fps bots)"
	p.X.Label.Text = "players"
	p.Y.Label.Text = title
	p.Add(plotter.NewGrid())
	colors := map[string]color.Color{"before": color.RGBA{R: 200, G: 60, B: 60, A: 255}, "after": color.RGBA{R: 40, G: 110, B: 200, A: 255}}
	for _, name := range []string{"before", "after"} {
		var xys plotter.XYs
		for _, r := range runs[name] {
			if r.Failed == "" {
				xys = append(xys, plotter.XY{X: float64(r.Players), Y: y(r)})
			}
		}
		if len(xys) == 0 {
			continue
		}
		l, pts, err := plotter.NewLinePoints(xys)
		if err != nil {
			return err
		}
		l.Color, pts.Color = colors[name], colors[name]
		p.Add(l, pts)
		p.Legend.Add(name, l, pts)
	}
	p.Legend.Top, p.Legend.Left = true, true
	return p.Save(16*vg.Centimeter, 10*vg.Centimeter, path)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "scalesweep:", err)
	os.Exit(1)
}
