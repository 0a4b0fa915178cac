package render

import (
	"image/color"
	"math"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/vector"

	"tanknet/netcode"
	"tanknet/render/view"
)

// wallWidth is the outer wall's thickness in pixels, drawn outside the field.
const wallWidth = 5

// arenaCache holds the arena, which never changes during a session, drawn once for the
// current window layout: redrawing its grid and boxes every frame costs more than the tanks.
type arenaCache struct {
	img   *ebiten.Image
	frame view.Frame // the layout img was drawn for
}

// drawArena draws the arena for layout f, from the cache when f has not changed.
func (g *Game) drawArena(dst *ebiten.Image, f view.Frame, a *netcode.Arena) {
	if f.Scale <= 0 {
		return
	}
	c := &g.arenaCache
	b := dst.Bounds()
	if c.img == nil || c.frame != f || c.img.Bounds() != b {
		if c.img != nil {
			c.img.Deallocate()
		}
		c.img = ebiten.NewImage(b.Dx(), b.Dy())
		c.frame = f
		paintArena(c.img, f, a)
	}
	dst.DrawImage(c.img, nil)
}

// paintArena draws the field, a one-unit grid, the outer walls and the obstacles.
func paintArena(dst *ebiten.Image, f view.Frame, a *netcode.Arena) {
	r := f.Arena
	vector.FillRect(dst, float32(r.X), float32(r.Y), float32(r.W), float32(r.H), view.ArenaFloor, false)

	var grid vector.Path
	for x := 1.0; x < a.Width; x++ {
		sx, _ := f.ToScreen(x, 0)
		grid.MoveTo(float32(sx), float32(r.Y))
		grid.LineTo(float32(sx), float32(r.Y+r.H))
	}
	for y := 1.0; y < a.Height; y++ {
		_, sy := f.ToScreen(0, y)
		grid.MoveTo(float32(r.X), float32(sy))
		grid.LineTo(float32(r.X+r.W), float32(sy))
	}
	strokePath(dst, &grid, 1, view.ArenaGrid)

	h := float32(wallWidth) / 2
	vector.StrokeRect(dst, float32(r.X)-h, float32(r.Y)-h, float32(r.W)+2*h, float32(r.H)+2*h, wallWidth, view.ArenaWall, true)

	for _, o := range a.Obstacles {
		x0, y0 := f.ToScreen(o.MinX, o.MaxY) // top-left on screen: world y is flipped
		x1, y1 := f.ToScreen(o.MaxX, o.MinY)
		w, hh := float32(x1-x0), float32(y1-y0)
		vector.FillRect(dst, float32(x0), float32(y0), w, hh, view.Obstacle, true)
		vector.StrokeRect(dst, float32(x0), float32(y0), w, hh, float32(math.Max(1, f.Scale/10)), view.ObstacleEdge, true)
	}
}

// fillPath fills p with clr, which may be translucent.
func fillPath(dst *ebiten.Image, p *vector.Path, clr color.Color) {
	op := &vector.DrawPathOptions{AntiAlias: true}
	op.ColorScale.ScaleWithColor(clr)
	vector.FillPath(dst, p, nil, op)
}

// strokePath strokes p, width pixels wide, with clr.
func strokePath(dst *ebiten.Image, p *vector.Path, width float32, clr color.Color) {
	op := &vector.DrawPathOptions{AntiAlias: true}
	op.ColorScale.ScaleWithColor(clr)
	vector.StrokePath(dst, p, &vector.StrokeOptions{Width: width, LineJoin: vector.LineJoinRound}, op)
}
