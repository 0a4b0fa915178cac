package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"

	"tanknet/internal/promtext"
)

// tankserver is one tankserver process of the curve, on 127.0.0.1, with its metrics endpoint.
type tankserver struct {
	cmd     *exec.Cmd
	addr    string // the game's UDP address
	metrics string // the -metrics address
}

// startServer starts the server (bin: its binary, after any command that runs it, as
// taskset) with room for players in rooms of roomSize, logging to logPath, and waits until
// its metrics answer.
func startServer(ctx context.Context, bin []string, arena, logPath string, players, roomSize int) (*tankserver, error) {
	rooms := (players + roomSize - 1) / roomSize
	udp, err := freePort("udp")
	if err != nil {
		return nil, err
	}
	tcp, err := freePort("tcp")
	if err != nil {
		return nil, err
	}
	s := &tankserver{addr: "127.0.0.1:" + udp, metrics: "127.0.0.1:" + tcp}
	log, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	args := append(bin[1:len(bin):len(bin)], "-addr", s.addr, "-metrics", s.metrics, "-arena", arena, "-discovery", "off",
		"-max-players", strconv.Itoa(roomSize), "-max-rooms", strconv.Itoa(rooms),
		// every thin client comes from 127.0.0.1: that one address may open every room
		"-max-rooms-per-address", strconv.Itoa(rooms), "-extra-rooms", strconv.Itoa(rooms), "-room-open-burst", strconv.Itoa(rooms))
	s.cmd = exec.CommandContext(ctx, bin[0], args...)
	s.cmd.Stdout, s.cmd.Stderr = log, log
	if err := s.cmd.Start(); err != nil {
		log.Close()
		return nil, fmt.Errorf("loadcurve: start %s: %w", strings.Join(bin, " "), err)
	}
	log.Close()     // the child has its own descriptor
	for range 100 { // up to 10 s for the endpoint to answer
		if _, err := s.scrape(); err == nil {
			return s, nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	s.stop()
	return nil, fmt.Errorf("loadcurve: %s did not answer on %s (see %s)", strings.Join(bin, " "), s.metrics, logPath)
}

// stop asks the server to stop and waits for it.
func (s *tankserver) stop() {
	_ = s.cmd.Process.Signal(syscall.SIGINT)
	_ = s.cmd.Wait()
}

// freePort returns a port of 127.0.0.1 that was free a moment ago.
func freePort(network string) (string, error) {
	var addr net.Addr
	if network == "udp" {
		pc, err := net.ListenPacket("udp", "127.0.0.1:0")
		if err != nil {
			return "", err
		}
		addr = pc.LocalAddr()
		pc.Close()
	} else {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return "", err
		}
		addr = l.Addr()
		l.Close()
	}
	_, port, err := net.SplitHostPort(addr.String())
	return port, err
}

// scrape reads the server's metrics.
func (s *tankserver) scrape() (promtext.Series, error) {
	c := http.Client{Timeout: 5 * time.Second}
	resp, err := c.Get("http://" + s.metrics + "/metrics")
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	return promtext.Read(resp.Body)
}
