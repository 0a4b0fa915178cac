package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"tanknet/internal/cdp"
)

// runTanksim plays bots native bots against addr for d (with extra flags: "-web" and the
// page's URL for bots over WebRTC) and returns tanksim's JSON report (nil when it failed).
func runTanksim(ctx context.Context, addr string, bots int, d time.Duration, extra ...string) map[string]any {
	args := append([]string{"-server", addr, "-bots", fmt.Sprint(bots), "-duration", d.String(), "-net", "none", "-json"}, extra...)
	out, err := exec.CommandContext(ctx, "bin/tanksim", args...).Output()
	if err != nil {
		fmt.Fprintln(os.Stderr, "webmeasure: tanksim:", err)
		return nil
	}
	var m map[string]any
	json.Unmarshal(out, &m)
	return m
}

// server is bin/tankserver running with -web on loopback.
type server struct {
	cmd     *exec.Cmd
	stopped sync.Once
	mu      sync.Mutex
	log     strings.Builder
	done    chan struct{}
}

// startServer runs bin/tankserver for players on free loopback ports and returns it, the
// page's URL and the game's UDP address.
func startServer(ctx context.Context, players int) (*server, string, string, error) {
	addr := "127.0.0.1:7871"
	// Every page comes from 127.0.0.1, and a closed page's peer lingers until the server
	// drops it: the per-address limit is raised past the pages of a run.
	cmd := exec.CommandContext(ctx, "bin/tankserver", "-addr", addr, "-web", "127.0.0.1:0", "-web-dir", "bin/web", "-web-per-address", "64",
		"-max-players", fmt.Sprint(max(players, 16)), "-metrics", metricsAddr)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, "", "", err
	}
	if err := cmd.Start(); err != nil {
		return nil, "", "", fmt.Errorf("bin/tankserver (make build web first): %w", err)
	}
	s := &server{cmd: cmd, done: make(chan struct{})}
	urls := make(chan string, 1)
	go s.read(stderr, urls)
	select {
	case url := <-urls:
		return s, url, addr, nil
	case <-s.done:
		return nil, "", "", fmt.Errorf("tankserver stopped: %s", s.String())
	case <-time.After(10 * time.Second):
		s.stop()
		return nil, "", "", fmt.Errorf("tankserver did not serve the page within 10 s: %s", s.String())
	}
}

// servingLine is the server's log line that says where it serves the page, with the URL.
var servingLine = regexp.MustCompile(`serving the browser client" url=(\S+)`)

// read keeps the server's log and sends the page's URL once it is served.
func (s *server) read(r io.Reader, urls chan<- string) {
	defer close(s.done)
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		s.mu.Lock()
		s.log.WriteString(sc.Text() + "\n")
		s.mu.Unlock()
		if m := servingLine.FindStringSubmatch(sc.Text()); m != nil {
			urls <- m[1]
		}
	}
}

func (s *server) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.log.String()
}

// summary returns the server's closing lines: players dropped and what the browsers did.
func (s *server) summary() []string {
	var out []string
	for _, line := range strings.Split(s.String(), "\n") {
		if strings.Contains(line, `msg="server stopped"`) || strings.Contains(line, "msg=browsers") {
			out = append(out, line)
		}
	}
	return out
}

// stop interrupts the server and waits for its closing lines.
func (s *server) stop() {
	s.stopped.Do(func() {
		s.cmd.Process.Signal(os.Interrupt)
		select {
		case <-s.done:
		case <-time.After(10 * time.Second):
			s.cmd.Process.Kill()
		}
		s.cmd.Wait()
	})
}

// startChromium starts a headless Chromium with a fresh profile and extra flags; done ends
// it and removes the profile.
func startChromium(chromium string, extra ...string) (b *cdp.Browser, done func(), err error) {
	dir, err := os.MkdirTemp("", "webmeasure")
	if err != nil {
		return nil, nil, err
	}
	b, err = cdp.Start(chromium, nil, append(append(slices.Clone(cdp.Headless), "--user-data-dir="+dir), extra...)...)
	if err != nil {
		os.RemoveAll(dir)
		return nil, nil, err
	}
	return b, func() { b.Close(); os.RemoveAll(dir) }, nil
}
