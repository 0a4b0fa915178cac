package e2e

import (
	"bufio"
	"context"
	"fmt"
	"image/color"
	"io"
	"net/netip"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"tanknet/client"
	"tanknet/discovery"
	"tanknet/internal/testbuild"
	"tanknet/render/view"
)

// lanServer is a tankserver process on 127.0.0.1 answering discovery on a port of its own.
type lanServer struct {
	name, game string
	discovery  uint16
}

// startTankserver runs the tankserver binary as name, with its game and discovery on free
// loopback ports, until the test ends.
func startTankserver(t *testing.T, bin, name string) lanServer {
	t.Helper()
	s := lanServer{name: name, game: freeUDPAddr(t)}
	_, port, _ := strings.Cut(freeUDPAddr(t), ":")
	p, _ := strconv.Atoi(port)
	s.discovery = uint16(p)
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, bin, "-addr", s.game, "-discovery", "127.0.0.1:"+port, "-name", name, "-max-rooms", "4")
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); _ = cmd.Wait() })
	return s
}

// waitRooms polls discovery at ports until every server named in want lists want's rooms.
func waitRooms(t *testing.T, ports []uint16, want map[string][]string) {
	t.Helper()
	cfg := discovery.DefaultBrowseConfig()
	cfg.Targets, cfg.Ports, cfg.Wait, cfg.Refresh = []netip.Addr{netip.MustParseAddr("127.0.0.1")}, ports, 200*time.Millisecond, 200*time.Millisecond
	deadline := time.Now().Add(pollTimeout)
	for {
		list, err := discovery.Discover(context.Background(), cfg)
		if err == nil && hasRooms(list, want) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("discovery found %+v (%v) within %v, want the rooms %v", list, err, pollTimeout, want)
		}
	}
}

func hasRooms(list []discovery.Server, want map[string][]string) bool {
	n := 0
	for _, s := range list {
		var rooms []string
		for _, r := range s.Rooms {
			rooms = append(rooms, r.Name)
		}
		if w, ok := want[s.Name]; ok && strings.Join(rooms, ",") == strings.Join(w, ",") {
			n++
		}
	}
	return n == len(want)
}

// TestLobbyJoinsByKeysAndEscReturns is the lobby end to end: two tankservers on 127.0.0.1
// with discovery on ports of their own, a bot in room red of the first; the lobby lists both
// (a screenshot shows the focus on the first room), the keys Down and Enter join alpha's
// red room (the Welcome names it), Esc comes back to the lobby, and Esc there quits.
func TestLobbyJoinsByKeysAndEscReturns(t *testing.T) {
	bin := needDisplay(t)
	if _, err := exec.LookPath("xdotool"); err != nil {
		missing(t, "xdotool (which make deps installs) is not installed: the lobby's keys cannot be pressed")
	}
	server := buildTankserver(t)
	alpha, bravo := startTankserver(t, server, "alpha"), startTankserver(t, server, "bravo")
	bot, stopBot := context.WithCancel(context.Background())
	botDone := make(chan error, 1)
	go func() {
		_, err := client.RunBot(bot, client.BotConfig{Addr: alpha.game, Name: "bot", Room: "red", Seed: 1, Options: client.DefaultOptions()})
		botDone <- err
	}()
	t.Cleanup(func() { stopBot(); <-botDone })
	ports := []uint16{alpha.discovery, bravo.discovery}
	waitRooms(t, ports, map[string][]string{"alpha": {"default", "red"}, "bravo": {"default"}})
	args := []string{"-name", "e2e", "-discover-to", "127.0.0.1", "-discover-ports", fmt.Sprintf("%d,%d", ports[0], ports[1]),
		"-width", "1000", "-height", "600"}

	shot := filepath.Join(t.TempDir(), "lobby.png")
	if r := runClient(t, bin, append(args, "-screenshot", shot, "-frames", "30")...); r.code != 0 || !strings.Contains(r.stdout, "the lobby lists alpha") {
		t.Fatalf("lobby screenshot run exited %d, stdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	img := readPNG(t, shot)
	first := view.PlaceLobby(1000, 600, 17).Row(1) // alpha's heading, then its first room
	if n := count(img, first, 0, close(lobbyFocus)); n < int(first.W*first.H/2) {
		t.Errorf("the focus colour in %d pixels of the row of alpha's first room, want most of it", n)
	}
	keepOnFailure(t, shot, "tankclient-e2e-lobby-failed.png")

	lines, done := startLobby(t, bin, args)
	lines.await(t, "the lobby lists alpha")
	window := lobbyWindow(t)
	press(t, window, "Down", "Return")
	lines.await(t, `joined alpha / red at `+alpha.game+` room "red"`)
	press(t, window, "Escape")
	lines.await(t, "back in the lobby from alpha / red")
	press(t, window, "Escape")
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("tankclient after Esc in the lobby: %v", err)
		}
	case <-time.After(clientTimeout):
		t.Fatal("tankclient still runs after Esc in the lobby")
	}
}

// lobbyFocus is the fill of the lobby's focused row (render/lobby_draw.go).
var lobbyFocus = color.RGBA{0x2a, 0x3c, 0x5c, 0xff}

// tankserver is the server's program, for the lobby tests that find it on the LAN.
var tankserver testbuild.Once

// buildTankserver returns the tankserver binary, built once per test run.
func buildTankserver(t *testing.T) string {
	t.Helper()
	return tankserver.Program(t, "tanknet/cmd/tankserver")
}

// outLines are a running tankclient's stdout lines; ended is done once it has no more.
// (This package's close matches colours, hence a context rather than a closed channel.)
type outLines struct {
	c     chan string
	ended context.Context
}

// startLobby runs tankclient with args, its stdout lines on the channel returned; done gets
// how it exited.
func startLobby(t *testing.T, bin string, args []string) (outLines, chan error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), clientTimeout)
	t.Cleanup(cancel)
	cmd := exec.CommandContext(ctx, bin, args...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ended, end := context.WithCancel(context.Background())
	lines, done := outLines{c: make(chan string, 64), ended: ended}, make(chan error, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			lines.c <- sc.Text()
		}
		end()
		_, _ = io.Copy(io.Discard, out)
		if err := cmd.Wait(); err != nil {
			err = fmt.Errorf("%v; stderr:\n%s", err, stderr.String())
			done <- err
			return
		}
		done <- nil
	}()
	return lines, done
}

// await reads lines until one contains want, failing the test after pollTimeout.
func (l outLines) await(t *testing.T, want string) {
	t.Helper()
	deadline := time.After(pollTimeout)
	for {
		select {
		case s := <-l.c:
			t.Log(s)
			if strings.Contains(s, want) {
				return
			}
		case <-l.ended.Done():
			if len(l.c) == 0 {
				t.Fatalf("tankclient ended before saying %q", want)
			}
		case <-deadline:
			t.Fatalf("tankclient did not say %q within %v", want, pollTimeout)
		}
	}
}

// lobbyWindow returns the X id of the lobby's window, once it is there.
func lobbyWindow(t *testing.T) string {
	t.Helper()
	deadline := time.Now().Add(pollTimeout)
	for {
		out, err := exec.Command("xdotool", "search", "--name", "tanknet lobby").Output()
		if id := strings.TrimSpace(string(out)); err == nil && id != "" {
			return strings.Fields(id)[0]
		}
		if time.Now().After(deadline) {
			t.Fatalf("no window named \"tanknet lobby\" within %v", pollTimeout)
		}
		time.Sleep(pollEvery)
	}
}

// press focuses window and taps keys (X keysym names) one after another: xdotool's key
// events go through the X server as a keyboard's would, to the focused window.
func press(t *testing.T, window string, keys ...string) {
	t.Helper()
	if out, err := exec.Command("xdotool", "windowfocus", "--sync", window).CombinedOutput(); err != nil {
		t.Fatalf("xdotool windowfocus %s: %v %s", window, err, out)
	}
	args := append([]string{"key", "--delay", "150"}, keys...)
	if out, err := exec.Command("xdotool", args...).CombinedOutput(); err != nil {
		t.Fatalf("xdotool %v: %v %s", args, err, out)
	}
}
