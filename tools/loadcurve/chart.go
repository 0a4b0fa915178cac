package main

import (
	"fmt"
	"image/color"
	"os"
	"path/filepath"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// writeChart draws the cost against players, two panels side by side: the server's cores
// and the slowest room's tick p99 and the mean tick's wall and CPU time.
func writeChart(path string, points []point) error {
	cores := newChart("server process CPU", "cores")
	ticks := newChart("tick time per room", "ms")
	var cpu, p99, wall, tcpu plotter.XYs
	for _, p := range points {
		x := float64(p.Players)
		cpu = append(cpu, plotter.XY{X: x, Y: p.ServerCores})
		if p.RoomTickP99MaxMs >= 0 {
			p99 = append(p99, plotter.XY{X: x, Y: p.RoomTickP99MaxMs})
		}
		wall = append(wall, plotter.XY{X: x, Y: p.TickWallMeanUs / 1e3})
		tcpu = append(tcpu, plotter.XY{X: x, Y: p.TickCPUMeanUs / 1e3})
	}
	if err := addLine(cores, "cores", cpu, color.RGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0xff}); err != nil {
		return err
	}
	for _, l := range []struct {
		name string
		xys  plotter.XYs
		c    color.RGBA
	}{
		{"slowest room's p99 (bucket edge)", p99, color.RGBA{R: 0xd6, G: 0x27, B: 0x28, A: 0xff}},
		{"mean wall", wall, color.RGBA{R: 0xff, G: 0x7f, B: 0x0e, A: 0xff}},
		{"mean thread CPU", tcpu, color.RGBA{R: 0x2c, G: 0xa0, B: 0x2c, A: 0xff}},
	} {
		if err := addLine(ticks, l.name, l.xys, l.c); err != nil {
			return err
		}
	}
	var marks []plot.Tick
	top := 0.0
	for _, p := range points {
		marks = append(marks, plot.Tick{Value: float64(p.Players), Label: fmt.Sprint(p.Players)})
		top = max(top, p.RoomTickP99MaxMs, p.TickWallMeanUs/1e3)
	}
	for _, p := range []*plot.Plot{cores, ticks} {
		p.X.Tick.Marker = plot.ConstantTicks(marks)
	}
	ticks.Y.Max = top * 1.4 // room for the legend above the lines
	img := vgimg.New(vg.Points(900), vg.Points(340))
	dc := draw.New(img)
	tiles := draw.Tiles{Rows: 1, Cols: 2, PadX: vg.Points(10), PadTop: vg.Points(4), PadBottom: vg.Points(4)}
	for i, p := range []*plot.Plot{cores, ticks} {
		p.Draw(plot.Align([][]*plot.Plot{{cores, ticks}}, tiles, dc)[0][i])
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(f); err != nil {
		f.Close()
		return fmt.Errorf("loadcurve: chart: %w", err)
	}
	return f.Close()
}

func newChart(title, yLabel string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "players (rooms of 32)"
	p.Y.Label.Text = yLabel
	p.Y.Min = 0
	p.Add(plotter.NewGrid())
	p.Legend.Top, p.Legend.Left = true, true
	return p
}

func addLine(p *plot.Plot, name string, xys plotter.XYs, c color.RGBA) error {
	if len(xys) == 0 {
		return nil
	}
	l, pts, err := plotter.NewLinePoints(xys)
	if err != nil {
		return fmt.Errorf("loadcurve: chart: %w", err)
	}
	l.Color, pts.Color = c, c
	p.Add(l, pts)
	p.Legend.Add(name, l, pts)
	return nil
}
