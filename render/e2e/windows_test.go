package e2e

import (
	"context"
	"fmt"
	"image"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// smallestDesktopW is the narrowest screen make demo-windows must fit: 1920 pixels.
const smallestDesktopW = 1920

// makeVar returns the value of a "NAME := value" line of the Makefile.
func makeVar(t *testing.T, makefile, name string) string {
	t.Helper()
	m := regexp.MustCompile(`(?m)^` + name + `\s*:=\s*(.*)$`).FindStringSubmatch(makefile)
	if m == nil {
		t.Fatalf("the Makefile defines no %s", name)
	}
	return strings.TrimSpace(m[1])
}

// windowRect reads -pos x,y -width w -height h from args into a rectangle.
func windowRect(t *testing.T, args []string) image.Rectangle {
	t.Helper()
	var x, y, w, h int
	for i := 0; i+1 < len(args); i++ {
		switch args[i] {
		case "-pos":
			xs, ys, _ := strings.Cut(args[i+1], ",")
			x, _ = strconv.Atoi(xs)
			y, _ = strconv.Atoi(ys)
		case "-width":
			w, _ = strconv.Atoi(args[i+1])
		case "-height":
			h, _ = strconv.Atoi(args[i+1])
		}
	}
	if w == 0 || h == 0 {
		t.Fatalf("window flags %q give no size", args)
	}
	return image.Rect(x, y, x+w, y+h)
}

func TestDemoWindowsSideBySide(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(moduleRoot(t), "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	mk := string(data)
	if !strings.Contains(mk, "$(NEAR_WINDOW)") || !strings.Contains(mk, "$(FAR_WINDOW)") {
		t.Fatal("make demo-windows does not pass NEAR_WINDOW and FAR_WINDOW to its two clients")
	}
	near := strings.Fields(makeVar(t, mk, "NEAR_WINDOW"))
	far := strings.Fields(makeVar(t, mk, "FAR_WINDOW"))
	a, b := windowRect(t, near), windowRect(t, far)
	if a.Overlaps(b) {
		t.Errorf("demo-windows places the windows at %v and %v: they overlap", a, b)
	}
	if a.Min.Y != b.Min.Y || b.Min.X < a.Max.X {
		t.Errorf("demo-windows places the windows at %v and %v, want the far one right of the near one, level", a, b)
	}
	if b.Max.X > smallestDesktopW {
		t.Errorf("demo-windows needs a screen %d pixels wide, want them to fit %d", b.Max.X, smallestDesktopW)
	}

	// And the window system puts them there: open both and ask X where they are.
	bin := needDisplay(t)
	if _, err := exec.LookPath("xwininfo"); err != nil {
		missing(t, "xwininfo (x11-utils, which make deps installs) is not installed: the windows' real positions go unchecked")
	}
	if sw := rootWidth(t); sw < b.Max.X {
		missing(t, "the X screen is %d pixels wide, too narrow for the windows (%d): their real positions go unchecked (make test uses 1920x1080)", sw, b.Max.X)
	}
	w := startWorld(t, 4)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var wg sync.WaitGroup
	for _, args := range [][]string{near, far} {
		name := "near"
		if &args[0] == &far[0] {
			name = "far"
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Far more frames than the test waits for: the test ends these runs.
			_, _ = execClient(ctx, nil, bin, append([]string{"-server", w.addr, "-name", name,
				"-screenshot", filepath.Join(t.TempDir(), name+".png"), "-frames", "1000000"}, args...)...)
		}()
	}
	defer wg.Wait()
	defer cancel()
	want := map[string]image.Point{"near": a.Min, "far": b.Min}
	deadline := time.Now().Add(pollTimeout)
	for {
		got, err := windowPositions(w.addr)
		ok := err == nil && len(got) == 2
		for name, p := range want {
			ok = ok && got[name] == p
		}
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("windows at %v, want %v (last xwininfo error: %v)", got, want, err)
		}
		time.Sleep(10 * pollEvery)
	}
}

// xwinLine is one window of xwininfo -root -tree: its title, then its geometry with the
// absolute position last ("... 940x640+0+0  +960+0").
var xwinLine = regexp.MustCompile(`"tanknet — (\w+) @ ([^"]+)".*\s\+(-?\d+)\+(-?\d+)\s*$`)

// windowPositions returns where X has the tanknet windows playing on addr, by player name.
// xwininfo fails now and then while it walks the tree, when a window it listed is gone
// before it asks for its geometry (a client starting up opens and closes windows): the
// caller asks again.
func windowPositions(addr string) (map[string]image.Point, error) {
	cmd := exec.Command("xwininfo", "-root", "-tree")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("xwininfo: %v: %s", err, strings.TrimSpace(stderr.String()))
	}
	got := map[string]image.Point{}
	for _, line := range strings.Split(string(out), "\n") {
		m := xwinLine.FindStringSubmatch(line)
		if m == nil || m[2] != addr {
			continue
		}
		x, _ := strconv.Atoi(m[3])
		y, _ := strconv.Atoi(m[4])
		got[m[1]] = image.Point{X: x, Y: y}
	}
	return got, nil
}

// rootWidth returns the X screen's width in pixels.
func rootWidth(t *testing.T) int {
	t.Helper()
	out, err := exec.Command("xwininfo", "-root").Output()
	if err != nil {
		t.Fatalf("xwininfo -root: %v", err)
	}
	m := regexp.MustCompile(`(?m)^\s*Width:\s*(\d+)`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("xwininfo -root printed no width:\n%s", out)
	}
	w, _ := strconv.Atoi(string(m[1]))
	return w
}
