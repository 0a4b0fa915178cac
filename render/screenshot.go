package render

import (
	"fmt"
	"image"
	"image/png"
	"os"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
)

// screenshot is the -screenshot mode: after a number of frames, the next Draw saves the
// window as a PNG and the game ends.
type screenshot struct {
	path     string    // "" when not taking one
	frames   int       // frames to draw first
	waitFrom time.Time // when the frames were drawn and the wait for a moment began
	due      bool      // the next Draw captures
	done     bool      // captured (or failed trying)
	missed   bool      // captured when the wait ran out, without its moment
	err      error     // why capturing failed
}

// momentWait is how long a screenshot waits for its moment per frame it drew first: ten
// times as long as those frames take at 60 a second, whatever the window's frame rate.
const momentWait = 10 * time.Second / 60

// wait returns how long the screenshot waits for its moment after its frames.
func (s *screenshot) wait() time.Duration { return time.Duration(s.frames) * momentWait }

// waitedEnough reports, at now, whether the wait for the screenshot's moment is over; the
// first call starts it.
func (s *screenshot) waitedEnough(now time.Time) bool {
	if s.waitFrom.IsZero() {
		s.waitFrom = now
	}
	return now.Sub(s.waitFrom) >= s.wait()
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
