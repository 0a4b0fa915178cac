package render

import (
	"fmt"
	"image"
	"image/color"
	"image/color/palette"
	"image/gif"
	"os"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
)

// gifInterval is the time between the recording's frames: 15 a second, smooth enough for
// tanks that move a few pixels a frame, small enough for a README.
const gifInterval = time.Second / 15

// recording collects frames of the window, halved in size, for an animated GIF
// (Options.GIFPath). The zero value records nothing.
type recording struct {
	path   string
	frames []*image.Paletted
	delays []int     // each frame's time on screen, hundredths of a second
	last   time.Time // when the newest frame was captured
	pix    []byte    // the window's pixels, reused
	// prevIndex is the frame before as palette indices, and cur the buffer for this one.
	prevIndex, cur []uint8
	nearest        map[uint32]uint8 // colour -> palette index, as found
}

// due reports whether the frame drawn at now should be captured.
func (r *recording) due(now time.Time) bool {
	return r.path != "" && (r.last.IsZero() || now.Sub(r.last) >= gifInterval)
}

// capture keeps screen, drawn at now, as the next frame of the recording; the frame before
// stays on screen for the time between them, so the GIF plays at the game's pace.
func (r *recording) capture(screen *ebiten.Image, now time.Time) {
	if !r.last.IsZero() {
		r.delays = append(r.delays, max(2, int(now.Sub(r.last)/(10*time.Millisecond))))
	}
	r.last = now
	b := screen.Bounds()
	w, h := b.Dx(), b.Dy()
	if len(r.pix) != 4*w*h {
		r.pix = make([]byte, 4*w*h)
		r.prevIndex, r.cur = nil, make([]uint8, (w/2)*(h/2))
	}
	screen.ReadPixels(r.pix)
	hw, hh := w/2, h/2
	p := image.NewPaletted(image.Rect(0, 0, hw, hh), gifPalette)
	prev := r.prevIndex
	for y := 0; y < hh; y++ {
		for x := 0; x < hw; x++ {
			var sum [3]int
			for c := range 3 { // the mean of each 2x2 block
				i := (2*y*w+2*x)*4 + c
				sum[c] = int(r.pix[i]) + int(r.pix[i+4]) + int(r.pix[i+4*w]) + int(r.pix[i+4*w+4])
			}
			idx := r.index(uint8(sum[0]/4), uint8(sum[1]/4), uint8(sum[2]/4))
			j := y*hw + x
			if prev != nil && prev[j] == idx {
				p.Pix[j] = gifTransparent // unchanged since the frame before: LZW packs it to nothing
			} else {
				p.Pix[j] = idx
			}
			r.cur[j] = idx
		}
	}
	r.prevIndex, r.cur = r.cur, prev
	if r.cur == nil {
		r.cur = make([]uint8, hw*hh)
	}
	r.frames = append(r.frames, p)
}

// index returns the palette index nearest the colour (r, g, b), remembering each answer: the
// window has few distinct colours, and a search of the palette per pixel would be slow.
func (rec *recording) index(r, g, b uint8) uint8 {
	key := uint32(r)<<16 | uint32(g)<<8 | uint32(b)
	if i, ok := rec.nearest[key]; ok {
		return i
	}
	if rec.nearest == nil {
		rec.nearest = map[uint32]uint8{}
	}
	i := uint8(gifPalette[:gifTransparent].Index(color.RGBA{r, g, b, 0xff}))
	rec.nearest[key] = i
	return i
}

// gifPalette is Plan 9's palette with its last entry made transparent, for the pixels a frame
// leaves as the frame before drew them.
var gifPalette = func() color.Palette {
	p := append(color.Palette{}, palette.Plan9[:gifTransparent]...)
	return append(p, color.RGBA{})
}()

const gifTransparent = 255

// write encodes the frames as a looping GIF at r.path.
func (r *recording) write() error {
	if len(r.frames) == 0 {
		return fmt.Errorf("render: gif: no frames recorded")
	}
	g := &gif.GIF{Image: r.frames, Delay: append(r.delays, int(gifInterval/(10*time.Millisecond))),
		Disposal: make([]byte, len(r.frames))}
	for i := range g.Disposal {
		g.Disposal[i] = gif.DisposalNone // each frame draws over the one before
	}
	f, err := os.Create(r.path)
	if err != nil {
		return fmt.Errorf("render: gif: %w", err)
	}
	if err := gif.EncodeAll(f, g); err != nil {
		f.Close()
		return fmt.Errorf("render: gif: %w", err)
	}
	return f.Close()
}
