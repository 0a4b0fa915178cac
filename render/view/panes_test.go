package view

import "testing"

func TestDemoLayoutPanesSideBySide(t *testing.T) {
	for _, size := range [][2]int{{1800, 760}, {2560, 800}, {800, 450}} {
		w, h := size[0], size[1]
		panes := DemoLayout(w, h, 40, 25, true, true)
		win := Rect{W: float64(w), H: float64(h)}
		for i, p := range panes {
			a := p.Frame.Arena
			if p.Frame.Scale <= 0 {
				t.Fatalf("%dx%d pane %d: no room for the arena", w, h, i)
			}
			for name, r := range map[string]Rect{"title": p.Title, "arena": a, "panel": p.Frame.Panel} {
				if r.X < 0 || r.Y < 0 || r.X+r.W > win.W+1e-9 || r.Y+r.H > win.H+1e-9 {
					t.Errorf("%dx%d pane %d: %s %v leaves the window", w, h, i, name, r)
				}
			}
			if p.Frame.PanelOverArena() {
				t.Errorf("%dx%d pane %d: panel %v covers the arena %v", w, h, i, p.Frame.Panel, a)
			}
			if (i == ServerPane) != (p.Strip == Rect{}) {
				t.Errorf("%dx%d pane %d: strip %v; want one under each client pane only", w, h, i, p.Strip)
			}
			if p.Strip != (Rect{}) && (p.Strip.Y < a.Y+a.H || p.Strip.Intersects(p.Frame.Panel)) {
				t.Errorf("%dx%d pane %d: strip %v not between arena %v and panel %v", w, h, i, p.Strip, a, p.Frame.Panel)
			}
			if i > 0 && panes[i-1].Bounds.Intersects(p.Bounds) {
				t.Errorf("%dx%d panes %d and %d overlap: %v %v", w, h, i-1, i, panes[i-1].Bounds, p.Bounds)
			}
			if i > 0 && a.X <= panes[i-1].Frame.Arena.X+panes[i-1].Frame.Arena.W {
				t.Errorf("%dx%d arenas %d and %d are not side by side", w, h, i-1, i)
			}
		}
		if panes[NearPane].Frame.Panel.Y != panes[ServerPane].Frame.Panel.Y {
			t.Errorf("%dx%d: panels not level: %v vs %v", w, h, panes[NearPane].Frame.Panel, panes[ServerPane].Frame.Panel)
		}
	}
}

func TestPaneAt(t *testing.T) {
	panes := DemoLayout(1800, 760, 40, 25, true, false)
	for i, p := range panes {
		cx, cy := p.Frame.Arena.X+p.Frame.Arena.W/2, p.Frame.Arena.Y+p.Frame.Arena.H/2
		if got := PaneAt(panes[:], cx, cy); got != i {
			t.Errorf("PaneAt(centre of pane %d) = %d", i, got)
		}
	}
	if got := PaneAt(panes[:], -5, 10); got != -1 {
		t.Errorf("PaneAt outside = %d, want -1", got)
	}
}

func TestSingleLayoutStripUnderArena(t *testing.T) {
	for _, size := range [][2]int{{1200, 580}, {800, 450}, {640, 700}} {
		p := SingleLayout(size[0], size[1], 40, 25, true, true)
		a, s := p.Frame.Arena, p.Strip
		if p.Frame.Panel.Intersects(s) {
			t.Errorf("%v: the HUD panel %v covers the strip %v", size, p.Frame.Panel, s)
		}
		if s.W != a.W || s.Y < a.Y+a.H || s.Y+s.H > float64(size[1])-Margin+1e-9 {
			t.Errorf("%v: strip %v not under arena %v inside the window", size, s, a)
		}
		if p.Frame.Side && p.Frame.Panel.H != float64(size[1])-2*Margin {
			t.Errorf("%v: side panel %v does not keep the full height", size, p.Frame.Panel)
		}
		if off := SingleLayout(size[0], size[1], 40, 25, true, false); off.Strip != (Rect{}) || off.Frame.Scale < p.Frame.Scale {
			t.Errorf("%v: without the strip, strip %v and scale %v (with: %v)", size, off.Strip, off.Frame.Scale, p.Frame.Scale)
		}
	}
}
