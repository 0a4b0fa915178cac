package e2e

import (
	"bufio"
	"fmt"
	"image"
	"image/color"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"tanknet/netcode"
	"tanknet/render/view"
	"tanknet/server"
)

// Demo window size for the screenshot: inside even a 1280x800 screen.
const demoShotW, demoShotH = 1260, 760

// freeUDPAddr returns a loopback UDP address nobody listens on (just now).
func freeUDPAddr(t *testing.T) string {
	t.Helper()
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := pc.LocalAddr().String()
	pc.Close()
	return addr
}

// truthLine is what tankclient -demo prints for each tank of the server's tick it drew last.
var truthLine = regexp.MustCompile(`^tankclient: truth tick (\d+) player (\d+) at (\S+) (\S+) heading (\S+)$`)

// parseTruth reads the truth lines of a -demo -screenshot run.
func parseTruth(t *testing.T, stdout string) map[uint32]netcode.Pose {
	t.Helper()
	poses := map[uint32]netcode.Pose{}
	sc := bufio.NewScanner(strings.NewReader(stdout))
	for sc.Scan() {
		m := truthLine.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		id, _ := strconv.ParseUint(m[2], 10, 32)
		x, _ := strconv.ParseFloat(m[3], 64)
		y, _ := strconv.ParseFloat(m[4], 64)
		h, _ := strconv.ParseFloat(m[5], 64)
		poses[uint32(id)] = netcode.Pose{X: x, Y: y, Heading: h}
	}
	return poses
}

func TestDemoScreenshotShowsThreePanes(t *testing.T) {
	bin := needDisplay(t)
	shot := filepath.Join(t.TempDir(), "demo.png")
	r := runClient(t, bin, "-demo", "-bots", "0", "-server", "127.0.0.1:0", "-screenshot", shot, "-screenshot-details", "-frames", "150",
		"-width", fmt.Sprint(demoShotW), "-height", fmt.Sprint(demoShotH))
	if r.code != 0 {
		t.Fatalf("tankclient -demo exited %d; stderr:\n%s", r.code, r.stderr)
	}
	truth := parseTruth(t, r.stdout)
	if len(truth) != 2 {
		t.Fatalf("the demo printed the server's state of %d tanks, want the near and far players; stdout:\n%s", len(truth), r.stdout)
	}
	img := readPNG(t, shot)
	arena := server.DefaultConfig().Arena
	panes := view.DemoLayout(img.Bounds().Dx(), img.Bounds().Dy(), arena.Width, arena.Height, true, true)
	names := [3]string{"near player", "server", "far player"}

	for i, p := range panes {
		f := p.Frame
		if i != view.ServerPane {
			checkStrip(t, img, p.Strip, names[i]+" pane")
		}
		floor := count(img, f.Arena, 0, func(c color.RGBA) bool { return c == view.ArenaFloor })
		if area := int(f.Arena.W * f.Arena.H); floor < area/3 {
			t.Errorf("%s pane: arena floor colour in %d of %d pixels, want at least a third", names[i], floor, area)
		}
		// Nobody pressed a key and there is no contact to push them: both players stand
		// where the server has them, in every pane (the remote one interpolated between
		// equal states). Worked out here rather than with f.ToScreen, so a wrong flip there
		// cannot hide.
		toScreen := func(x, y float64) (float64, float64) {
			return f.Arena.X + x*f.Scale, f.Arena.Y + (arena.Height-y)*f.Scale
		}
		r0 := arena.TankRadius * 1.2 * f.Scale
		for id, pose := range truth {
			sx, sy := toScreen(pose.X, pose.Y)
			clr := view.PlayerColor(id)
			if n := count(img, view.Rect{X: sx - r0, Y: sy - r0, W: 2 * r0, H: 2 * r0}, 0, close(clr)); n < 8 {
				t.Errorf("%s pane: player %d's colour %v in %d pixels around (%.0f, %.0f), where the server has it (%v); want at least 8",
					names[i], id, clr, n, sx, sy, pose)
			}
			if i == view.ServerPane {
				mx, my := toScreen(pose.X, arena.Height-pose.Y)
				if my-sy > 4*r0 || sy-my > 4*r0 {
					if n := count(img, view.Rect{X: mx - r0, Y: my - r0, W: 2 * r0, H: 2 * r0}, 0, close(clr)); n >= 8 {
						t.Errorf("server pane: player %d's colour also at the unflipped position (%.0f, %.0f)", id, mx, my)
					}
				}
			}
		}
	}
	if t.Failed() {
		keep := filepath.Join(os.TempDir(), "tankclient-e2e-demo-failed.png")
		if data, err := os.ReadFile(shot); err == nil && os.WriteFile(keep, data, 0o644) == nil {
			t.Logf("screenshot kept at %s", keep)
		}
	}
}

func TestDemoOnABusyPortSaysSo(t *testing.T) {
	bin := needDisplay(t)
	pc, err := net.ListenPacket("udp", "127.0.0.1:0") // someone already serving there
	if err != nil {
		t.Fatal(err)
	}
	defer pc.Close()
	r := runClient(t, bin, "-demo", "-server", pc.LocalAddr().String())
	checkFailure(t, r, 2, "in use")
	if !strings.Contains(r.stderr, "PORT=") {
		t.Errorf("the busy-port message does not say how to pick another port (PORT=):\n%s", r.stderr)
	}
}

func TestWithoutADisplaySaysWhatIsMissing(t *testing.T) {
	bin := buildClient(t)
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "DISPLAY=") {
			env = append(env, kv)
		}
	}
	for _, tt := range []struct {
		name string
		env  []string
		want string
	}{
		{"unset", env, "DISPLAY environment variable is not set"},
		{"nobody there", append(env, "DISPLAY=:64999"), "no X server listens there"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r, err := execClient(t.Context(), tt.env, bin, "-demo") // -h prints the help instead: cmd/tankclient tests it
			if err != nil {
				t.Fatal(err)
			}
			if r.code != 2 || !strings.Contains(r.stderr, tt.want) || !strings.Contains(r.stderr, "xvfb-run") {
				t.Errorf("tankclient -demo without a display exited %d, stderr:\n%s\nwant 2 and a message containing %q and how to get a display", r.code, r.stderr, tt.want)
			}
			if strings.Contains(r.stderr, "goroutine ") || strings.Contains(r.stderr, "panic") {
				t.Errorf("tankclient printed a stack trace:\n%s", r.stderr)
			}
		})
	}
}

// checkStrip asserts the timeline strip in r shows snapshots received and the local
// tank's inputs, in the colours view.MarkColor gives them.
func checkStrip(t *testing.T, img *image.RGBA, r view.Rect, where string) {
	t.Helper()
	if r.W <= 0 || r.H <= 0 {
		t.Errorf("%s: no timeline strip in the layout", where)
		return
	}
	rowH := r.H / view.TimelineRows
	row := func(i int) view.Rect { return view.Rect{X: r.X, Y: r.Y + float64(i)*rowH, W: r.W, H: rowH} }
	// Two seconds in, the last second's 20 snapshots came: most of the top row's slots
	// are received marks, each several pixels wide.
	if n := count(img, row(view.RowSnapshots), 0, close(view.MarkColor(view.MarkReceived))); n < 200 {
		t.Errorf("%s: %d pixels of received-snapshot marks in the strip's top row %v, want at least 200", where, n, row(view.RowSnapshots))
	}
	inputs := count(img, row(view.RowLocal), 0, close(view.MarkColor(view.MarkAcked))) +
		count(img, row(view.RowLocal), 0, close(view.MarkColor(view.MarkPending)))
	if inputs < 200 {
		t.Errorf("%s: %d pixels of input marks in the strip's bottom row, want at least 200", where, inputs)
	}
}
