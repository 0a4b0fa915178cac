package render

import (
	"math"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/vector"

	"tanknet/netcode"
	"tanknet/render/view"
)

// wallWidth is the outer wall's thickness in pixels, drawn outside the field.
const wallWidth = 5

// maxArenas is the most arenas one window shows (the three-pane demo).
const maxArenas = 3

// backdropKey is everything the backdrop depends on.
type backdropKey struct {
	w, h   int
	n      int
	frames [maxArenas]view.Frame
}

// backdrop is the window's static layer: the background and every arena shown (field, grid,
// walls, obstacles), which never change during a session, painted once for the current
// window layout. Each frame starts by copying it over the whole screen, the one full-window
// pass a frame needs besides Ebitengine's own; under a software renderer the cost of a frame
// is mostly pixels touched, so the screen is never cleared or filled separately.
type backdrop struct {
	img *ebiten.Image
	key backdropKey
}

// update paints the backdrop for arenas laid out as frames on a screen like dst when the
// layout changed, and reports whether it did.
func (b *backdrop) update(dst *ebiten.Image, a *netcode.Arena, frames ...view.Frame) bool {
	k := backdropKey{w: dst.Bounds().Dx(), h: dst.Bounds().Dy(), n: min(len(frames), maxArenas)}
	copy(k.frames[:], frames)
	for i := range k.frames {
		k.frames[i] = k.frames[i].Still() // a camera's position is painted per frame, not cached
	}
	if b.img != nil && b.key == k {
		return false
	}
	if b.img != nil {
		b.img.Deallocate()
	}
	b.img, b.key = ebiten.NewImage(k.w, k.h), k
	b.img.Fill(view.Background)
	for _, f := range k.frames[:k.n] {
		if f.Scale > 0 && !f.Follows { // a camera's arena is painted per frame (drawFollowed)
			paintArena(b.img, f, a)
		}
	}
	return true
}

// draw copies the whole backdrop onto dst.
func (b *backdrop) draw(dst *ebiten.Image) {
	dst.DrawImage(b.img, &ebiten.DrawImageOptions{Blend: ebiten.BlendCopy})
}

// paintArena draws the field, a one-unit grid, the outer walls and the obstacles: all of
// them, or for a camera (f.Follows) what is in view.
func paintArena(dst *ebiten.Image, f view.Frame, a *netcode.Arena) {
	fx0, fy0 := f.ToScreen(0, a.Height) // the field's screen rectangle: f.Arena unless a camera
	fx1, fy1 := f.ToScreen(a.Width, 0)
	r := view.Rect{X: fx0, Y: fy0, W: fx1 - fx0, H: fy1 - fy0}
	vector.FillRect(dst, float32(r.X), float32(r.Y), float32(r.W), float32(r.H), view.ArenaFloor, false)

	var grid vector.Path
	vx0, vy0, vx1, vy1 := 0.0, 0.0, a.Width, a.Height
	if f.Follows { // only the lines in view; the field may be far larger than the window
		vx0, vy0, vx1, vy1 = f.Visible()
	}
	for x := math.Max(1, math.Ceil(vx0)); x < math.Min(a.Width, vx1+1); x++ {
		sx, _ := f.ToScreen(x, 0)
		grid.MoveTo(float32(sx), float32(r.Y))
		grid.LineTo(float32(sx), float32(r.Y+r.H))
	}
	for y := math.Max(1, math.Ceil(vy0)); y < math.Min(a.Height, vy1+1); y++ {
		_, sy := f.ToScreen(0, y)
		grid.MoveTo(float32(r.X), float32(sy))
		grid.LineTo(float32(r.X+r.W), float32(sy))
	}
	strokePath(dst, &grid, 1, view.ArenaGrid)

	h := float32(wallWidth) / 2
	vector.StrokeRect(dst, float32(r.X)-h, float32(r.Y)-h, float32(r.W)+2*h, float32(r.H)+2*h, wallWidth, view.ArenaWall, true)

	for _, o := range a.Obstacles {
		if f.Follows && (o.MaxX < vx0 || o.MinX > vx1 || o.MaxY < vy0 || o.MinY > vy1) {
			continue // out of view
		}
		x0, y0 := f.ToScreen(o.MinX, o.MaxY) // top-left on screen: world y is flipped
		x1, y1 := f.ToScreen(o.MaxX, o.MinY)
		w, hh := float32(x1-x0), float32(y1-y0)
		vector.FillRect(dst, float32(x0), float32(y0), w, hh, view.Obstacle, true)
		vector.StrokeRect(dst, float32(x0), float32(y0), w, hh, float32(math.Max(1, f.Scale/10)), view.ObstacleEdge, true)
	}
}
