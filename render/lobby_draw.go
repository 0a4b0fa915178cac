package render

import (
	"fmt"
	"image/color"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"
	"github.com/hajimehoshi/ebiten/v2/vector"

	"tanknet/render/view"
)

// The lobby's colours beyond the palette: the window behind it, a field's box and the row
// or field with the focus.
var (
	lobbyBack  = color.RGBA{0x14, 0x17, 0x1e, 0xff}
	fieldFill  = color.RGBA{0x0c, 0x0e, 0x12, 0xff}
	focusFill  = color.RGBA{0x2a, 0x3c, 0x5c, 0xff}
	focusEdge  = color.RGBA{0x6c, 0x9c, 0xe8, 0xff}
	buttonFill = color.RGBA{0x30, 0x36, 0x44, 0xff}
)

// draw paints the whole lobby: it is small, and a list that changes every refresh would
// make repairing only what changed no cheaper.
func (s *lobbyScreen) draw(dst *ebiten.Image, f *fonts, tc *textCache) {
	b := dst.Bounds()
	dst.Fill(lobbyBack)
	s.places = view.PlaceLobby(float64(b.Dx()), float64(b.Dy()), lineHeight)
	s.rows = s.lobby.ListRows()
	s.top = s.lobby.ListTop(s.rows, s.places.Rows)
	p, l := s.places, s.lobby
	put := func(str string, face *text.GoTextFace, clr color.RGBA, x, y float64) {
		drawImageAt(dst, tc.image(str, face, clr, false), x, y)
	}
	put("tanknet lobby", f.title, view.TextColor, p.Title.X, p.Title.Y)
	put(l.Asking(s.cfg.Discovery.Refresh), f.mono, view.DimText, p.Title.X+220, p.Title.Y+8)

	focus := l.Items()[l.FocusIndex()]
	s.field(dst, f, tc, p.NameField, "your name", l.Name, focus.Kind == view.ItemName)
	put("servers on this network", f.mono, view.RTTLine, p.List.X, p.List.Y-lineHeight-4)
	for i := 0; i < p.Rows && s.top+i < len(s.rows); i++ {
		s.row(dst, f, tc, p.Row(i), s.rows[s.top+i], s.rows[s.top+i].Item == l.FocusIndex())
	}
	if s.top > 0 || s.top+p.Rows < len(s.rows) {
		put(fmt.Sprintf("rows %d-%d of %d", s.top+1, min(s.top+p.Rows, len(s.rows)), len(s.rows)), f.mono, view.DimText, p.List.X+p.List.W-150, p.List.Y-lineHeight-4)
	}
	s.field(dst, f, tc, p.AddressField, "or an address", l.Address, focus.Kind == view.ItemAddress)
	s.button(dst, f, tc, p.Join, "Join")
	s.button(dst, f, tc, p.Quit, "Quit")
	if msg, failed := l.Status(); msg != "" {
		clr := view.TextColor
		if failed {
			clr = view.ErrorText
		}
		put(msg, f.mono, clr, p.Status.X, p.Status.Y)
	}
	put(view.LobbyKeys, f.mono, view.DimText, p.Keys.X, p.Keys.Y)
	tc.endFrame()
}

// field draws a text field at r with its label to the left, and the cursor when focused.
func (s *lobbyScreen) field(dst *ebiten.Image, f *fonts, tc *textCache, r view.Rect, label, value string, focused bool) {
	drawImageAt(dst, tc.image(label, f.mono, view.DimText, false), r.X-s.places.LabelW, r.Y+4)
	fill, edge := fieldFill, view.DimText
	if focused {
		fill, edge = focusFill, focusEdge
		value += "_"
	}
	vector.FillRect(dst, float32(r.X), float32(r.Y), float32(r.W), float32(r.H), fill, false)
	vector.StrokeRect(dst, float32(r.X), float32(r.Y), float32(r.W), float32(r.H), 1, edge, false)
	if value != "" {
		drawImageAt(dst, tc.image(value, f.mono, view.TextColor, false), r.X+6, r.Y+4)
	}
}

// row draws one line of the servers' list, highlighted when its item has the focus.
func (s *lobbyScreen) row(dst *ebiten.Image, f *fonts, tc *textCache, r view.Rect, row view.LobbyRow, focused bool) {
	str, clr := row.Text, styleColor(row.Style)
	if focused {
		vector.FillRect(dst, float32(r.X), float32(r.Y), float32(r.W), float32(r.H-2), focusFill, false)
		vector.StrokeRect(dst, float32(r.X), float32(r.Y), float32(r.W), float32(r.H-2), 1, focusEdge, false)
		clr = view.TextColor
		if row.Field {
			str += "_"
		}
	}
	face := f.mono
	if row.Item < 0 && row.Style != view.Dim {
		face = f.label // a server's heading reads apart from its rooms
	}
	drawImageAt(dst, tc.image(str, face, clr, false), r.X+6, r.Y+3)
}

// button draws a button at r.
func (s *lobbyScreen) button(dst *ebiten.Image, f *fonts, tc *textCache, r view.Rect, label string) {
	vector.FillRect(dst, float32(r.X), float32(r.Y), float32(r.W), float32(r.H), buttonFill, false)
	vector.StrokeRect(dst, float32(r.X), float32(r.Y), float32(r.W), float32(r.H), 1, view.DimText, false)
	img := tc.image(label, f.mono, view.TextColor, false)
	drawImageAt(dst, img, r.X+r.W/2-float64(img.Bounds().Dx())/2, r.Y+r.H/2-float64(img.Bounds().Dy())/2)
}
