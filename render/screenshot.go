package render

import (
	"fmt"
	"image"
	"image/png"
	"os"

	"github.com/hajimehoshi/ebiten/v2"
)

// screenshot is the -screenshot mode: after a number of frames, the next Draw saves the
// window as a PNG and the game ends.
type screenshot struct {
	path   string // "" when not taking one
	frames int    // frames to draw first
	due    bool   // the next Draw captures
	done   bool   // captured (or failed trying)
	err    error  // why capturing failed
}

// take reads the finished frame from screen and writes it to s.path.
func (s *screenshot) take(screen *ebiten.Image) {
	s.done = true
	b := screen.Bounds()
	img := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	screen.ReadPixels(img.Pix)
	if err := writePNG(s.path, img); err != nil {
		s.err = fmt.Errorf("render: screenshot: %w", err)
	}
}

func writePNG(path string, img image.Image) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
