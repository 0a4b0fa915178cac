package e2e

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"log/slog"
	"math"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"tanknet/client"
	"tanknet/internal/testbuild"
	"tanknet/netcode"
	"tanknet/render/view"
	"tanknet/server"
)

// Bounds for the subprocess and the polls around it. Xvfb renders in software, and a
// loaded machine may manage only a few frames a second.
const (
	clientTimeout = 120 * time.Second
	pollTimeout   = 20 * time.Second
	pollEvery     = 20 * time.Millisecond
)

// tankclient is the window's program, built once for the tests (buildClient).
var tankclient testbuild.Once

func TestMain(m *testing.M) { testbuild.Main(m, &tankclient, &tankserver) }

// needDisplay skips t without an X display, and otherwise returns the built tankclient.
func needDisplay(t *testing.T) string {
	t.Helper()
	if os.Getenv("DISPLAY") == "" {
		missing(t, "no X display: Ebitengine cannot open a window; run under xvfb-run -a go test ./render/... (make test does)")
	}
	return buildClient(t)
}

// missing reports that a tool or setting a window test needs is not there. In CI (CI set,
// as `make test` is run there) that fails the test: make deps installs everything these
// tests use, so a gap is a broken setup, not a reason to pass without testing. Elsewhere it
// skips, with the same words, so a developer without X can still run the rest.
func missing(t *testing.T, format string, args ...any) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatalf("CI: "+format, args...)
	}
	t.Skipf(format, args...)
}

// buildClient returns the tankclient binary, built once per test run.
func buildClient(t *testing.T) string {
	t.Helper()
	return tankclient.Program(t, "tanknet/cmd/tankclient")
}

// world is an in-process server with the authoritative pose of every player it has seen.
type world struct {
	addr   string
	arena  netcode.Arena
	cancel context.CancelFunc

	mu    sync.Mutex
	poses map[uint32]netcode.Pose // last pose of every player ever seen
}

// startWorld runs a server without contact on a loopback port until stop or the test's end.
func startWorld(t *testing.T, maxPlayers int) *world {
	t.Helper()
	return startWorldWith(t, maxPlayers, nil)
}

// startWorldWith is startWorld with mutate applied to the server's configuration.
func startWorldWith(t *testing.T, maxPlayers int, mutate func(*server.Config)) *world {
	t.Helper()
	cfg := server.DefaultConfig()
	cfg.Addr = "127.0.0.1:0"
	cfg.Rules.Contact = netcode.ContactOff
	cfg.MaxPlayers = maxPlayers
	cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	if mutate != nil {
		mutate(&cfg)
	}
	srv, err := server.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	w := &world{arena: cfg.Arena, poses: map[uint32]netcode.Pose{}}
	srv.Observe(func(r server.TickRecord) {
		w.mu.Lock()
		defer w.mu.Unlock()
		for i, id := range r.IDs {
			w.poses[id] = r.Poses[i]
		}
	})
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	w.addr = pc.LocalAddr().String()
	ctx, cancel := context.WithCancel(context.Background())
	w.cancel = cancel
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, pc) }()
	t.Cleanup(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Error("server did not stop within 10s")
		}
	})
	return w
}

// ids returns the players seen so far.
func (w *world) ids() map[uint32]netcode.Pose {
	w.mu.Lock()
	defer w.mu.Unlock()
	m := make(map[uint32]netcode.Pose, len(w.poses))
	for id, p := range w.poses {
		m[id] = p
	}
	return m
}

// waitPlayers polls until at least n players have been seen.
func (w *world) waitPlayers(t *testing.T, n int) {
	t.Helper()
	deadline := time.Now().Add(pollTimeout)
	for len(w.ids()) < n {
		if time.Now().After(deadline) {
			t.Fatalf("only %d of %d players joined within %v", len(w.ids()), n, pollTimeout)
		}
		time.Sleep(pollEvery)
	}
}

// startBots drives n scripted bots on w until the test ends.
func startBots(t *testing.T, w *world, n int) {
	t.Helper()
	startBotsFiring(t, w, n, false)
}

// startBotsFiring is startBots with gunner bots (client.BotConfig.Fire) when fire is set.
func startBotsFiring(t *testing.T, w *world, n int, fire bool) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := client.RunBot(ctx, client.BotConfig{Addr: w.addr, Name: fmt.Sprintf("bot-%d", i+1), Seed: uint64(i + 1),
				Options: client.DefaultOptions(), Fire: fire, LagComp: true})
			if err != nil && ctx.Err() == nil {
				t.Errorf("bot %d: %v", i+1, err)
			}
		}()
	}
	t.Cleanup(func() { cancel(); wg.Wait() })
	w.waitPlayers(t, n)
}

// result is how a tankclient run ended.
type result struct {
	code           int
	stdout, stderr string
}

// runClient runs tankclient with args and waits for it to exit.
func runClient(t *testing.T, bin string, args ...string) result {
	t.Helper()
	r, err := execClient(context.Background(), nil, bin, args...)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// execClient runs tankclient with args, killing it when ctx is done or after clientTimeout;
// env, if not nil, replaces the environment. It is safe to call from any goroutine.
func execClient(ctx context.Context, env []string, bin string, args ...string) (result, error) {
	ctx, cancel := context.WithTimeout(ctx, clientTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if ctx.Err() != nil {
		return result{}, fmt.Errorf("tankclient %v did not exit (%v); stderr:\n%s", args, ctx.Err(), stderr.String())
	}
	code := 0
	if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		return result{}, fmt.Errorf("tankclient %v: %v", args, err)
	}
	return result{code: code, stdout: stdout.String(), stderr: stderr.String()}, nil
}

// checkFailure asserts a failed run exited with code and said why on a last stderr line
// starting "tankclient:" and containing one of wants, with no stack trace.
func checkFailure(t *testing.T, r result, code int, wants ...string) {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
	last := lines[len(lines)-1]
	said := false
	for _, w := range wants {
		said = said || strings.Contains(last, w)
	}
	if r.code != code || !strings.HasPrefix(last, "tankclient: ") || !said {
		t.Errorf("tankclient exited %d with last stderr line %q, want %d and a line containing one of %q\nstderr:\n%s",
			r.code, last, code, wants, r.stderr)
	}
	if strings.Contains(r.stderr, "goroutine ") || strings.Contains(r.stderr, "panic") {
		t.Errorf("tankclient printed a stack trace:\n%s", r.stderr)
	}
}

func readPNG(t *testing.T, path string) *image.RGBA {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("decode %s: %v", path, err)
	}
	rgba := image.NewRGBA(img.Bounds())
	for y := img.Bounds().Min.Y; y < img.Bounds().Max.Y; y++ {
		for x := img.Bounds().Min.X; x < img.Bounds().Max.X; x++ {
			rgba.Set(x, y, img.At(x, y))
		}
	}
	return rgba
}

// count returns how many pixels of img inside r (grown by pad) satisfy match.
func count(img *image.RGBA, r view.Rect, pad float64, match func(color.RGBA) bool) int {
	b := img.Bounds().Intersect(image.Rect(int(r.X-pad), int(r.Y-pad), int(math.Ceil(r.X+r.W+pad)), int(math.Ceil(r.Y+r.H+pad))))
	n := 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if match(img.RGBAAt(x, y)) {
				n++
			}
		}
	}
	return n
}

// close matches colours within a few levels of want in every channel: the tank body is
// filled with exactly want, but blending at the edges may shift it slightly.
func close(want color.RGBA) func(color.RGBA) bool {
	d := func(a, b uint8) bool { return max(a, b)-min(a, b) <= 6 }
	return func(c color.RGBA) bool { return d(c.R, want.R) && d(c.G, want.G) && d(c.B, want.B) }
}

// sameHue matches saturated colours whose hue is within 12 degrees of want's: the tank's own
// colour and the lighter and darker shades it is drawn with, but not the grey arena or the
// other players' colours (eight hues at least 20 degrees apart).
func sameHue(want color.RGBA) func(color.RGBA) bool {
	wh, _ := hueSat(want)
	return func(c color.RGBA) bool {
		h, s := hueSat(c)
		d := math.Abs(h - wh)
		return s > 0.35 && min(d, 360-d) <= 12
	}
}

// hueSat returns c's hue in degrees and its HSV saturation.
func hueSat(c color.RGBA) (hue, sat float64) {
	r, g, b := float64(c.R)/255, float64(c.G)/255, float64(c.B)/255
	hi, lo := max(r, g, b), min(r, g, b)
	if hi == 0 || hi == lo {
		return 0, 0
	}
	d := hi - lo
	switch hi {
	case r:
		hue = 60 * math.Mod((g-b)/d, 6)
	case g:
		hue = 60 * ((b-r)/d + 2)
	default:
		hue = 60 * ((r-g)/d + 4)
	}
	if hue < 0 {
		hue += 360
	}
	return hue, d / hi
}

// ownShot is a screenshot of the window client and what the server knew when it was taken.
type ownShot struct {
	path   string
	img    *image.RGBA
	me     uint32                  // the client's own tank
	pose   netcode.Pose            // its pose on the server
	others map[uint32]netcode.Pose // the players that were there before it joined
}

// screenshotOwnTank runs the window client against w for 120 frames at shotW x shotH and
// returns its screenshot. The client's own tank is the player that was not there before;
// nobody presses a key, so it is still where it spawned.
func screenshotOwnTank(t *testing.T, bin string, w *world) ownShot {
	t.Helper()
	s := ownShot{others: w.ids(), path: filepath.Join(t.TempDir(), "shot.png")}
	r := runClient(t, bin, "-server", w.addr, "-name", "e2e", "-screenshot", s.path, "-frames", "120",
		"-width", fmt.Sprint(shotW), "-height", fmt.Sprint(shotH))
	if r.code != 0 {
		t.Fatalf("tankclient exited %d; stderr:\n%s", r.code, r.stderr)
	}
	for id, p := range w.ids() {
		if _, ok := s.others[id]; !ok {
			s.me, s.pose = id, p
		}
	}
	if s.me == 0 {
		t.Fatal("the server never saw the client's tank")
	}
	s.img = readPNG(t, s.path)
	return s
}
