package main

import (
	"bytes"
	"net"
	"strings"
	"testing"

	"rsc.io/qr"
)

// TestTerminalQR: the half blocks drawn in the terminal are the code's modules, row for row,
// inside a light quiet zone, so a camera reads what the encoder made.
func TestTerminalQR(t *testing.T) {
	code, err := qr.Encode("http://192.168.1.20:8080/", qr.M)
	if err != nil {
		t.Fatal(err)
	}
	side := code.Size + 2*quietZone
	lines := strings.Split(strings.TrimSuffix(terminalQR(code), "\n"), "\n")
	if len(lines) != (side+1)/2 {
		t.Fatalf("%d lines, want %d for %d module rows", len(lines), (side+1)/2, side)
	}
	for i, line := range lines {
		line = strings.TrimSuffix(strings.TrimPrefix(line, "\x1b[30;47m"), "\x1b[0m")
		cells := []rune(line)
		if len(cells) != side {
			t.Fatalf("line %d has %d cells, want %d", i, len(cells), side)
		}
		for x, c := range cells {
			top, bottom := c == '█' || c == '▀', c == '█' || c == '▄'
			mx, my := x-quietZone, 2*i-quietZone
			if top != code.Black(mx, my) || bottom != code.Black(mx, my+1) {
				t.Fatalf("module (%d,%d) drawn as %q, want top %v bottom %v", mx, my, c, code.Black(mx, my), code.Black(mx, my+1))
			}
		}
	}
}

// TestPrintURLs: the play, demo and tour URLs at the port; on every interface, loopback
// among them and a code for a phone; on loopback alone, those URLs only and no code.
func TestPrintURLs(t *testing.T) {
	var out bytes.Buffer
	if err := printURLs(&out, &net.TCPAddr{IP: net.IPv4zero, Port: 8123}); err != nil {
		t.Fatal(err)
	}
	want := []string{"play  http://127.0.0.1:8123/\n", "demo  http://127.0.0.1:8123/?demo=1\n", "tour  http://127.0.0.1:8123/?tour=1\n"}
	if len(lanHosts()) > 0 {
		want = append(want, "scan this for http://", "█")
	}
	for _, w := range want {
		if !strings.Contains(out.String(), w) {
			t.Errorf("printURLs(0.0.0.0:8123) wrote:\n%s\nwant it to contain %q", out.String(), w)
		}
	}
	out.Reset()
	if err := printURLs(&out, &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8124}); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); strings.Count(got, "http://") != 3 || !strings.Contains(got, "play  http://127.0.0.1:8124/\n") ||
		strings.Contains(got, "█") || !strings.Contains(got, "this machine only") {
		t.Errorf("printURLs(127.0.0.1:8124) wrote:\n%s\nwant the three loopback URLs, no code, and that it is this machine only", got)
	}
	for _, h := range lanHosts() {
		if strings.HasPrefix(h, "127.") {
			t.Errorf("lanHosts lists loopback %s", h)
		}
	}
}
